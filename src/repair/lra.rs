//! Engine 3: angelic values at suspicious expressions, then linear synthesis of the condition refinement or expression that produces them.
//!
//! For each suspicious statement (most suspicious first) and each of its expression
//! locations, the program is compiled with that expression as a repair hole and run on
//! every test while a [`HoleHandler`] records the visible integer variables at each
//! evaluation:
//!
//! - **Conditions** (`if`/`while`/`for` conditions): for each failing test, bounded
//!   forcing plans are tried - flip the outcome of evaluation `k` only (`k` below
//!   [`LraConfig::max_flip_index`]), then force every evaluation true, then false - and the
//!   first plan that makes the test pass gives the angelic outcomes. Passing tests keep
//!   their outcomes. When every flip goes one way, the condition `E` becomes `E && B`
//!   (true to false) or `E || B` (false to true), with `B` synthesised by
//!   [`synthesize_condition`] over the evaluations that matter (f1x's condition
//!   refinement, with `B` found from data instead of enumerated).
//! - **Integer expressions** (assigned values, returned values, arguments): a failing
//!   test that evaluates the expression exactly once tries bounded candidate values
//!   (near the original, small integers, the program's constants, the visible variables'
//!   values and the numbers of the expected output) until one makes it pass; with the
//!   passing tests' original values these are the examples for
//!   [`synthesize_expression`], which must not be a constant (that would hard-code the
//!   tests), or, where no linear expression fits, for [`synthesize_with_terms`]
//!   (`n * (n + 1) / 2`, `a % 4`, `a * b`: see [`super::terms`]).
//!
//! Every synthesised patch is applied to the original text and must pass every test to
//! count as plausible. Bounded by locations, runs per test and the synthesiser's limits.

use super::budget::{Gate, Stop};
use super::cost::EditKind;
use super::localise::Suspicious;
use super::mutate::{bin, locations};
use super::patch::{Edit, Patch, RepairSource};
use super::synth::{
    formula_expr, linear_expr, synthesize_condition, synthesize_expression, SynthConfig,
};
use super::terms::synthesize_with_terms;
use super::tests::TestSuite;
use super::RepairConfig;
use crate::lang::ast::{BinaryOp, Expr};
use crate::lang::bytecode::{HoleSite, HoleVar};
use crate::lang::types::Sc;
use crate::lang::{compile, HoleHandler, NodeId, Num, Program};
use std::collections::{BTreeSet, HashSet};
use std::fmt;

/// Limits of the LRA engine. All are counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LraConfig {
    /// Condition plans flip evaluation `k` for `k` below this. Default 8.
    pub max_flip_index: usize,
    /// Candidate values tried per failing test at an integer expression. Default 48.
    pub max_values: usize,
    /// Hole evaluations recorded per run (the rest still run). Default 200.
    pub max_recorded: usize,
    /// Synthesis examples per location (distinct, failing tests' first). Default 300.
    pub max_examples: usize,
    /// Synthesiser limits. Default [`SynthConfig::default`] without constants.
    pub synth: SynthConfig,
}

impl Default for LraConfig {
    fn default() -> Self {
        LraConfig {
            max_flip_index: 8,
            max_values: 48,
            max_recorded: 200,
            max_examples: 300,
            synth: SynthConfig {
                allow_constant: false,
                ..SynthConfig::default()
            },
        }
    }
}

/// The outcome of the LRA engine (and of [`super::branch`]'s).
#[derive(Clone, Debug)]
pub struct LraReport {
    /// Plausible patches, in the order found.
    pub plausible: Vec<Patch>,
    /// Why it stopped.
    pub stop: Stop,
    /// Expression locations examined.
    pub locations: usize,
    /// Locations where angelic values were found for every failing test.
    pub angelic: usize,
    /// Synthesised candidates (validated on every test).
    pub synthesised: usize,
    /// Test executions used.
    pub test_executions: u64,
}

impl LraReport {
    /// A report of nothing examined yet (stop [`Stop::Exhausted`] until something is).
    pub(super) fn nothing_yet() -> LraReport {
        LraReport {
            plausible: Vec::new(),
            stop: Stop::Exhausted,
            locations: 0,
            angelic: 0,
            synthesised: 0,
            test_executions: 0,
        }
    }
}

impl From<LraReport> for super::enumerate::EngineOutcome {
    fn from(r: LraReport) -> Self {
        super::enumerate::EngineOutcome {
            plausible: r.plausible,
            stop: r.stop,
        }
    }
}

impl fmt::Display for LraReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "lra: {} ({} plausible; {} locations, {} with angelic values, {} synthesised, {} test executions)",
            self.stop,
            self.plausible.len(),
            self.locations,
            self.angelic,
            self.synthesised,
            self.test_executions
        )
    }
}

/// How a run treats the hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Keep every value.
    Observe,
    /// Flip the truth of evaluation `k` only.
    FlipAt(usize),
    /// Every evaluation true (1) or false (0).
    ForceAll(bool),
    /// Every evaluation gives this value.
    Value(i64),
}

/// One recorded evaluation: the integer variables, the original and the used value.
#[derive(Clone, Debug)]
pub(super) struct Evaluated {
    vars: Vec<i64>,
    original: i64,
    used: i64,
    /// Whether `used` is known to be right: a passing test's value, or a value that
    /// gives a failing test its expected output (not merely a changed one).
    exact: bool,
}

/// The hole handler: applies a plan and records evaluations.
struct Recorder<'c> {
    plan: Plan,
    /// Indices into the site's variables of the integer ones (the synthesis variables).
    int_vars: &'c [usize],
    max_recorded: usize,
    count: usize,
    seen: Vec<Evaluated>,
}

fn as_int(sc: Sc, raw: u64) -> i64 {
    match sc {
        Sc::U64 | Sc::Ptr => raw.min(i64::MAX as u64) as i64,
        _ => raw as i64,
    }
}

impl HoleHandler for Recorder<'_> {
    fn value(&mut self, site: &HoleSite, original: u64, vars: &[u64]) -> Result<u64, String> {
        let orig = as_int(site.sc, original);
        let used = match self.plan {
            Plan::Observe => orig,
            Plan::FlipAt(k) if k == self.count => i64::from(orig == 0),
            Plan::FlipAt(_) => orig,
            Plan::ForceAll(b) => i64::from(b),
            Plan::Value(v) => v,
        };
        self.count += 1;
        if self.seen.len() < self.max_recorded {
            self.seen.push(Evaluated {
                vars: self
                    .int_vars
                    .iter()
                    .map(|&i| as_int(site.vars[i].sc, vars.get(i).copied().unwrap_or(0)))
                    .collect(),
                original: orig,
                used,
                exact: true,
            });
        }
        Ok(if used == orig { original } else { used as u64 })
    }
}

fn is_integer(sc: Sc) -> bool {
    !matches!(sc, Sc::F32 | Sc::F64 | Sc::Ptr)
}

/// The engine's state over one repair (also [`super::branch`]'s: a new branch's
/// condition is found the same way).
pub(super) struct Lra<'a, 'g> {
    gate: &'a mut Gate<'g>,
    src: &'a RepairSource,
    suite: &'a TestSuite,
    config: &'a RepairConfig,
    lra: &'a LraConfig,
    failing: Vec<usize>,
    passing: Vec<usize>,
    executions: u64,
    /// The program's constants, found once ([`RepairSource::constants`] walks the tree).
    constants: Vec<i64>,
    /// The moduli of its own remainders ([`moduli`]).
    moduli: Vec<i64>,
}

/// A location compiled as a hole.
pub(super) struct Hole {
    program: Program,
    site: HoleSite,
    pub(super) int_vars: Vec<usize>,
}

type Run = Result<(bool, Vec<Evaluated>, usize), Stop>;

impl<'a, 'g> Lra<'a, 'g> {
    /// The engine over `src` and `suite`, its failing and passing tests and the program's
    /// constants found once.
    pub(super) fn new(
        gate: &'a mut Gate<'g>,
        src: &'a RepairSource,
        suite: &'a TestSuite,
        config: &'a RepairConfig,
        lra: &'a LraConfig,
    ) -> Lra<'a, 'g> {
        let failing = suite.failing();
        let passing = suite
            .order()
            .iter()
            .copied()
            .filter(|t| !failing.contains(t))
            .collect();
        let constants = src.constants();
        Lra {
            gate,
            src,
            suite,
            config,
            lra,
            failing,
            passing,
            executions: 0,
            moduli: moduli(&constants),
            constants,
        }
    }

    /// The gate every engine draws from.
    pub(super) fn gate(&mut self) -> &mut Gate<'g> {
        self.gate
    }

    /// Test executions so far.
    pub(super) fn executions(&self) -> u64 {
        self.executions
    }

    /// Runs test `t` under `plan`: whether it passes and the evaluations seen.
    fn run(&mut self, hole: &Hole, t: usize, plan: Plan) -> Run {
        self.gate.execution()?;
        self.gate.stats.plain_executions += 1;
        let mut rec = Recorder {
            plan,
            int_vars: &hole.int_vars,
            max_recorded: self.lra.max_recorded,
            count: 0,
            seen: Vec::new(),
        };
        self.executions += 1;
        let input: &[Num] = &self.suite.tests()[t].input;
        let exec = hole
            .program
            .run_test_with_hole(input, &self.suite.limits_for(t), &mut rec);
        Ok((self.suite.passes(t, &exec), rec.seen, rec.count))
    }

    fn names(&self, hole: &Hole) -> Vec<String> {
        hole.int_vars
            .iter()
            .map(|&i| hole.site.vars[i].name.clone())
            .collect()
    }

    /// Angelic outcomes of a condition: per evaluation (vars, original, used), or `None`
    /// when some failing test passes under no plan.
    pub(super) fn condition_examples(
        &mut self,
        hole: &Hole,
    ) -> Result<Option<Vec<Evaluated>>, Stop> {
        let mut out = Vec::new();
        for t in self.failing.clone() {
            let (_, _, evaluations) = self.run(hole, t, Plan::Observe)?;
            let plans = (0..evaluations.min(self.lra.max_flip_index))
                .map(Plan::FlipAt)
                .chain([Plan::ForceAll(true), Plan::ForceAll(false)]);
            let mut fixed = None;
            for plan in plans {
                let (ok, seen, _) = self.run(hole, t, plan)?;
                if ok {
                    fixed = Some(seen);
                    break;
                }
            }
            let Some(fixed) = fixed else {
                return Ok(None);
            };
            out.extend(fixed);
        }
        for t in self.passing.clone() {
            out.extend(self.run(hole, t, Plan::Observe)?.1);
        }
        Ok(Some(out))
    }

    /// Angelic values of an integer expression, or `None` when some failing test
    /// evaluates it other than once or passes with no candidate value.
    fn expression_examples(&mut self, hole: &Hole) -> Result<Option<Vec<Evaluated>>, Stop> {
        let mut out = Vec::new();
        let constants = self.constants.clone();
        for t in self.failing.clone() {
            let (_, seen, evaluations) = self.run(hole, t, Plan::Observe)?;
            let Some(first) = seen.first().filter(|_| evaluations == 1) else {
                return Ok(None);
            };
            let expected = match &self.suite.tests()[t].expect {
                super::tests::Expectation::Output(o) => numbers_in(o),
                _ => Vec::new(),
            };
            let mut values: Vec<i64> = Vec::new();
            let mut push = |v: i64| {
                if v != first.original && !values.contains(&v) {
                    values.push(v);
                }
            };
            for d in 1..=3 {
                push(first.original.saturating_add(d));
                push(first.original.saturating_sub(d));
            }
            expected.iter().for_each(|&v| push(v));
            for &x in &first.vars {
                push(x);
                push(x.saturating_add(1));
                push(x.saturating_sub(1));
            }
            constants.iter().for_each(|&c| push(c));
            (-2..=10).for_each(&mut push);
            let mut fixed = None;
            for v in values.into_iter().take(self.lra.max_values) {
                let (ok, seen, _) = self.run(hole, t, Plan::Value(v))?;
                if ok {
                    fixed = seen.into_iter().next();
                    break;
                }
            }
            let Some(mut fixed) = fixed else {
                return Ok(None);
            };
            // A "bug" test passes with any changed output: its value is one of many.
            fixed.exact = matches!(
                self.suite.tests()[t].expect,
                super::tests::Expectation::Output(_)
            );
            out.push(fixed);
        }
        for t in self.passing.clone() {
            out.extend(self.run(hole, t, Plan::Observe)?.1);
        }
        Ok(Some(out))
    }

    /// Refined conditions `E && B` / `E || B` for the angelic outcomes (see
    /// [`Lra::conditions`] for the `B`s).
    fn refine(&self, hole: &Hole, root: &Expr, examples: &[Evaluated]) -> Vec<Edit> {
        let flips: Vec<&Evaluated> = examples
            .iter()
            .filter(|e| (e.original != 0) != (e.used != 0))
            .collect();
        let to_false = flips.iter().all(|e| e.original != 0);
        let to_true = flips.iter().all(|e| e.original == 0);
        if flips.is_empty() || to_false == to_true {
            return Vec::new();
        }
        // B matters only where E has the value being refined.
        let mut data: Vec<(Vec<i64>, bool)> = Vec::new();
        let mut seen = HashSet::new();
        for e in examples.iter().filter(|e| (e.original != 0) == to_false) {
            let row = (e.vars.clone(), e.used != 0);
            if seen.insert(row.clone()) {
                data.push(row);
            }
            if data.len() >= self.lra.max_examples {
                break;
            }
        }
        let op = if to_false {
            BinaryOp::LogAnd
        } else {
            BinaryOp::LogOr
        };
        self.conditions(hole, &data, true)
            .into_iter()
            .map(|cond| Edit::ReplaceExpr {
                target: root.id,
                with: bin(op, root.clone(), cond),
                kind: EditKind::RefineCondition,
            })
            .collect()
    }

    /// Conditions true exactly on the examples labelled `true`: the smallest one, the
    /// smallest one over comparisons of at most two variables (`a == b && a == c` beside
    /// `a + b - c < 3`), and for each modulus of the program's own ([`moduli`]) the
    /// smallest one with its remainders and without equalities to constants (`y % 4 == 0`,
    /// `y % 100 == 0`, `y % 400 == 0` beside `y == 2000`: a few runs rarely tell them
    /// apart), each when it differs. All fit the tests; a person's questions decide.
    ///
    /// Without `linear`, the smallest one over all atoms is left out, and so are sums: a
    /// new branch tests what people test in a missing case (`n == 1`, `a > b`), never
    /// `x + y >= 11`.
    pub(super) fn conditions(
        &self,
        hole: &Hole,
        data: &[(Vec<i64>, bool)],
        linear: bool,
    ) -> Vec<Expr> {
        let names = self.names(hole);
        let with_condition = |condition| SynthConfig {
            condition,
            ..self.lra.synth.clone()
        };
        let plain = with_condition(crate::oracle::LearnConfig {
            triple_atoms: false,
            pair_sums: linear,
            simplex: false,
            ..self.lra.synth.condition.clone()
        });
        let remainders = self.moduli.iter().map(|&m| {
            with_condition(crate::oracle::LearnConfig {
                remainder_atoms: true,
                max_modulus: 1,
                extra_moduli: vec![m],
                equality_atoms: false,
                triple_atoms: false,
                simplex: false,
                ..self.lra.synth.condition.clone()
            })
        });
        let first = linear.then(|| self.lra.synth.clone());
        let configs = [first, Some(plain)]
            .into_iter()
            .map(|c| (c, false))
            .chain(remainders.map(|c| (Some(c), true)));
        let mut out: Vec<Expr> = Vec::new();
        for (config, modular) in configs {
            let Some(config) = config else {
                continue;
            };
            let Some(c) = synthesize_condition(&names, data, &config).condition else {
                continue;
            };
            // A modulus's run adds only a condition that uses it.
            if modular && !c.formula.to_string().contains('%') {
                continue;
            }
            let e = formula_expr(&c.formula);
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }

    /// Whole new conditions replacing `root` that give the angelic outcomes (the only fix
    /// for outcomes that flip both ways, which no refinement `E && B` / `E || B` can give).
    fn resynthesise(&self, hole: &Hole, root: &Expr, examples: &[Evaluated]) -> Vec<Edit> {
        self.new_conditions(hole, examples, true)
            .into_iter()
            .map(|with| Edit::ReplaceExpr {
                target: root.id,
                with,
                kind: EditKind::SynthesiseExpression,
            })
            .collect()
    }

    /// Whole conditions with the angelic outcomes of `examples` (distinct rows, at most
    /// [`LraConfig::max_examples`]; `linear` as in [`Lra::conditions`]).
    pub(super) fn new_conditions(
        &self,
        hole: &Hole,
        examples: &[Evaluated],
        linear: bool,
    ) -> Vec<Expr> {
        let mut data: Vec<(Vec<i64>, bool)> = Vec::new();
        let mut seen = HashSet::new();
        for e in examples {
            let row = (e.vars.clone(), e.used != 0);
            if seen.insert(row.clone()) {
                data.push(row);
            }
            if data.len() >= self.lra.max_examples {
                break;
            }
        }
        self.conditions(hole, &data, linear)
    }

    /// A synthesised expression replacing `root`, if one exists: linear in the visible
    /// variables, else in at most two non-linear terms.
    fn replace(&self, hole: &Hole, root: &Expr, examples: &[Evaluated]) -> Option<Edit> {
        let mut data: Vec<(Vec<i64>, i64)> = Vec::new();
        let mut seen = HashSet::new();
        for e in examples {
            if seen.insert((e.vars.clone(), e.used)) {
                data.push((e.vars.clone(), e.used));
            }
            if data.len() >= self.lra.max_examples {
                break;
            }
        }
        let mut exact: Vec<(Vec<i64>, i64)> = Vec::new();
        for e in examples.iter().filter(|e| e.exact) {
            let row = (e.vars.clone(), e.used);
            if exact.len() < self.lra.max_examples && !exact.contains(&row) {
                exact.push(row);
            }
        }
        let names = self.names(hole);
        let with = match synthesize_expression(&data, hole.int_vars.len(), &self.lra.synth).expr {
            Some(linear) => linear_expr(&linear, &names),
            // No linear fit: products, triangular numbers, quotients and remainders by
            // the program's constants ([`terms`]), at most two of them.
            None => synthesize_with_terms(
                &exact,
                hole.int_vars.len(),
                &self.constants,
                2,
                &self.lra.synth,
            )?
            .expr(&names),
        };
        Some(Edit::ReplaceExpr {
            target: root.id,
            with,
            kind: EditKind::SynthesiseExpression,
        })
    }

    /// Validates each of `edits` as a one-edit patch (within the budget, applicable, not
    /// a text tried before) on every test; the plausible ones join `report`.
    pub(super) fn try_edits(
        &mut self,
        edits: Vec<Edit>,
        tried: &mut BTreeSet<String>,
        report: &mut LraReport,
    ) -> Result<(), Stop> {
        for edit in edits {
            if edit.cost(&self.config.costs) > self.config.budget
                || self.src.check(&edit, &self.config.trusted_lines).is_err()
            {
                continue;
            }
            let patch = Patch::single(edit);
            let Ok(text) = self.src.apply(&patch, &self.config.trusted_lines) else {
                continue;
            };
            if !tried.insert(text) {
                continue;
            }
            self.gate.candidates(1)?;
            report.synthesised += 1;
            self.gate.stats.candidates_decided += 1;
            if self.plausible(&patch)? {
                self.gate.plausible(patch.cost(&self.config.costs));
                report.plausible.push(patch);
                report.stop = Stop::Found;
            }
        }
        Ok(())
    }

    /// Whether `patch` passes every test.
    fn plausible(&mut self, patch: &Patch) -> Result<bool, Stop> {
        let Ok(text) = self.src.apply(patch, &self.config.trusted_lines) else {
            return Ok(false);
        };
        let Ok(program) = compile(&text) else {
            return Ok(false);
        };
        for &t in self.suite.order() {
            self.gate.execution()?;
            self.gate.stats.plain_executions += 1;
            self.executions += 1;
            if !self.suite.run(&program, t).1 {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The moduli of the program's own remainders: its constants from 2 to 1000 and the
/// products of two different ones up to 10 000 (`4 * 100 = 400`); at most 8, smallest
/// first.
fn moduli(constants: &[i64]) -> Vec<i64> {
    let small: Vec<i64> = constants
        .iter()
        .copied()
        .filter(|c| (2..=1000).contains(c))
        .collect();
    let mut out: Vec<i64> = small.clone();
    for (i, &a) in small.iter().enumerate() {
        for &b in &small[i + 1..] {
            if a * b <= 10_000 {
                out.push(a * b);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out.truncate(8);
    out
}

/// The whole numbers written in `text`.
pub(super) fn numbers_in(text: &str) -> Vec<i64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Runs the LRA engine over the `suspicious` statements; see the module docs.
pub fn linear(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    lra: &LraConfig,
    gate: &mut Gate,
) -> LraReport {
    let mut engine = Lra::new(gate, src, suite, config, lra);
    let mut report = LraReport::nothing_yet();
    let mut tried: BTreeSet<String> = BTreeSet::new();
    'stmts: for s in suspicious.iter().take(config.max_locations) {
        let Some(info) = src.stmt(s.stmt) else {
            continue;
        };
        for (root_id, is_cond) in locations(src, info) {
            if let Err(why) = engine.gate.check() {
                report.stop = why;
                break 'stmts;
            }
            let Some(root) = src.expr(root_id) else {
                continue;
            };
            let Some(hole) = compile_hole(src, root_id) else {
                continue;
            };
            if hole.int_vars.is_empty() || !is_integer(hole.site.sc) {
                continue;
            }
            report.locations += 1;
            let examples = if is_cond {
                engine.condition_examples(&hole)
            } else {
                engine.expression_examples(&hole)
            };
            let examples = match examples {
                Ok(ex) => ex,
                Err(why) => {
                    report.stop = why;
                    break 'stmts;
                }
            };
            // A condition gets both the refinement and a new condition where the angelic
            // outcomes allow both: they agree on the tests, and which one generalises is
            // what the questions that choose between patches settle.
            let edits: Vec<Edit> = match examples {
                None => Vec::new(),
                Some(ex) if is_cond => {
                    let mut edits = engine.refine(&hole, root, &ex);
                    edits.extend(engine.resynthesise(&hole, root, &ex));
                    edits
                }
                Some(ex) => engine.replace(&hole, root, &ex).into_iter().collect(),
            };
            if !edits.is_empty() {
                report.angelic += 1;
            }
            if let Err(why) = engine.try_edits(edits, &mut tried, &mut report) {
                report.stop = why;
                break 'stmts;
            }
        }
    }
    report.test_executions = engine.executions;
    report
}

/// `root` of `src` compiled as a hole, with its integer variables.
pub(super) fn compile_hole(src: &RepairSource, root: NodeId) -> Option<Hole> {
    let program = src.compile_with_hole(root).ok()?;
    let site = program.hole_sites().first()?.clone();
    let int_vars = site
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v): &(usize, &HoleVar)| is_integer(v.sc))
        .map(|(i, _)| i)
        .collect();
    Some(Hole {
        program,
        site,
        int_vars,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::repair::gp_program::fixture;
    use crate::repair::synth::LinearExpr;

    /// `prog` repaired against `tests` by `engine` alone (this one or
    /// [`super::super::branch::branches`]), with a fresh gate holding the default budgets.
    pub(in crate::repair) fn alone(
        prog: &str,
        tests: &str,
        engine: impl FnOnce(
            &RepairSource,
            &TestSuite,
            &[Suspicious],
            &RepairConfig,
            &mut Gate,
        ) -> LraReport,
    ) -> (RepairSource, LraReport) {
        let (src, suite, suspicious) = fixture(prog, tests);
        let config = RepairConfig::default();
        let mut stats = super::super::RepairStats::default();
        let mut go_on = |_: &super::super::Progress| super::super::Control::Continue;
        let mut gate = Gate::new(&config, &mut stats, &mut go_on);
        let report = engine(&src, &suite, &suspicious, &config, &mut gate);
        (src, report)
    }

    fn linear(prog: &str, tests: &str) -> (RepairSource, LraReport) {
        alone(prog, tests, |src, suite, suspicious, config, gate| {
            super::linear(src, suite, suspicious, config, &LraConfig::default(), gate)
        })
    }

    /// Whether `patch` applied to `src` passes `tests`.
    pub(in crate::repair) fn passes(src: &RepairSource, patch: &Patch, tests: &str) -> bool {
        let text = src.apply(patch, &Default::default()).unwrap();
        let (_, suite, _) = fixture(&text, tests);
        suite.failing().is_empty()
    }

    #[test]
    fn synthesises_a_missing_conjunct() {
        // Should be `a > 0 && b < 10`.
        let prog = "int main() {\n    int a, b;\n    scanf(\"%d %d\", &a, &b);\n    if (a > 0)\n        printf(\"yes\\n\");\n    else\n        printf(\"no\\n\");\n    return 0;\n}\n";
        let tests = "1 1 => yes\n5 3 => yes\n-1 2 => no\n3 12 => no\n7 10 => no\n0 0 => no\n2 9 => yes\n4 20 => no\n";
        let (src, r) = linear(prog, tests);
        assert_eq!(r.stop, Stop::Found, "{r}");
        let patch = &r.plausible[0];
        let text = src.apply(patch, &Default::default()).unwrap();
        // (The splice parenthesises the wider expression.)
        assert!(text.contains("a > 0 && b < 10)"), "{text}");
        // It generalises: held-out inputs the tests never showed.
        let heldout = "100 9 => yes\n100 10 => no\n1 -50 => yes\n-3 -3 => no\n";
        assert!(passes(&src, patch, heldout));
    }

    #[test]
    fn replaces_a_condition_whose_outcomes_flip_both_ways() {
        // Learn2fix's triangle: `a == b == c` is false on 2 2 2 and true on 2 2 1, so no
        // refinement fixes it; a new condition over a, b, c does.
        let prog = "int main() {\n    int a, b, c;\n    scanf(\"%d %d %d\", &a, &b, &c);\n    if (a <= 0 || b <= 0 || c <= 0 || a >= b + c || b >= a + c || c >= a + b)\n        printf(\"invalid\\n\");\n    else if (a == b == c)\n        printf(\"equilateral\\n\");\n    else if (a == b || b == c || a == c)\n        printf(\"isosceles\\n\");\n    else\n        printf(\"scalene\\n\");\n    return 0;\n}\n";
        let tests = "2 2 2 => equilateral\n5 5 5 => equilateral\n2 2 1 => isosceles\n3 4 5 => scalene\n2 3 3 => isosceles\n1 1 1 => equilateral\n1 2 9 => invalid\n3 2 3 => isosceles\n4 4 3 => isosceles\n";
        let (src, r) = linear(prog, tests);
        assert_eq!(r.stop, Stop::Found, "{r}");
        let heldout = "7 7 7 => equilateral\n6 6 1 => isosceles\n6 5 6 => isosceles\n5 6 6 => isosceles\n4 5 6 => scalene\n9 9 9 => equilateral\n";
        assert!(
            r.plausible.iter().any(|p| passes(&src, p, heldout)),
            "{:?}",
            r.plausible
        );
    }

    #[test]
    fn synthesises_a_missing_linear_expression() {
        // Should return 2 * a - b + 1.
        let prog = "int f(int a, int b) {\n    int r = a + b;\n    return r;\n}\n";
        let tests = "1 1 => 2\n3 5 => 2\n0 4 => -3\n6 2 => 11\n-2 3 => -6\n5 0 => 11\n";
        let (src, r) = linear(prog, tests);
        assert_eq!(r.stop, Stop::Found, "{r}");
        let heldout = "10 7 => 14\n-4 -9 => 2\n100 1 => 200\n";
        assert!(
            r.plausible.iter().any(|p| passes(&src, p, heldout)),
            "{:?}",
            r.plausible
                .iter()
                .map(|p| src.apply(p, &Default::default()).unwrap())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn repair_dispatches_to_the_lra_engine() {
        let prog = "int f(int a, int b) {\n    int r = a + b;\n    return r;\n}\n";
        let tests = "1 1 => 2\n3 5 => 2\n0 4 => -3\n6 2 => 11\n-2 3 => -6\n5 0 => 11\n";
        let config = RepairConfig {
            engine: super::super::Engine::Linear,
            ..RepairConfig::default()
        };
        let tests = super::super::tests::parse_tests(tests).unwrap();
        let report = super::super::repair(prog, &tests, None, &config);
        assert_eq!(report.stop, super::super::StopReason::Found, "{report}");
        assert!(!report.patches.is_empty());
    }

    #[test]
    fn no_angelic_path_is_a_typed_stop() {
        // No value of any one expression makes "7 => 49" print; the output is constant.
        let prog = "int main() {\n    int n;\n    scanf(\"%d\", &n);\n    printf(\"1\\n\");\n    return 0;\n}\n";
        let (_, r) = linear(prog, "7 => 49\n2 => 1\n");
        assert_eq!(r.stop, Stop::Exhausted, "{r}");
        assert!(r.plausible.is_empty());
    }

    #[test]
    fn asts_print_as_the_synthesised_c() {
        let names: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let e = LinearExpr {
            constant: -3,
            terms: vec![(0, -2), (1, 1)],
        };
        assert_eq!(linear_expr(&e, &names).to_string(), e.to_c(&names));
        let e = LinearExpr {
            constant: 4,
            terms: vec![(0, -1), (1, 3)],
        };
        assert_eq!(linear_expr(&e, &names).to_string(), e.to_c(&names));
    }
}
