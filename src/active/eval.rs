//! Batch evaluation as in the Learn2fix paper: one loop per subject and run, the golden program labels, metrics on validation tests.

use super::fuel::FuzzFuel;
use super::fuzz::Range;
use super::learner::BugOracle;
use super::num::{parse_input, Num};
use super::observe::Status;
use super::program::{status_of, ProgramRunner};
use super::reference::{differs, ReferenceLabeller};
use super::run_cache::RUN_CACHE_BYTES;
use super::session::{ActiveConfig, ActiveLoop, Labeller, Step};
use crate::corpus::Subject;
use crate::lang::inputs::ProgramInputs;
use crate::lang::{compile, Limits};
use std::fmt;

/// Settings of a batch evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalConfig {
    /// Loop settings; its `label_budget` is ignored (see `label_budgets`).
    pub active: ActiveConfig,
    /// Label budgets to measure at, ascending (one loop runs to the largest; the state
    /// when the l-th label arrives is exactly that of a loop with budget l).
    pub label_budgets: Vec<usize>,
    /// Execution limits for both programs on the subject's tests; fuzzed inputs get
    /// the fuel `fuzz_fuel` sizes (at most `limits.fuel`).
    pub limits: Limits,
    /// Fuel of fuzzed runs (candidates, committee neighbours, their golden labels) from
    /// the slowest train test.
    pub fuzz_fuel: FuzzFuel,
    /// The golden labeller answers also where the golden run has no defined answer
    /// (Learn2fix's behaviour); by default such questions are skipped. See
    /// [`ReferenceLabeller::answering_undefined`].
    pub label_undefined: bool,
    /// Per-position ranges of the loop's fuzzer: a stand-in for the constraints of the
    /// problem statement, which a person gives the loop as ranges. Default unbounded
    /// (Learn2fix's fuzzer).
    pub input_ranges: InputRanges,
}

/// Where the fuzzer's input ranges come from in an evaluation run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputRanges {
    /// Every position unbounded, as in Learn2fix.
    #[default]
    Unbounded,
    /// A position is kept non-negative when no train test (the problem statement's
    /// examples) has a negative value there ([`nonnegative_ranges`]).
    NonNegativeWhereTrainIs,
    /// A position is kept non-negative when the run's initial failing test has a
    /// non-negative value there: the loop's own input only, nothing else of the subject.
    NonNegativeWhereFailingTestIs,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            active: ActiveConfig::default(),
            label_budgets: vec![10, 20, 30],
            limits: Limits::default(),
            fuzz_fuel: FuzzFuel::default(),
            label_undefined: false,
            input_ranges: InputRanges::Unbounded,
        }
    }
}

/// Per input position of `inputs` (all of one length): `0 ..= infinity` where no input
/// has a negative value, unbounded where one has. It assumes that a problem allowing
/// negative numbers shows one in its examples (in 19 of Codeflaws' 349 subjects a train
/// test has one; in 114 of IntroClass' 263).
pub fn nonnegative_ranges<'a>(
    arity: usize,
    inputs: impl Iterator<Item = &'a [Num]> + Clone,
) -> Vec<Option<Range>> {
    (0..arity)
        .map(|i| {
            let negative = inputs.clone().any(|input| match input.get(i) {
                Some(Num::Int(v)) => *v < 0,
                Some(Num::Float(f)) => *f < 0.0,
                None => false,
            });
            (!negative).then_some(Range {
                min: 0.0,
                max: f64::INFINITY,
            })
        })
        .collect()
}

/// Why a subject cannot be evaluated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SkipReason {
    /// The buggy program does not compile.
    #[error("buggy program does not compile: {0}")]
    BuggyDoesNotCompile(String),
    /// The golden program does not compile.
    #[error("golden program does not compile: {0}")]
    GoldenDoesNotCompile(String),
    /// The subject's answer pattern is not a valid regular expression.
    #[error("bad answer pattern: {0}")]
    BadPattern(String),
    /// No train test is numeric and fails (buggy answer differs from golden).
    #[error("no numeric failing train test")]
    NoFailingTrainTest,
}

/// Metrics of one subject, run and label budget (one row of the paper's result files).
/// Serialisable, so that the parts of an evaluation split over machines can be joined.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunMetrics {
    /// Subject id.
    pub subject: String,
    /// Run number (0-based).
    pub run: usize,
    /// The run's random seed.
    pub seed: u64,
    /// Label budget l.
    pub label_budget: usize,
    /// Name of the initial failing train test.
    pub initial_test: String,
    /// Questions answered when the budget was reached (or the loop stopped).
    pub labelled: usize,
    /// Of those, failing.
    pub labelled_failing: usize,
    /// Questions the labeller skipped until then (the golden run had no defined answer).
    pub skipped: usize,
    /// Candidate tests generated until then.
    pub generated: usize,
    /// Of those, failing (checked with the golden program).
    pub generated_failing: usize,
    /// Validation tests (train + held-out) with the template's shape.
    pub validation: usize,
    /// Of those, failing (buggy answer differs from golden).
    pub validation_failing: usize,
    /// Validation tests the oracle classifies correctly.
    pub correct: usize,
    /// Failing validation tests the oracle flags.
    pub correct_failing: usize,
    /// Tests skipped: not numeric, or a different number of values than the template.
    pub validation_skipped: usize,
    /// Look-ahead learn calls of the committee until then.
    pub look_ahead_learns: usize,
    /// Learn calls that found no formula until then.
    pub learn_failures: usize,
    /// SAT conflicts of all learn calls until then.
    pub conflicts: u64,
    /// The learned oracle.
    pub formula: String,
    /// Why the loop stopped (or "label budget" when it was stopped at this budget).
    pub stop: String,
}

impl RunMetrics {
    /// Share of validation tests classified correctly.
    pub fn accuracy(&self) -> f64 {
        ratio(self.correct, self.validation)
    }

    /// Share of failing validation tests flagged.
    pub fn conditional_accuracy(&self) -> f64 {
        ratio(self.correct_failing, self.validation_failing)
    }

    /// Probability that a labelled test is failing.
    pub fn p_labelled_failing(&self) -> f64 {
        ratio(self.labelled_failing, self.labelled)
    }

    /// Probability that a generated test is failing.
    pub fn p_generated_failing(&self) -> f64 {
        ratio(self.generated_failing, self.generated)
    }
}

/// `a / b`, NaN when `b` is 0.
pub fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

/// A validation test, run once on both programs under the full limits: the buggy run's
/// ending and answer, and whether it fails (differs from the golden run). Every budget
/// and run of a subject reuses it; only the answer's encoding depends on the session.
struct ValidationRun {
    input: Vec<Num>,
    status: Status,
    answer: Option<String>,
    failing: bool,
}

/// A subject prepared for evaluation: both programs compiled, validation tests run.
pub struct Prepared {
    id: String,
    /// The programs with the fuzz fuel (fuzzed inputs).
    fuzz_buggy: ProgramRunner,
    fuzz_golden: ProgramRunner,
    /// Failing numeric train tests: name and input.
    failing_train: Vec<(String, Vec<Num>)>,
    /// All numeric tests with the shape of the first failing train test, run.
    validation: Vec<ValidationRun>,
    skipped: usize,
    /// Steps of the slowest train run (buggy or golden).
    slowest_train_steps: u64,
    /// Per input position: non-negative where every train test is (see
    /// [`InputRanges::NonNegativeWhereTrainIs`]).
    train_ranges: Vec<Option<Range>>,
    /// What the buggy program reads (types, names) and its constants, for the fuzzer and
    /// the oracle's variable names.
    inputs: ProgramInputs,
    /// Input numbers of a run (the first failing train test's count).
    arity: usize,
}

impl Prepared {
    /// Compiles the subject's programs, finds its failing train tests and sizes the
    /// fuzz fuel from the slowest train run (buggy or golden).
    pub fn new(subject: &Subject, config: &EvalConfig) -> Result<Prepared, SkipReason> {
        let limits = &config.limits;
        let extractor = subject
            .answer_extractor()
            .map_err(|e| SkipReason::BadPattern(e.to_string()))?;
        let buggy = compile(&subject.buggy)
            .map_err(|e| SkipReason::BuggyDoesNotCompile(e.first_error()))?;
        let golden = compile(&subject.golden)
            .map_err(|e| SkipReason::GoldenDoesNotCompile(e.first_error()))?;
        let inputs = buggy.inputs().clone();
        let buggy = ProgramRunner::new(buggy, limits.clone(), extractor.clone());
        let golden = ProgramRunner::new(golden, limits.clone(), extractor);
        // Every numeric test runs once on both programs; train tests also size the
        // fuzz fuel and give the failing tests a run can start from. Train tests run
        // first: a subject none of them fails is left out before its held-out tests run.
        let train = subject.tests.train.len();
        let mut runs: Vec<(bool, String, ValidationRun)> = Vec::new();
        let mut slowest = 0;
        let mut skipped = 0;
        for (i, t) in subject.all_tests().enumerate() {
            if i == train && !runs.iter().any(|(_, _, r)| r.failing) {
                return Err(SkipReason::NoFailingTrainTest);
            }
            let Some(input) = parse_input(&t.input).filter(|i| !i.is_empty()) else {
                skipped += 1;
                continue;
            };
            let (b, answer) = buggy.execute(&input);
            let (g, g_answer) = golden.execute(&input);
            if i < train {
                slowest = slowest.max(b.steps).max(g.steps);
            }
            let status = status_of(&b.outcome);
            let failing = differs(
                status,
                answer.as_deref(),
                status_of(&g.outcome),
                g_answer.as_deref(),
            );
            let run = ValidationRun {
                input,
                status,
                answer,
                failing,
            };
            runs.push((i < train, t.name.clone(), run));
        }
        let Some(arity) = runs
            .iter()
            .find(|(is_train, _, r)| *is_train && r.failing)
            .map(|(_, _, r)| r.input.len())
        else {
            return Err(SkipReason::NoFailingTrainTest);
        };
        let train_ranges = nonnegative_ranges(
            arity,
            runs.iter()
                .filter(|(is_train, _, r)| *is_train && r.input.len() == arity)
                .map(|(_, _, r)| r.input.as_slice()),
        );
        let mut failing_train = Vec::new();
        let mut validation = Vec::new();
        for (is_train, name, run) in runs {
            if run.input.len() != arity {
                skipped += 1;
                continue;
            }
            if is_train && run.failing {
                failing_train.push((name, run.input.clone()));
            }
            validation.push(run);
        }
        let fuel = config.fuzz_fuel.fuel(slowest).min(limits.fuel);
        Ok(Prepared {
            id: subject.id.clone(),
            // Every run of the subject shares these programs' run caches: boundary
            // values and small mutants recur across runs and committee neighbours.
            fuzz_buggy: buggy.with_fuel(fuel).with_run_cache(RUN_CACHE_BYTES),
            fuzz_golden: golden.with_fuel(fuel).with_run_cache(RUN_CACHE_BYTES),
            failing_train,
            validation,
            skipped,
            slowest_train_steps: slowest,
            train_ranges,
            inputs,
            arity,
        })
    }

    /// The subject's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Steps of the slowest train run (buggy or golden): a hint of how costly this
    /// subject's runs are (fuzzed inputs run programs at least about this long), e.g. to
    /// start the costliest subjects first. It never changes a result.
    pub fn slowest_train_steps(&self) -> u64 {
        self.slowest_train_steps
    }

    /// The fuel of fuzzed runs.
    pub fn fuzz_fuel(&self) -> u64 {
        self.fuzz_buggy.limits().fuel
    }

    /// The names of the oracle's input variables: the buggy program's own where they are
    /// known (see [`ProgramInputs::names`]).
    pub fn input_names(&self) -> Vec<String> {
        self.inputs.names(self.arity)
    }

    /// Number of failing train tests a run can start from.
    pub fn failing_train_tests(&self) -> usize {
        self.failing_train.len()
    }

    /// Runs one loop (seeded with `seed`) with the golden program as labeller, up to the
    /// largest budget, and measures the oracle when each budget is reached. The oracle
    /// comes from `make_oracle`.
    pub fn run<O: BugOracle>(
        &self,
        config: &EvalConfig,
        run: usize,
        seed: u64,
        make_oracle: impl FnOnce() -> O,
    ) -> Vec<RunMetrics> {
        let (initial_test, start) = &self.failing_train[(seed as usize) % self.failing_train.len()];
        let mut budgets = config.label_budgets.clone();
        budgets.sort_unstable();
        budgets.dedup();
        let max_budget = budgets.last().copied().unwrap_or(0);
        let mut active = ActiveConfig {
            label_budget: max_budget,
            ..config.active.clone()
        };
        active.fuzz.program = self.inputs.clone();
        match config.input_ranges {
            InputRanges::Unbounded => {}
            InputRanges::NonNegativeWhereTrainIs => active.fuzz.ranges = self.train_ranges.clone(),
            InputRanges::NonNegativeWhereFailingTestIs => {
                active.fuzz.ranges =
                    nonnegative_ranges(start.len(), std::iter::once(start.as_slice()))
            }
        }
        let mut labeller = ReferenceLabeller::new(self.fuzz_golden.clone())
            .answering_undefined(config.label_undefined)
            .knowing_valid(start);
        let mut judged = Vec::new();
        let mut measure = |lp: &mut ActiveLoop<ProgramRunner, O>,
                           labeller: &ReferenceLabeller,
                           budget: usize,
                           stop: &str| {
            self.measure(
                lp,
                labeller,
                &mut judged,
                run,
                seed,
                initial_test,
                budget,
                stop,
            )
        };
        let mut lp = ActiveLoop::new(
            active,
            self.fuzz_buggy.clone(),
            make_oracle(),
            start,
            None,
            seed,
        );
        let mut out = Vec::new();
        let mut pending = budgets.iter().copied().peekable();
        let mut asked = 0;
        let stop = loop {
            // Budget 0: the oracle learned from the initial test alone.
            while pending.peek() == Some(&asked) {
                out.push(measure(&mut lp, &labeller, asked, "label budget"));
                pending.next();
            }
            match lp.next_step() {
                Step::Ask(q) => {
                    let label = labeller.label(&q);
                    asked += usize::from(label.is_some());
                    lp.settle(label);
                }
                Step::Done(reason) => break reason.to_string(),
            }
        };
        for b in pending {
            out.push(measure(&mut lp, &labeller, b, &stop));
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn measure<O: BugOracle>(
        &self,
        lp: &mut ActiveLoop<ProgramRunner, O>,
        labeller: &ReferenceLabeller,
        judged: &mut Vec<bool>,
        run: usize,
        seed: u64,
        initial_test: &str,
        budget: usize,
        stop: &str,
    ) -> RunMetrics {
        let asked: Vec<bool> = lp
            .labelled()
            .iter()
            .filter(|t| t.asked)
            .map(|t| t.label.bug)
            .collect();
        let report = lp.report();
        // Generated tests are judged once, then remembered for the later budgets.
        for g in &lp.generated()[judged.len()..] {
            judged.push(labeller.judge(&g.input, &g.observation).bug);
        }
        let generated = judged.len();
        let generated_failing = judged.iter().filter(|b| **b).count();
        // A copy of the session's encoder: word answers get the session's codes, and
        // words first seen here do not change the codes the loop assigns later.
        let mut encoder = lp.runner().encoder().clone();
        let mut correct = 0;
        let mut correct_failing = 0;
        for v in &self.validation {
            let mut point = v.input.clone();
            point.push(encoder.encode(v.status, v.answer.as_deref()));
            if lp.oracle().predict(&point) == v.failing {
                correct += 1;
                if v.failing {
                    correct_failing += 1;
                }
            }
        }
        RunMetrics {
            subject: self.id.clone(),
            run,
            seed,
            label_budget: budget,
            initial_test: initial_test.to_string(),
            labelled: asked.len(),
            labelled_failing: asked.iter().filter(|b| **b).count(),
            skipped: report.skipped,
            generated,
            generated_failing,
            validation: self.validation.len(),
            validation_failing: self.validation.iter().filter(|v| v.failing).count(),
            correct,
            correct_failing,
            validation_skipped: self.skipped,
            look_ahead_learns: report.committee_learns,
            learn_failures: report.learn_failures,
            conflicts: report.conflicts,
            formula: report.formula,
            stop: stop.to_string(),
        }
    }
}

/// Steps of the slowest train run, buggy or golden, of `subject` under `limits`: what
/// [`Prepared::slowest_train_steps`] gives once the subject is prepared, without running
/// its held-out tests (0 when a program does not compile or the answer pattern is bad).
/// A cost estimate that can be had for every subject of a corpus cheaply, e.g. to split
/// a corpus into balanced shards.
pub fn slowest_train_steps(subject: &Subject, limits: &Limits) -> u64 {
    let Ok(extractor) = subject.answer_extractor() else {
        return 0;
    };
    let (Ok(buggy), Ok(golden)) = (compile(&subject.buggy), compile(&subject.golden)) else {
        return 0;
    };
    let buggy = ProgramRunner::new(buggy, limits.clone(), extractor.clone());
    let golden = ProgramRunner::new(golden, limits.clone(), extractor);
    subject
        .tests
        .train
        .iter()
        .filter_map(|t| parse_input(&t.input).filter(|i| !i.is_empty()))
        .map(|input| {
            buggy
                .execute(&input)
                .0
                .steps
                .max(golden.execute(&input).0.steps)
        })
        .max()
        .unwrap_or(0)
}

/// The seed of run `run` of subject `id` under base seed `seed` (stable across platforms).
pub fn run_seed(seed: u64, id: &str, run: usize) -> u64 {
    // FNV-1a over the id, mixed with the base seed and the run number (splitmix64).
    let mut z = crate::fingerprint::fnv1a64(id.as_bytes())
        ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (run as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Mean and median of a metric over subjects (each subject's value: the mean over its
/// runs; subjects where the metric is undefined are left out).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stat {
    /// Mean over subjects.
    pub mean: f64,
    /// Median over subjects.
    pub median: f64,
    /// Subjects with a defined value.
    pub n: usize,
}

impl Stat {
    /// The statistic of `values` (NaNs ignored).
    pub fn of(values: &[f64]) -> Stat {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n == 0 {
            return Stat {
                mean: f64::NAN,
                median: f64::NAN,
                n,
            };
        }
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Stat {
            mean: v.iter().sum::<f64>() / n as f64,
            median,
            n,
        }
    }
}

/// Aggregate figures for one label budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregate {
    /// Label budget l.
    pub label_budget: usize,
    /// Subjects measured.
    pub subjects: usize,
    /// Rows (subject x run).
    pub rows: usize,
    /// Oracle accuracy over subjects.
    pub accuracy: Stat,
    /// Conditional accuracy (on failing validation tests) over subjects.
    pub conditional_accuracy: Stat,
    /// Labelled tests per run, over subjects.
    pub labelled: Stat,
    /// Generated tests per run, over subjects.
    pub generated: Stat,
    /// Pooled probability that a labelled test is failing.
    pub p_labelled_failing: f64,
    /// Pooled probability that a generated test is failing.
    pub p_generated_failing: f64,
}

impl Aggregate {
    /// `p_labelled_failing / p_generated_failing`: the labelling-effort gain.
    pub fn effort_ratio(&self) -> f64 {
        self.p_labelled_failing / self.p_generated_failing
    }
}

/// Aggregates rows per label budget (ascending).
pub fn aggregate(rows: &[RunMetrics]) -> Vec<Aggregate> {
    let mut budgets: Vec<usize> = rows.iter().map(|r| r.label_budget).collect();
    budgets.sort_unstable();
    budgets.dedup();
    budgets
        .into_iter()
        .map(|b| {
            let rs: Vec<&RunMetrics> = rows.iter().filter(|r| r.label_budget == b).collect();
            let mut subjects: Vec<&str> = rs.iter().map(|r| r.subject.as_str()).collect();
            subjects.sort_unstable();
            subjects.dedup();
            let per_subject = |f: &dyn Fn(&RunMetrics) -> f64| -> Vec<f64> {
                subjects
                    .iter()
                    .map(|s| {
                        let v: Vec<f64> = rs
                            .iter()
                            .filter(|r| r.subject == *s)
                            .map(|r| f(r))
                            .filter(|x| !x.is_nan())
                            .collect();
                        if v.is_empty() {
                            f64::NAN
                        } else {
                            v.iter().sum::<f64>() / v.len() as f64
                        }
                    })
                    .collect()
            };
            let sum = |f: &dyn Fn(&RunMetrics) -> usize| rs.iter().map(|r| f(r)).sum::<usize>();
            Aggregate {
                label_budget: b,
                subjects: subjects.len(),
                rows: rs.len(),
                accuracy: Stat::of(&per_subject(&|r| r.accuracy())),
                conditional_accuracy: Stat::of(&per_subject(&|r| r.conditional_accuracy())),
                labelled: Stat::of(&per_subject(&|r| r.labelled as f64)),
                generated: Stat::of(&per_subject(&|r| r.generated as f64)),
                p_labelled_failing: ratio(sum(&|r| r.labelled_failing), sum(&|r| r.labelled)),
                p_generated_failing: ratio(sum(&|r| r.generated_failing), sum(&|r| r.generated)),
            }
        })
        .collect()
}

impl fmt::Display for Aggregate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "l={:<3} subjects={:<4} accuracy median {:.3} mean {:.3} | conditional median {:.3} mean {:.3} | labelled {:.1} generated {:.1} | P(labelled failing) {:.3} P(generated failing) {:.3} ratio {:.2}",
            self.label_budget,
            self.subjects,
            self.accuracy.median,
            self.accuracy.mean,
            self.conditional_accuracy.median,
            self.conditional_accuracy.mean,
            self.labelled.mean,
            self.generated.mean,
            self.p_labelled_failing,
            self.p_generated_failing,
            self.effort_ratio()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cost_estimate_is_the_prepared_subjects_slowest_train_run() {
        let subject = Subject::from_json(
            r#"{"id": "loop", "buggy": "int main(){int n,i,s=0; scanf(\"%d\",&n); for(i=0;i<n;i++) s+=i; printf(\"%d\\n\", s+1); return 0;}",
                "golden": "int main(){int n,i,s=0; scanf(\"%d\",&n); for(i=0;i<n;i++) s+=i; printf(\"%d\\n\", s); return 0;}",
                "tests": {"train": [{"input": "3\n", "output": "3\n", "name": "a"}, {"input": "40\n", "output": "780\n", "name": "b"}],
                          "heldout": [{"input": "1000\n", "output": "499500\n", "name": "c"}]}}"#,
        )
        .expect("subject");
        let config = EvalConfig::default();
        let prepared = Prepared::new(&subject, &config).expect("prepares");
        let estimate = slowest_train_steps(&subject, &config.limits);
        assert_eq!(estimate, prepared.slowest_train_steps());
        assert!(estimate > 40, "{estimate}");
        let mut broken = subject.clone();
        broken.golden = "int main( {".into();
        assert_eq!(slowest_train_steps(&broken, &config.limits), 0);
    }

    #[test]
    fn a_subject_whose_train_tests_all_pass_is_left_out_even_if_a_held_out_test_fails() {
        let subject = |train_n: u32| {
            Subject::from_json(&format!(
                r#"{{"id": "late", "buggy": "int main(){{int n; scanf(\"%d\",&n); printf(\"%d\\n\", n == 1000 ? 0 : n); return 0;}}",
                    "golden": "int main(){{int n; scanf(\"%d\",&n); printf(\"%d\\n\", n); return 0;}}",
                    "tests": {{"train": [{{"input": "3\n", "output": "3\n", "name": "a"}}, {{"input": "{train_n}\n", "output": "{train_n}\n", "name": "b"}}],
                              "heldout": [{{"input": "1000\n", "output": "1000\n", "name": "c"}}]}}}}"#
            ))
            .expect("subject")
        };
        let config = EvalConfig::default();
        assert!(matches!(
            Prepared::new(&subject(40), &config),
            Err(SkipReason::NoFailingTrainTest)
        ));
        let prepared = Prepared::new(&subject(1000), &config).expect("a train test fails");
        assert_eq!(prepared.failing_train_tests(), 1);
        assert_eq!(prepared.validation.iter().filter(|r| r.failing).count(), 2);
    }

    #[test]
    fn positions_without_a_negative_value_are_kept_non_negative() {
        let inputs = [
            vec![Num::Int(3), Num::Int(-1), Num::Float(0.5)],
            vec![Num::Int(0), Num::Int(4), Num::Float(2.0)],
        ];
        let ranges = nonnegative_ranges(3, inputs.iter().map(|i| i.as_slice()));
        let lower: Vec<Option<f64>> = ranges.iter().map(|r| r.map(|r| r.min)).collect();
        assert_eq!(lower, vec![Some(0.0), None, Some(0.0)]);
        assert!(ranges[0].is_some_and(|r| r.contains(&Num::Int(i64::MAX))));
        assert!(!ranges[2].is_some_and(|r| r.contains(&Num::Float(-0.5))));
        let floats = [vec![Num::Float(-0.25)]];
        assert_eq!(
            nonnegative_ranges(1, floats.iter().map(|i| i.as_slice())),
            vec![None]
        );
    }
}
