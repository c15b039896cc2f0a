//! Repair tests (input + expected output, "bug" or "not a bug") and the verdict of a run of a candidate program on them.

use std::fmt;

use crate::active::formula::value_of;
use crate::active::observe::Observation;
use crate::active::observe::{OutputEncoder, Status};
use crate::active::program::status_of;
use crate::active::reference::differs;
use crate::active::session::point;
use crate::compare::outputs_match;
use crate::corpus::AnswerExtractor;
use crate::lang::{Execution, Limits, Num, Program};
use crate::oracle::Formula;

/// What a repaired program must do on one input.
#[derive(Debug, Clone, PartialEq)]
pub enum Expectation {
    /// Print this answer (compared as the benchmarks do, [`outputs_match`]) and end normally.
    Output(String),
    /// The original output is a bug (no expected output given): the output must change,
    /// and the learned oracle (when there is one) must no longer flag the run.
    Bug,
    /// The original output is right: it must stay the same.
    NotBug,
}

/// One repair test.
#[derive(Debug, Clone, PartialEq)]
pub struct RepairTest {
    /// The input numbers (one stdin line for `main`, the arguments of a function).
    pub input: Vec<Num>,
    /// What the repaired program must do.
    pub expect: Expectation,
}

impl fmt::Display for RepairTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = crate::active::num::format_input(&self.input);
        match &self.expect {
            Expectation::Output(o) => write!(f, "{input} => {}", o.trim()),
            Expectation::Bug => write!(f, "{input} => bug"),
            Expectation::NotBug => write!(f, "{input} => ok"),
        }
    }
}

/// A malformed line of a tests file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tests line {line}: {message}")]
pub struct TestsParseError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads the tests file format: one test per line, `INPUT => EXPECTED`, where INPUT is
/// whitespace-separated numbers and EXPECTED is the expected output (`\n` for a line
/// break), or the word `bug` (wrong output, expected unknown) or `ok` (output is right).
/// Blank lines and lines starting with `#` are ignored.
pub fn parse_tests(text: &str) -> Result<Vec<RepairTest>, TestsParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| TestsParseError {
            line: i + 1,
            message,
        };
        let (input, expect) = line
            .split_once("=>")
            .ok_or_else(|| err("expected 'INPUT => EXPECTED'".into()))?;
        let input = crate::active::num::parse_input(input)
            .ok_or_else(|| err(format!("input is not numbers: '{}'", input.trim())))?;
        let expect = match expect.trim() {
            "bug" => Expectation::Bug,
            "ok" => Expectation::NotBug,
            e => Expectation::Output(e.replace("\\n", "\n")),
        };
        out.push(RepairTest { input, expect });
    }
    Ok(out)
}

/// The learned bug oracle as the active loop encodes it: a formula over the inputs and
/// the encoded output (`x1..xn, out`), with the session's output encoder.
#[derive(Debug, Clone)]
pub struct LearnedOracle {
    /// True on runs that are bugs.
    pub formula: Formula,
    /// The session's output encoder (word answers keep their codes).
    pub encoder: OutputEncoder,
}

impl LearnedOracle {
    /// Whether the oracle flags the run `(input, status, answer)` as a bug.
    pub fn flags(&self, input: &[Num], status: Status, answer: Option<&str>) -> bool {
        let mut enc = self.encoder.clone();
        let obs = Observation {
            stdout: String::new(),
            status,
            answer: answer.map(str::to_string),
            value: enc.encode(status, answer),
            undefined: None,
        };
        let p: Vec<_> = point(input, &obs).iter().map(value_of).collect();
        self.formula.eval(&p)
    }
}

/// How a run looked: its ending and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunResult {
    /// Normal, timeout or runtime error.
    pub status: Status,
    /// The answer read from stdout (`None` when the pattern finds nothing).
    pub answer: Option<String>,
}

/// The tests of a repair, with what the original program did on each (for "bug" and
/// "not a bug" tests), the answer extractor, the learned oracle and the run limits.
#[derive(Debug, Clone)]
pub struct TestSuite {
    tests: Vec<RepairTest>,
    original: Vec<RunResult>,
    extractor: AnswerExtractor,
    oracle: Option<LearnedOracle>,
    limits: Limits,
    order: Vec<usize>,
}

impl TestSuite {
    /// Runs `original` on every test to record its behaviour. The fuel of `limits` is
    /// lowered to 10x the most the original needed on a test (at least 100 000), so a
    /// patch that loops forever fails fast.
    pub fn new(
        original: &Program,
        tests: Vec<RepairTest>,
        extractor: AnswerExtractor,
        oracle: Option<LearnedOracle>,
        limits: &Limits,
    ) -> TestSuite {
        let mut suite = TestSuite {
            tests,
            original: Vec::new(),
            extractor,
            oracle,
            limits: limits.clone(),
            order: Vec::new(),
        };
        let mut max_steps = 0;
        // (steps of the original's run, test) per group.
        let mut failing = Vec::new();
        let mut passing = Vec::new();
        for i in 0..suite.tests.len() {
            let exec = original.run_test(&suite.tests[i].input, limits);
            max_steps = max_steps.max(exec.steps);
            let r = suite.result(&exec);
            suite.original.push(r);
            if suite.passes(i, &exec) {
                passing.push((exec.steps, i));
            } else {
                failing.push((exec.steps, i));
            }
        }
        suite.limits.fuel = limits.fuel.min(max_steps.saturating_mul(10).max(100_000));
        // Within each group the quickest tests first: most candidates fail some test,
        // and on a slow program (a loop as long as its input) the runs that reject them
        // cheaply are the short ones.
        failing.sort();
        passing.sort();
        suite.order = failing.into_iter().chain(passing).map(|(_, i)| i).collect();
        suite
    }

    /// The tests.
    pub fn tests(&self) -> &[RepairTest] {
        &self.tests
    }

    /// The limits candidate runs use.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The learned oracle, if any.
    pub fn oracle(&self) -> Option<&LearnedOracle> {
        self.oracle.as_ref()
    }

    /// The answer extractor.
    pub fn extractor(&self) -> &AnswerExtractor {
        &self.extractor
    }

    /// Test indices, the ones the original program fails first (a wrong candidate is
    /// usually rejected by the first run), each group by the original's steps, fewest
    /// first.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Indices of the tests the original program fails.
    pub fn failing(&self) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&i| !self.passes_result(i, &self.original[i]))
            .collect()
    }

    /// Status and answer of a run.
    pub fn result(&self, exec: &Execution) -> RunResult {
        let stdout = String::from_utf8_lossy(&exec.stdout);
        RunResult {
            status: status_of(&exec.outcome),
            answer: self.extractor.answer(&stdout),
        }
    }

    /// Whether a run of test `i` passes it.
    pub fn passes(&self, i: usize, exec: &Execution) -> bool {
        let r = self.result(exec);
        self.passes_result(i, &r)
    }

    /// Whether a run with result `r` passes test `i`.
    pub fn passes_result(&self, i: usize, r: &RunResult) -> bool {
        let Some(test) = self.tests.get(i) else {
            return false;
        };
        let orig = self.original.get(i);
        match &test.expect {
            Expectation::Output(e) => {
                r.status == Status::Normal
                    && r.answer.as_deref().is_some_and(|a| outputs_match(a, e))
            }
            Expectation::NotBug => orig.is_none_or(|o| !changed(o, r)),
            Expectation::Bug => {
                orig.is_none_or(|o| changed(o, r))
                    && !self
                        .oracle
                        .as_ref()
                        .is_some_and(|or| or.flags(&test.input, r.status, r.answer.as_deref()))
            }
        }
    }

    /// Runs `program` on test `i` and judges it.
    pub fn run(&self, program: &Program, i: usize) -> (Execution, bool) {
        let exec = program.run_test(&self.tests[i].input, &self.limits);
        let ok = self.passes(i, &exec);
        (exec, ok)
    }
}

/// Whether two runs differ (ending or answer), as the reference labeller judges.
pub fn changed(a: &RunResult, b: &RunResult) -> bool {
    differs(a.status, a.answer.as_deref(), b.status, b.answer.as_deref())
}

/// The labelled tests as repair tests: a bug with a correct output must print it, a bug
/// without one must change (and leave the oracle's region), a "not a bug" must stay.
pub fn repair_tests(labelled: &[crate::active::LabelledTest]) -> Vec<RepairTest> {
    labelled
        .iter()
        .map(|t| RepairTest {
            input: t.input.clone(),
            expect: match (&t.label.expected, t.label.bug) {
                (Some(e), true) => Expectation::Output(e.clone()),
                (None, true) => Expectation::Bug,
                (_, false) => Expectation::NotBug,
            },
        })
        .collect()
}

#[cfg(test)]
mod unit_tests {
    use super::*;
    use crate::lang::compile;

    #[test]
    fn verdicts_for_the_three_expectations() {
        let p = compile("int f(int x) { return x + 1; }").unwrap();
        let tests = parse_tests("# comment\n1 => 2\n5 => bug\n7 => ok\n3 => 5\n").unwrap();
        assert_eq!(tests.len(), 4);
        assert_eq!(tests[1].expect, Expectation::Bug);
        let suite = TestSuite::new(
            &p,
            tests,
            AnswerExtractor::WholeOutput,
            None,
            &Limits::default(),
        );
        assert_eq!(suite.failing(), vec![1, 3]);
        assert_eq!(suite.order()[..2], [1, 3]);
        let q = compile("int f(int x) { return x + 2; }").unwrap();
        let verdicts: Vec<bool> = (0..4).map(|i| suite.run(&q, i).1).collect();
        assert_eq!(verdicts, vec![false, true, false, true]);
        assert!(parse_tests("1 2").is_err());
    }
}
