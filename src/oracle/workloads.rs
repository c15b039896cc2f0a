//! The learner's benchmark workloads: seeded triangle and two-variable DNF draws, and learn calls recorded from active-loop runs (one JSON object per line).
//!
//! A [`LearnCall`] is one call as the active loop makes it: a fresh learn from labelled
//! examples, or a look-one-ahead learn (the learner already holds the examples and its
//! formula; one hypothetical label is added). [`LearnCall::prepare`] does the part the
//! loop has already done (untimed), [`LearnCall::execute`] the call itself (timed by the
//! caller: `fixloop bench learn`, `benches/learn_workloads.rs`, the wasm bench). The module
//! does no I/O and reads no clock.

use super::{learn, triangle, Example, LearnConfig, LearnReport, Learner, Value};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

/// One learn call of a workload.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnCall {
    /// The workload it belongs to (a table row), e.g. `triangle 20`.
    pub workload: String,
    /// Variable names.
    pub vars: Vec<String>,
    /// Of equally small formulas, those over this variable first
    /// ([`LearnConfig::preferred_var`]; the active loop's oracle prefers the output).
    pub preferred_var: Option<usize>,
    /// The labelled examples.
    pub examples: Vec<Example>,
    /// For a look-one-ahead learn: the hypothetical example added to `examples`.
    pub look_ahead: Option<Example>,
}

impl LearnCall {
    /// The learner settings of the call: the defaults with its preferred variable.
    pub fn config(&self) -> LearnConfig {
        LearnConfig {
            preferred_var: self.preferred_var,
            ..LearnConfig::default()
        }
    }

    /// The work done before the call: for a look-ahead, a learner holding the examples
    /// with its formula learned; `None` for a fresh learn (nothing is done before it) or
    /// a point of the wrong arity.
    pub fn prepare(&self) -> Option<Learner> {
        self.look_ahead.as_ref()?;
        let mut l =
            Learner::with_examples(self.vars.clone(), self.config(), &self.examples).ok()?;
        l.learn();
        Some(l)
    }

    /// The call itself, on what [`LearnCall::prepare`] returned.
    pub fn execute(&self, prepared: Option<&mut Learner>) -> LearnReport {
        match (prepared, &self.look_ahead) {
            (Some(l), Some(extra)) => l.learn_with(&extra.point, extra.bug),
            _ => learn(&self.vars, &self.examples, &self.config()),
        }
    }

    /// The table row the call is timed in: its workload, look-ahead learns apart.
    pub fn row(&self) -> String {
        if self.look_ahead.is_some() {
            format!("{} (look-ahead)", self.workload)
        } else {
            self.workload.clone()
        }
    }

    /// Whether `report`'s formula (if any) agrees with every label of the call.
    pub fn consistent(&self, report: &LearnReport) -> bool {
        let Some(f) = &report.formula else {
            return false;
        };
        self.examples
            .iter()
            .chain(&self.look_ahead)
            .all(|e| f.eval(&e.point) == e.bug)
    }
}

/// The rows of `calls` (see [`LearnCall::row`]) in first-seen order, each with the
/// indices of its calls.
pub fn by_row(calls: &[LearnCall]) -> Vec<(String, Vec<usize>)> {
    let mut rows: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, c) in calls.iter().enumerate() {
        let name = c.row();
        match rows.iter_mut().find(|(n, _)| *n == name) {
            Some((_, idx)) => idx.push(i),
            None => rows.push((name, vec![i])),
        }
    }
    rows
}

/// The triangle draws of the speed issue: `n` balanced examples (see
/// [`triangle::draw_balanced`]) for each seed, one fresh learn per seed.
pub fn triangle_draws(n: usize, seeds: std::ops::RangeInclusive<u64>) -> Vec<LearnCall> {
    let all = triangle::all_examples();
    seeds
        .map(|seed| LearnCall {
            workload: format!("triangle {n}"),
            vars: triangle::vars(),
            preferred_var: None,
            examples: triangle::draw_balanced(&all, n, &mut StdRng::seed_from_u64(seed)),
            look_ahead: None,
        })
        .collect()
}

/// `n` points `(x, y)` in `-10..=10` labelled by a random DNF of two terms of two
/// literals each over `x` and `y` (atoms `v <= c`, `v = c`, `x - y <= c`, `x = y`), one
/// fresh learn per seed.
pub fn dnf2_draws(n: usize, seeds: std::ops::RangeInclusive<u64>) -> Vec<LearnCall> {
    seeds
        .map(|seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            let atoms: Vec<(usize, u8, i64)> = (0..4)
                .map(|_| {
                    (
                        rng.random_range(0..2),
                        rng.random_range(0..4),
                        rng.random_range(-5..=5),
                    )
                })
                .collect();
            let holds = |p: &[i64], &(v, kind, c): &(usize, u8, i64)| match kind {
                0 => p[v] <= c,
                1 => p[v] == c,
                2 => p[0] - p[1] <= c,
                _ => p[0] == p[1],
            };
            let examples = (0..n)
                .map(|_| {
                    let p: Vec<i64> = (0..2).map(|_| rng.random_range(-10..=10)).collect();
                    let bug = (holds(&p, &atoms[0]) && holds(&p, &atoms[1]))
                        || (holds(&p, &atoms[2]) && holds(&p, &atoms[3]));
                    Example {
                        point: p.into_iter().map(Value::Int).collect(),
                        bug,
                    }
                })
                .collect();
            LearnCall {
                workload: format!("dnf2 {n}"),
                vars: vec!["x".into(), "y".into()],
                preferred_var: None,
                examples,
                look_ahead: None,
            }
        })
        .collect()
}

/// A [`LearnCall`] as one line of a recording: values as exact text ([`Value`]'s
/// `Display`, read back by [`Value::parse`]), each example's label last.
#[derive(Serialize, Deserialize)]
struct Line {
    workload: String,
    vars: Vec<String>,
    preferred_var: Option<usize>,
    /// Each example: its values, then `"bug"` or `"ok"`.
    examples: Vec<Vec<String>>,
    look_ahead: Option<Vec<String>>,
}

fn example_text(e: &Example) -> Vec<String> {
    let mut out: Vec<String> = e.point.iter().map(Value::to_string).collect();
    out.push(if e.bug { "bug" } else { "ok" }.into());
    out
}

fn example_of(text: &[String]) -> Result<Example, String> {
    let (label, values) = text.split_last().ok_or("an empty example")?;
    let bug = match label.as_str() {
        "bug" => true,
        "ok" => false,
        other => return Err(format!("label `{other}` is not `bug` or `ok`")),
    };
    let point = values
        .iter()
        .map(|v| Value::parse(v).ok_or_else(|| format!("`{v}` is not a number")))
        .collect::<Result<_, _>>()?;
    Ok(Example { point, bug })
}

impl LearnCall {
    /// The call as one line of a recording (no newline).
    pub fn to_line(&self) -> String {
        let line = Line {
            workload: self.workload.clone(),
            vars: self.vars.clone(),
            preferred_var: self.preferred_var,
            examples: self.examples.iter().map(example_text).collect(),
            look_ahead: self.look_ahead.as_ref().map(example_text),
        };
        serde_json::to_string(&line).unwrap_or_default()
    }

    /// Reads a line written by [`LearnCall::to_line`].
    pub fn from_line(text: &str) -> Result<LearnCall, String> {
        let line: Line = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Ok(LearnCall {
            workload: line.workload,
            vars: line.vars,
            preferred_var: line.preferred_var,
            examples: line
                .examples
                .iter()
                .map(|e| example_of(e))
                .collect::<Result<_, _>>()?,
            look_ahead: line.look_ahead.as_deref().map(example_of).transpose()?,
        })
    }
}

/// Reads a recording: one call per non-empty line; the error names the line.
pub fn read_recording(text: &str) -> Result<Vec<LearnCall>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| LearnCall::from_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// The recordings shipped with the crate (`benches/data/*.jsonl`, made by
/// `fixloop bench record`), by file name.
pub const RECORDINGS: [(&str, &str); 2] = [
    (
        "loop-calls-codeflaws.jsonl",
        include_str!("../../benches/data/loop-calls-codeflaws.jsonl"),
    ),
    (
        "loop-calls-introclass.jsonl",
        include_str!("../../benches/data/loop-calls-introclass.jsonl"),
    ),
];

/// Every workload of the speed benchmark, in table order: triangle draws at 10, 20, 40
/// and 80 examples (seeds 1 to 10), two-variable DNF draws at 20 and 40 examples (seeds
/// 1 to 10), then the recorded active-loop calls.
pub fn all() -> Result<Vec<LearnCall>, String> {
    let mut out = Vec::new();
    for n in [10, 20, 40, 80] {
        out.extend(triangle_draws(n, 1..=10));
    }
    for n in [20, 40] {
        out.extend(dnf2_draws(n, 1..=10));
    }
    for (name, text) in RECORDINGS {
        out.extend(read_recording(text).map_err(|e| format!("{name}: {e}"))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_round_trips_through_its_line() {
        let mut call = triangle_draws(10, 3..=3).remove(0);
        call.look_ahead = Some(Example {
            point: vec![
                Value::fraction(7, 2).unwrap(),
                Value::Int(-3),
                Value::Int(1),
                Value::Int(4),
            ],
            bug: false,
        });
        let back = LearnCall::from_line(&call.to_line()).unwrap();
        assert_eq!(back, call);
        assert!(read_recording("{\"workload\":1}").is_err());
    }

    #[test]
    fn a_look_ahead_learns_the_extra_label() {
        let mut call = triangle_draws(10, 1..=1).remove(0);
        let fresh = call.execute(None);
        assert!(call.consistent(&fresh));
        // A point the formula calls ok, labelled bug.
        let extra = triangle::all_examples()
            .into_iter()
            .find(|e| !fresh.formula.as_ref().unwrap().eval(&e.point))
            .unwrap();
        call.look_ahead = Some(Example { bug: true, ..extra });
        let mut l = call.prepare();
        assert!(l.is_some());
        let r = call.execute(l.as_mut());
        assert!(call.consistent(&r), "{:?}", r.formula);
    }

    #[test]
    fn dnf2_draws_have_both_labels_mostly() {
        let calls = dnf2_draws(40, 1..=10);
        let mixed = calls
            .iter()
            .filter(|c| c.examples.iter().any(|e| e.bug) && c.examples.iter().any(|e| !e.bug))
            .count();
        assert!(mixed >= 7, "{mixed} of 10 draws have both labels");
    }
}
