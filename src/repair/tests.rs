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
use crate::oracle::{Formula, Value};

/// What a repaired program must do on one input.
#[derive(Debug, Clone, PartialEq)]
pub enum Expectation {
    /// Print this answer (compared as the benchmarks do, [`outputs_match`]) and end normally.
    Output(String),
    /// The original output is a bug (no expected output given): the output must change,
    /// and the learned oracle (when there is one, and where it tells outputs apart:
    /// [`LearnedOracle::judges_output_at`]) must no longer flag the run.
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
            outcome: None,
        };
        let p: Vec<_> = point(input, &obs).iter().map(value_of).collect();
        self.formula.eval(&p)
    }

    /// Whether the formula says anything about the output (some atom over `out`, the
    /// last variable): a formula over the inputs alone flags every run of a buggy
    /// input, so agreeing with it on fresh inputs says nothing of a patch.
    pub fn reads_output(&self) -> bool {
        let out = self.formula.vars().len().saturating_sub(1);
        self.formula.atoms().any(|a| a.coefficient(out) != 0)
    }

    /// Whether the oracle tells outputs apart on `input`: some output value it does not
    /// flag. A formula over the inputs alone (`a = b and b = c`) flags every output of a
    /// buggy input, so it cannot say which output would be right there; repair then
    /// needs the right output from the user, or takes any changed output.
    ///
    /// Exact for linear atoms (their truth over the output value changes only at their
    /// thresholds, each tried with its neighbours) and for remainder atoms of moduli up
    /// to 10 (a run of values near each threshold and near 0).
    pub fn judges_output_at(&self, input: &[Num]) -> bool {
        let out = input.len();
        if !self.formula.atoms().any(|a| a.coefficient(out) != 0) {
            return false;
        }
        let mut at: Vec<Value> = input.iter().map(value_of).collect();
        at.push(Value::ZERO);
        let mut candidates: Vec<i64> = (-12..=12).collect();
        for atom in self.formula.atoms() {
            let c = atom.coefficient(out);
            if c == 0 {
                continue;
            }
            // c * out + rest REL rhs: the truth changes at out = (rhs - rest) / c.
            at[out] = Value::ZERO;
            let rest = atom.lhs_value(&at).to_f64();
            let threshold = (atom.rhs().to_f64() - rest) / c as f64;
            if !threshold.is_finite() {
                continue;
            }
            let t = threshold.floor().clamp(-9.0e18, 9.0e18) as i64;
            candidates.extend((-12..=13).map(|d| t.saturating_add(d)));
        }
        candidates.into_iter().any(|v| {
            at[out] = Value::Int(v);
            !self.formula.eval(&at)
        })
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
    /// Fuel of a candidate's run on each test ([`TestSuite::limits_for`]).
    fuel: Vec<u64>,
    order: Vec<usize>,
    /// Per test: the oracle tells outputs apart on its input
    /// ([`LearnedOracle::judges_output_at`]).
    judged: Vec<bool>,
}

/// A test the original program passes weighs this many times its steps in the order of
/// [`TestSuite::order`]: a candidate reaching the suite usually fails a test the original
/// fails, far more rarely one it passes, so a passing test goes first only when its run
/// is this much cheaper.
const PASSING_TEST_WEIGHT: u64 = 10;

/// Steps added to every run's cost in [`TestSuite::order`]: starting a run costs about
/// this much however short the program's work.
const RUN_OVERHEAD_STEPS: u64 = 1_000;

/// The least fuel of any run (a short test's candidate gets at least this many steps).
const MIN_FUEL: u64 = 100_000;

impl TestSuite {
    /// Runs `original` on every test to record its behaviour, and sets the fuel and the
    /// order of candidates' runs. The fuel of `limits` is lowered to 10x the most the
    /// original needed on a test (at least 100 000), so a patch that loops forever fails
    /// fast; on a test the original passes, to 10x what it needed on that test (at least
    /// 100 000), since a fix keeps that run's answer and so, within reason, its work.
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
            fuel: Vec::new(),
            order: Vec::new(),
            judged: Vec::new(),
        };
        suite.judged = suite
            .tests
            .iter()
            .map(|t| {
                suite
                    .oracle
                    .as_ref()
                    .is_some_and(|o| o.judges_output_at(&t.input))
            })
            .collect();
        // (steps of the original's run, whether it passes) per test.
        let mut runs = Vec::new();
        for i in 0..suite.tests.len() {
            let exec = original.run_test(&suite.tests[i].input, limits);
            let r = suite.result(&exec);
            suite.original.push(r);
            runs.push((exec.steps, suite.passes(i, &exec)));
        }
        let tenfold = |steps: u64| limits.fuel.min(steps.saturating_mul(10).max(MIN_FUEL));
        let max_steps = runs.iter().map(|r| r.0).max().unwrap_or(0);
        suite.limits.fuel = tenfold(max_steps);
        suite.fuel = runs
            .iter()
            .map(|&(steps, passes)| {
                if passes {
                    tenfold(steps)
                } else {
                    suite.limits.fuel
                }
            })
            .collect();
        // Cheapest expected rejection first: most candidates fail some test, and on a slow
        // program (a loop as long as its input) the runs that reject them cheaply are the
        // short ones; a test the original fails rejects far more of them.
        let cost = |(steps, passes): (u64, bool)| {
            let weight = if passes { PASSING_TEST_WEIGHT } else { 1 };
            (steps + RUN_OVERHEAD_STEPS).saturating_mul(weight)
        };
        suite.order = (0..runs.len()).collect();
        suite.order.sort_by_key(|&i| (cost(runs[i]), i));
        suite
    }

    /// This suite with "bug" tests judged by the learned oracle (`yes`, as built) or by
    /// the change of output alone (see [`crate::repair::RepairConfig::oracle_judges_bug_tests`]).
    pub fn judging_bug_tests(mut self, yes: bool) -> TestSuite {
        if !yes {
            self.judged.iter_mut().for_each(|j| *j = false);
        }
        self
    }

    /// A suite of `tests` (the tests file format) for `original`, the whole output as
    /// the answer, no oracle, default limits: what unit tests need.
    #[cfg(test)]
    pub(crate) fn from_text(original: &Program, tests: &str) -> TestSuite {
        let tests = parse_tests(tests).expect("tests file");
        TestSuite::new(
            original,
            tests,
            AnswerExtractor::WholeOutput,
            None,
            &Limits::default(),
        )
    }

    /// The tests.
    pub fn tests(&self) -> &[RepairTest] {
        &self.tests
    }

    /// The limits of runs on inputs outside the suite (fresh fuzzed inputs): the most fuel
    /// a test's run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The run limits of a candidate on test `i`: [`TestSuite::limits`] with the test's
    /// own fuel (see [`TestSuite::new`]).
    pub fn limits_for(&self, i: usize) -> Limits {
        Limits {
            fuel: self.fuel.get(i).copied().unwrap_or(self.limits.fuel),
            ..self.limits.clone()
        }
    }

    /// The learned oracle, if any.
    pub fn oracle(&self) -> Option<&LearnedOracle> {
        self.oracle.as_ref()
    }

    /// The answer extractor.
    pub fn extractor(&self) -> &AnswerExtractor {
        &self.extractor
    }

    /// Test indices in the order candidates run them: by the original's steps, a test it
    /// passes counted `PASSING_TEST_WEIGHT` (10) times (a wrong candidate is usually rejected
    /// by a test the original fails), fewest first.
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
                let judged = self.judged.get(i).copied().unwrap_or(false);
                orig.is_none_or(|o| changed(o, r))
                    && !(judged
                        && self
                            .oracle
                            .as_ref()
                            .is_some_and(|or| or.flags(&test.input, r.status, r.answer.as_deref())))
            }
        }
    }

    /// Runs `program` on test `i` and judges it.
    pub fn run(&self, program: &Program, i: usize) -> (Execution, bool) {
        let exec = program.run_test(&self.tests[i].input, &self.limits_for(i));
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
        let text = "# comment\n1 => 2\n5 => bug\n7 => ok\n3 => 5\n";
        let tests = parse_tests(text).unwrap();
        assert_eq!(tests.len(), 4);
        assert_eq!(tests[1].expect, Expectation::Bug);
        let suite = TestSuite::from_text(&p, text);
        assert_eq!(suite.failing(), vec![1, 3]);
        assert_eq!(suite.order()[..2], [1, 3]);
        let q = compile("int f(int x) { return x + 2; }").unwrap();
        let verdicts: Vec<bool> = (0..4).map(|i| suite.run(&q, i).1).collect();
        assert_eq!(verdicts, vec![false, true, false, true]);
        assert!(parse_tests("1 2").is_err());
    }

    fn oracle(text: &str) -> LearnedOracle {
        let vars: Vec<String> = ["a", "b", "out"].iter().map(|v| v.to_string()).collect();
        LearnedOracle {
            formula: Formula::parse(text, &vars).unwrap(),
            encoder: OutputEncoder::new(),
        }
    }

    #[test]
    fn an_oracle_judges_outputs_only_where_some_output_escapes_it() {
        let at = [Num::Int(2), Num::Int(2)];
        // Over the inputs alone: every output of a flagged input is flagged.
        assert!(!oracle("a = b").judges_output_at(&at));
        // Over the output: another output is not flagged.
        assert!(oracle("(a = b) and (out = 2)").judges_output_at(&at));
        assert!(oracle("(a = b) and (out >= 7)").judges_output_at(&at));
        // Every output but one flagged: that one escapes, far from 0 too.
        assert!(oracle("(a = b) and (out != 1000000)").judges_output_at(&at));
        assert!(oracle("(a = b) and (out % 3 != 2)").judges_output_at(&at));
        // A flagged region over the output that covers every value does not judge.
        assert!(!oracle("(a = b) and (out >= 5 or out < 7)").judges_output_at(&at));
        // A "bug" test whose oracle cannot tell outputs apart asks only for a change.
        let p = compile("int f(int a, int b) { return a + b; }").unwrap();
        let tests = parse_tests("2 2 => bug\n").unwrap();
        let judged = TestSuite::new(
            &p,
            tests.clone(),
            AnswerExtractor::WholeOutput,
            Some(oracle("a = b")),
            &Limits::default(),
        );
        let q = compile("int f(int a, int b) { return a * b + 1; }").unwrap();
        assert!(judged.run(&q, 0).1);
        let flagging = TestSuite::new(
            &p,
            tests,
            AnswerExtractor::WholeOutput,
            Some(oracle("(a = b) and (out >= 5)")),
            &Limits::default(),
        );
        assert!(!flagging.run(&q, 0).1, "5 is flagged");
        assert!(flagging.clone().judging_bug_tests(false).run(&q, 0).1);
    }

    #[test]
    fn a_passing_test_gets_fuel_for_its_own_work_and_runs_first_when_far_cheaper() {
        // Sums 1..n; the answer for n = 300000 is wrong (the original prints 0 there).
        let p = compile(
            "int f(int n) { long long s = 0; for (int i = 1; i <= n; i++) s += i; \
             if (n == 300000) return 0; return s; }",
        )
        .unwrap();
        let suite = TestSuite::from_text(&p, "300000 => 45000150000\n3 => 6\n200000 => ok\n");
        let steps = |n: i64| p.run_test(&[Num::Int(n)], &Limits::default()).steps;
        let (long, short, middle) = (steps(300000), steps(3), steps(200000));
        assert!(long > 600_000 && short < 100, "{long} {short}");
        // A failing test keeps the suite's fuel: a fix may do more work than the bug.
        assert_eq!(suite.limits().fuel, long * 10);
        assert_eq!(suite.limits_for(0).fuel, long * 10);
        // A passing test: 10x its own steps, at least MIN_FUEL.
        assert_eq!(suite.limits_for(1).fuel, MIN_FUEL);
        assert_eq!(suite.limits_for(2).fuel, middle * 10);
        // The short passing test first (far cheaper), then the failing one; the long
        // passing one is cheaper than the failing test but not ten times.
        assert_eq!(suite.order(), [1, 0, 2]);
        // A candidate that loops forever runs out of the short test's own fuel.
        let forever =
            compile("int f(int n) { long long s = 0; while (n > 0) s++; return s; }").unwrap();
        let (exec, ok) = suite.run(&forever, 1);
        assert!(!ok);
        assert_eq!(exec.steps, MIN_FUEL);
    }
}
