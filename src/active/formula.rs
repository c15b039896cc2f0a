//! The real bug oracle for the loop: [`crate::oracle::Learner`] (smallest consistent formula) behind [`BugOracle`].

use super::learner::{BugOracle, Example, LearnStatus};
use super::num::Num;
use crate::oracle::{Formula, LearnConfig, Learner, Value};
use num_bigint::BigInt;
use num_rational::BigRational;

/// The exact value of an input or output number. Floats are read from their shortest
/// decimal form (`0.1` is 1/10, as the user typed it), integers as they are.
pub fn value_of(n: &Num) -> Value {
    match *n {
        Num::Int(i) => Value::Int(i),
        Num::Float(f) => decimal_value(f).unwrap_or(Value::Int(0)),
    }
}

/// The exact rational of the shortest decimal text of `f` (`None` for NaN/infinity).
fn decimal_value(f: f64) -> Option<Value> {
    if !f.is_finite() {
        return None;
    }
    // Rust's `Display` for f64 is the shortest round-trip form, never in exponent notation.
    let text = format!("{f}");
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.as_str()),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mut numer: BigInt = format!("{int}{frac}").parse().ok()?;
    if neg {
        numer = -numer;
    }
    let denom = BigInt::from(10u32).pow(frac.len() as u32);
    Some(Value::from_rational(BigRational::new(numer, denom)))
}

/// The points of the loop as the learner's values.
fn values(point: &[Num]) -> Vec<Value> {
    point.iter().map(value_of).collect()
}

/// Variable names for `arity` values: `x1 .. x(n)` for the inputs and `out` for the output.
pub fn variable_names(arity: usize) -> Vec<String> {
    let mut names: Vec<String> = (1..arity).map(|i| format!("x{i}")).collect();
    names.push("out".to_string());
    names
}

/// The oracle's variables for inputs named `inputs` (the program's own names, see
/// [`crate::lang::inputs::ProgramInputs::names`]): those names and an output name that is
/// not one of them (`out`, else `output`, `out_`...). Names the formula syntax reserves
/// (`and`, `or`, `true`, `false`, any case) or repeated ones give [`variable_names`].
pub fn named_variables(inputs: &[String]) -> Vec<String> {
    let reserved = |n: &str| {
        matches!(
            n.to_ascii_lowercase().as_str(),
            "and" | "or" | "true" | "false"
        )
    };
    let distinct = inputs
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == inputs.len();
    if !distinct || inputs.iter().any(|n| reserved(n)) {
        return variable_names(inputs.len() + 1);
    }
    let mut out = "out".to_string();
    if inputs.contains(&out) {
        out = "output".into();
    }
    while inputs.contains(&out) {
        out.push('_');
    }
    inputs.iter().cloned().chain(std::iter::once(out)).collect()
}

/// [`Learner`] as the active loop's oracle. Examples are added incrementally (the loop's
/// list only grows); the current formula is the last consistent one (a failed learn
/// keeps the previous formula; before any formula, every run is predicted "bug"). Of
/// equally small formulas it takes one over the output `out` where there is one
/// ([`LearnConfig::preferred_var`]), or - [`FormulaOracle::preferring_inputs`] - one
/// over the inputs alone without remainders ([`LearnConfig::avoided_var`]).
pub struct FormulaOracle {
    config: LearnConfig,
    /// Names of the input variables (`None`: `x1 .. xn`).
    input_names: Option<Vec<String>>,
    learner: Option<Learner>,
    added: usize,
    formula: Option<Formula>,
    /// Learn calls that found no formula (current and look-ahead).
    pub failures: usize,
    /// Conflict budget of all learn calls together (see [`BugOracle::set_conflict_budget`]).
    conflict_budget: Option<u64>,
    /// Conflicts used by learners this oracle dropped (rebuilt on a shorter example list).
    conflicts_dropped: u64,
    /// Of equally small formulas, prefer one over the inputs alone, without remainders.
    prefer_inputs: bool,
}

impl Default for FormulaOracle {
    fn default() -> Self {
        FormulaOracle::new()
    }
}

impl FormulaOracle {
    /// An oracle with the learner's default settings.
    pub fn new() -> FormulaOracle {
        FormulaOracle::with_config(LearnConfig::default())
    }

    /// An oracle with the given learner settings.
    pub fn with_config(config: LearnConfig) -> FormulaOracle {
        FormulaOracle {
            config,
            input_names: None,
            learner: None,
            added: 0,
            formula: None,
            failures: 0,
            conflict_budget: None,
            conflicts_dropped: 0,
            prefer_inputs: false,
        }
    }

    /// This oracle taking, of equally small formulas, one over the inputs alone and
    /// without remainder atoms where there is one (`yes`), or one over the output (the
    /// default): a person who answers Bug or Not a bug says where the bug is, which a
    /// formula over the inputs states without claiming which outputs are right.
    pub fn preferring_inputs(mut self, yes: bool) -> FormulaOracle {
        self.prefer_inputs = yes;
        self
    }

    /// This oracle naming the inputs `names` in its formulas (see [`named_variables`]);
    /// examples of another arity use `x1 .. xn`.
    pub fn with_input_names(mut self, names: Vec<String>) -> FormulaOracle {
        self.input_names = Some(names);
        self
    }

    /// The variable names of examples with `arity` values (inputs, then the output).
    pub fn names(&self, arity: usize) -> Vec<String> {
        match &self.input_names {
            Some(inputs) if inputs.len() + 1 == arity => named_variables(inputs),
            _ => variable_names(arity),
        }
    }

    /// The current formula.
    pub fn formula(&self) -> Option<&Formula> {
        self.formula.as_ref()
    }

    /// Brings the learner up to date with `examples` (which extend the ones added).
    fn sync(&mut self, examples: &[Example]) -> Option<&mut Learner> {
        if examples.len() < self.added {
            if let Some(l) = self.learner.take() {
                self.conflicts_dropped += l.conflicts_used();
            }
            self.added = 0;
        }
        if self.learner.is_none() {
            let arity = examples.first()?.point.len();
            // Ties between smallest formulas go to atoms over the output (the last
            // variable): a formula over the symptom claims less about inputs nobody
            // has labelled than one over the inputs.
            let config = if self.prefer_inputs {
                LearnConfig {
                    preferred_var: None,
                    avoided_var: Some(arity - 1),
                    avoid_remainders: true,
                    ..self.config.clone()
                }
            } else {
                LearnConfig {
                    preferred_var: Some(arity - 1),
                    ..self.config.clone()
                }
            };
            let mut learner = Learner::new(self.names(arity), config);
            learner.set_conflict_budget(
                self.conflict_budget
                    .map(|b| b.saturating_sub(self.conflicts_dropped)),
            );
            self.learner = Some(learner);
        }
        let learner = self.learner.as_mut()?;
        for e in &examples[self.added..] {
            // A point of the wrong arity cannot be learned from; it is left out.
            let _ = learner.add_example(values(&e.point), e.bug);
        }
        self.added = examples.len();
        Some(learner)
    }
}

impl FormulaOracle {
    /// Up to `limit` other formulas that fit the examples learned so far and are no
    /// larger than the current one: each learned with one of the current formula's
    /// atoms left out. A person who sees two formulas fit the answers equally well knows
    /// the answers have not settled where the bug is.
    pub fn alternatives(&self, limit: usize) -> Vec<Formula> {
        let (Some(current), Some(learner)) = (&self.formula, &self.learner) else {
            return Vec::new();
        };
        let examples = learner.examples();
        let mut out: Vec<Formula> = Vec::new();
        for atom in current.atoms() {
            if out.len() >= limit {
                break;
            }
            let config = LearnConfig {
                excluded_atoms: vec![atom.clone()],
                max_conflicts: ALTERNATIVE_CONFLICTS,
                max_sat_calls: ALTERNATIVE_SAT_CALLS,
                ..learner.config().clone()
            };
            let report = crate::oracle::learn(learner.vars(), &examples, &config);
            let Some(f) = report.formula else {
                continue;
            };
            let text = f.to_string();
            let fits = report.stop == crate::oracle::StopReason::Found
                && f.literals() <= current.literals()
                && text != current.to_string();
            if fits && !out.iter().any(|o| o.to_string() == text) {
                out.push(f);
            }
        }
        out
    }
}

/// The SAT conflict budget of each learn call looking for another formula: the page
/// shows them after every answer, so they must cost far less than the loop's own step.
const ALTERNATIVE_CONFLICTS: u64 = 200;

/// The SAT calls of each learn call looking for another formula.
const ALTERNATIVE_SAT_CALLS: usize = 8;

impl BugOracle for FormulaOracle {
    fn learn(&mut self, examples: &[Example]) -> LearnStatus {
        let Some(learner) = self.sync(examples) else {
            return LearnStatus::Failed;
        };
        let report = learner.learn();
        match report.formula {
            Some(f) if report.stop == crate::oracle::StopReason::Found => {
                self.formula = Some(f);
                LearnStatus::Consistent
            }
            _ => {
                self.failures += 1;
                LearnStatus::Failed
            }
        }
    }

    fn predict(&self, point: &[Num]) -> bool {
        match &self.formula {
            Some(f) => f.eval(&values(point)),
            None => true,
        }
    }

    fn predict_with(
        &mut self,
        examples: &[Example],
        extra: &Example,
        query: &[Num],
    ) -> Option<bool> {
        let learner = self.sync(examples)?;
        let report = learner.learn_with(&values(&extra.point), extra.bug);
        match report.formula {
            Some(f) if report.stop == crate::oracle::StopReason::Found => {
                Some(f.eval(&values(query)))
            }
            _ => {
                self.failures += 1;
                None
            }
        }
    }

    fn committee(
        &mut self,
        examples: &[Example],
        neighbours: &[Vec<Num>],
        query: &[Num],
    ) -> Vec<[Option<bool>; 2]> {
        let q = values(query);
        let points: Vec<Vec<Value>> = neighbours.iter().map(|n| values(n)).collect();
        let Some(learner) = self.sync(examples) else {
            return vec![[None, None]; neighbours.len()];
        };
        let mut out = vec![[None, None]; neighbours.len()];
        let mut failures = 0;
        for h in learner.committee(&points) {
            let vote = match h.report.formula {
                Some(f) if h.report.stop == crate::oracle::StopReason::Found => Some(f.eval(&q)),
                _ => {
                    failures += 1;
                    None
                }
            };
            if let Some(slot) = out.get_mut(h.neighbour) {
                slot[usize::from(h.bug)] = vote;
            }
        }
        self.failures += failures;
        out
    }

    fn describe(&self) -> String {
        match &self.formula {
            Some(f) => f.to_string(),
            None => "(no formula yet: every run counts as a bug)".to_string(),
        }
    }

    fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.conflict_budget = budget;
        let dropped = self.conflicts_dropped;
        if let Some(l) = self.learner.as_mut() {
            l.set_conflict_budget(budget.map(|b| b.saturating_sub(dropped)));
        }
    }

    fn conflicts_used(&self) -> u64 {
        self.conflicts_dropped + self.learner.as_ref().map_or(0, Learner::conflicts_used)
    }

    fn budget_exhausted(&self) -> bool {
        self.conflict_budget
            .is_some_and(|b| self.conflicts_used() >= b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_read_as_their_decimal_text() {
        assert_eq!(value_of(&Num::Float(0.1)), Value::fraction(1, 10).unwrap());
        assert_eq!(value_of(&Num::Float(-2.5)), Value::fraction(-5, 2).unwrap());
        assert_eq!(value_of(&Num::Float(3.0)), Value::Int(3));
        assert_eq!(value_of(&Num::Int(-7)), Value::Int(-7));
        assert_eq!(variable_names(3), vec!["x1", "x2", "out"]);
    }

    #[test]
    fn formulas_name_the_program_s_variables() {
        let names =
            |v: &[&str]| named_variables(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&["a", "b"]), ["a", "b", "out"]);
        assert_eq!(names(&["out", "n"]), ["out", "n", "output"]);
        assert_eq!(names(&["out", "output"]), ["out", "output", "output_"]);
        assert_eq!(names(&["a", "and"]), ["x1", "x2", "out"]);
        let examples: Vec<Example> = [(1, 2, true), (3, 3, false)]
            .iter()
            .map(|&(x, out, bug)| Example {
                point: vec![Num::Int(x), Num::Int(out)],
                bug,
            })
            .collect();
        let mut oracle = FormulaOracle::new().with_input_names(vec!["n".into()]);
        assert_eq!(oracle.learn(&examples), LearnStatus::Consistent);
        assert!(oracle.formula().unwrap().to_string().contains("out"));
        assert_eq!(oracle.formula().unwrap().vars(), ["n", "out"]);
    }

    #[test]
    fn ties_go_to_the_output() {
        // x1 > 0 and out < 0 both separate these labels; the oracle says it with `out`.
        let examples: Vec<Example> = [(5, -1, true), (9, -7, true), (-3, 4, false)]
            .iter()
            .map(|&(x, out, bug)| Example {
                point: vec![Num::Int(x), Num::Int(out)],
                bug,
            })
            .collect();
        let mut oracle = FormulaOracle::new();
        assert_eq!(oracle.learn(&examples), LearnStatus::Consistent);
        assert_eq!(oracle.formula().unwrap().to_string(), "(out < 0)");
    }
}
