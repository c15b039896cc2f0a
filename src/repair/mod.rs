//! Program repair: fault localisation, the patch model, test validation and the enumerative engine with test-equivalence.
//!
//! Pipeline of [`repair`]: the program is parsed into a [`RepairSource`] (the patch
//! model's index of nodes and spans) and run on the [`RepairTest`]s ([`tests`]);
//! [`localise`] ranks the statements the failing tests reach; an engine proposes
//! [`Patch`]es in cost order ([`enumerate`]: f1x's test-equivalence over repair holes),
//! by evolution ([`gp`] on [`gp_program`]: GenProg with learned operator selection,
//! [`select`]) or by synthesis from angelic values ([`lra`] with [`synth`]);
//! plausible patches (passing every test) are re-checked on fuzzed inputs against the
//! learned oracle, minimised, deduplicated by behaviour and ranked ([`validate`]).
//!
//! For another engine (GenProg, LRA synthesis) the reusable parts are: [`RepairSource`]
//! (`apply`, `check`, `stmt`, `expr`, `statements`, `constants`, `describe`, `diff`),
//! [`Patch`]/[`Edit`]/[`EditKind`] with [`CostTable`], [`tests::TestSuite`] (`run`,
//! `passes`, `order`, `failing`), [`localise::localise`], [`mutate`] (candidate edits at
//! a statement), [`validate::minimise`] and [`finish`] (validation and ranking of any
//! engine's plausible patches).
//!
//! ```
//! use fixloop::repair::{repair, RepairConfig, tests::parse_tests};
//! let buggy = "int max(int a, int b) { if (a < b) return a; return b; }";
//! let tests = parse_tests("1 2 => 2\n5 3 => 5\n4 4 => 4").unwrap();
//! let report = repair(buggy, &tests, None, &RepairConfig::default());
//! let top = &report.patches[0];
//! assert!(top.patched_source.contains("a > b") || top.patched_source.contains("a >= b"));
//! ```

pub mod boundary;
pub mod branch;
pub mod budget;
pub mod candidates;
pub mod choose;
pub mod cost;
pub mod diff;
pub mod enumerate;
pub mod gp;
pub mod gp_program;
pub mod holeval;
pub mod localise;
pub mod lra;
pub mod mutate;
pub mod pair;
pub mod patch;
pub mod select;
pub mod special;
pub mod synth;
pub mod terms;
pub mod tests;
pub mod validate;
pub mod widen;

use std::collections::BTreeSet;
use std::fmt;

pub use cost::CostTable;
pub use cost::EditKind;
pub use patch::{Change, Edit, Patch, PatchError, RepairSource};
pub use tests::{Expectation, LearnedOracle, RepairTest};

use crate::active::FuzzConfig;
use crate::corpus::AnswerExtractor;
use crate::lang::{compile, Limits};
use budget::{Gate, Stop};
use localise::{Suspicious, Weighting};
use tests::{RunResult, TestSuite};
use validate::{
    adds_single_value_test, agreement, constant_inputs, fuzz_inputs, minimise, validate, Demotion,
    Original,
};

/// Which engine proposes candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// Cost-ordered enumeration with test-equivalence (f1x).
    #[default]
    Enumerate,
    /// Genetic programming with learned operator selection (GenProg, [`gp`]).
    Genetic,
    /// Angelic values and linear synthesis ([`lra`]).
    Linear,
    /// New branches with synthesised conditions ([`branch`]).
    Branch,
    /// Two edits: a first that passes some failing tests, then a second ([`pair`]).
    Pair,
    /// Every available engine.
    All,
}

/// Repair settings. All limits are counts; the defaults are documented per field.
#[derive(Debug, Clone)]
pub struct RepairConfig {
    /// Cost of each edit kind. Default [`CostTable::default`].
    pub costs: CostTable,
    /// Largest total cost of a patch. Default 12.
    pub budget: u32,
    /// Lines never edited (1-based). Default none.
    pub trusted_lines: BTreeSet<u32>,
    /// Run limits; the fuel of candidate runs is further cut to 10x what the original
    /// program needed ([`TestSuite::limits_for`]). Default [`Limits::default`].
    pub limits: Limits,
    /// How answers are read from stdout. Default the whole output.
    pub extractor: AnswerExtractor,
    /// Engine. Default [`Engine::Enumerate`].
    pub engine: Engine,
    /// Fault localisation formula. Default Ochiai.
    pub weighting: Weighting,
    /// Candidates generated at most. Default 200 000.
    pub max_candidates: usize,
    /// Test executions by the engine at most. Default 20 000.
    pub max_test_executions: u64,
    /// Stop after this many plausible patches. Default 40.
    pub max_plausible: usize,
    /// Candidate evaluations at holes per test execution (a hot hole in a long loop
    /// otherwise makes one run very slow); past it a run decides only its
    /// representative. Default 2 000 000.
    pub max_hole_evaluations: u64,
    /// Suspicious statements considered. Default 25.
    pub max_locations: usize,
    /// Conditions per refinement or guard location. Default 400.
    pub max_conditions: usize,
    /// Variables that get an inserted-assignment scaffold per statement. Default 6.
    pub max_assigned_vars: usize,
    /// Donor statements per location for GenProg copies. Default 8.
    pub max_donors: usize,
    /// Fuzzed inputs per plausible patch for validation. Default 100.
    pub validation_inputs: usize,
    /// The fuzzer of validation inputs (and of the inputs that choose between patches):
    /// its profile, ranges and what the program reads. Default [`FuzzConfig::default`].
    pub fuzz: FuzzConfig,
    /// Fuzzed inputs the first plausible patch is validated on even after a stop request
    /// (the rest of its validation is cut short; later patches are then not validated).
    /// Default 10.
    pub min_validation_inputs: usize,
    /// Plausible patches validated at most. Default 40.
    pub max_validated: usize,
    /// Ranked patches reported at most. Default 10.
    pub max_ranked: usize,
    /// Validation slack of the ranking: patches whose validation score is at most this
    /// far below the best one count as equally validated (without an oracle the score
    /// only counts fuzzed inputs that end normally, and fuzzed inputs may break the
    /// input's preconditions). Default 0.02 (two of the 100 fuzzed inputs).
    pub validation_tie: f64,
    /// Cost slack of the ranking: among the best-validated patches, those at most this
    /// much dearer than the cheapest count as equally cheap, so that the
    /// single-value-test rule decides among them before cost. Default 1.
    pub cost_tie: u32,
    /// Seed of the validation fuzzer. Default 0.
    pub seed: u64,
    /// The GenProg engine's settings (population, generations, operator selection, seed).
    /// Default [`gp::GpConfig::default`].
    pub genetic: gp::GpConfig,
    /// The LRA engine's limits. Default [`lra::LraConfig::default`].
    pub linear: lra::LraConfig,
    /// The branch engine's limits. Default [`branch::BranchConfig::default`].
    pub branch: branch::BranchConfig,
    /// The two-edit engine's limits. Default [`pair::PairConfig::default`].
    pub pair: pair::PairConfig,
    /// A "bug" test without an expected output passes only when the learned oracle,
    /// where it tells outputs apart, no longer flags the run (besides the output
    /// changing). Default true. Asked as a person is, repair turns it off: the oracle
    /// learned from labels of the wrong outputs often flags the right one too (an answer
    /// `00` and the right `0` read as the same number), and the questions about outputs
    /// do its job.
    pub oracle_judges_bug_tests: bool,
}

impl Default for RepairConfig {
    fn default() -> Self {
        RepairConfig {
            costs: CostTable::default(),
            budget: 12,
            trusted_lines: BTreeSet::new(),
            limits: Limits::default(),
            extractor: AnswerExtractor::WholeOutput,
            engine: Engine::Enumerate,
            weighting: Weighting::Ochiai,
            max_candidates: 200_000,
            max_test_executions: 20_000,
            max_plausible: 40,
            max_hole_evaluations: 2_000_000,
            max_locations: 25,
            max_conditions: 400,
            max_assigned_vars: 6,
            max_donors: 8,
            validation_inputs: 100,
            fuzz: FuzzConfig::default(),
            min_validation_inputs: 10,
            max_validated: 40,
            max_ranked: 10,
            validation_tie: 0.02,
            cost_tie: 1,
            seed: 0,
            genetic: gp::GpConfig::default(),
            linear: lra::LraConfig::default(),
            branch: branch::BranchConfig::default(),
            pair: pair::PairConfig::default(),
            oracle_judges_bug_tests: true,
        }
    }
}

/// What a progress hook sees.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// Test executions so far.
    pub test_executions: u64,
    /// Candidates generated.
    pub candidates: u64,
    /// Candidates decided (rejected or plausible).
    pub candidates_decided: u64,
    /// Plausible patches found.
    pub plausible: usize,
    /// Cost of the cheapest plausible patch so far.
    pub best_cost: Option<u32>,
}

/// A progress hook's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Stop now (the report keeps what was found).
    Stop,
}

/// Counters of one repair.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RepairStats {
    /// Test executions by the engine.
    pub test_executions: u64,
    /// Of which: runs with a hole (each decides a whole class).
    pub hole_executions: u64,
    /// Of which: runs of one compiled candidate.
    pub plain_executions: u64,
    /// Candidate-on-test verdicts given by hole runs (sum of class sizes).
    pub hole_decisions: u64,
    /// Test executions for fault localisation.
    pub localisation_executions: u64,
    /// Test executions for validation and minimisation.
    pub validation_executions: u64,
    /// Candidates generated.
    pub candidates: u64,
    /// Candidates decided.
    pub candidates_decided: u64,
    /// Engine test executions until the first plausible patch.
    pub first_plausible_at: Option<u64>,
}

impl RepairStats {
    /// f1x's measure: candidate-on-test verdicts per engine test execution.
    pub fn candidates_per_execution(&self) -> f64 {
        let runs = self.hole_executions + self.plain_executions;
        if runs == 0 {
            0.0
        } else {
            (self.hole_decisions + self.plain_executions) as f64 / runs as f64
        }
    }

    /// What the progress hook sees with these counters, `plausible` patches found and
    /// the cheapest costing `best_cost`.
    pub fn progress(&self, plausible: usize, best_cost: Option<u32>) -> Progress {
        Progress {
            test_executions: self.test_executions,
            candidates: self.candidates,
            candidates_decided: self.candidates_decided,
            plausible,
            best_cost,
        }
    }
}

/// Why a repair ended: its last engine's [`Stop`] read by [`StopReason::of`], or why no
/// engine ran. Kept as its own type because its text (`Display`) is what the page, the
/// saved sessions and the evaluation tables show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// Enough plausible patches were found.
    Found,
    /// Every candidate within the budget and limits was decided.
    CandidatesExhausted,
    /// The test-execution budget ran out.
    BudgetExhausted,
    /// The candidate budget ran out.
    CandidateBudget,
    /// The progress hook stopped it.
    Stopped,
    /// The program passes every test: nothing to repair.
    NothingToRepair,
    /// The program does not compile.
    DoesNotCompile(String),
    /// The requested engine is not available in this build.
    EngineUnavailable(&'static str),
}

impl StopReason {
    /// The repair's reason from its last engine's [`Stop`] (`spent`: the candidate budget
    /// is used up): the one place an engine's stop is translated. GenProg's evaluation
    /// limit is its share of the candidate budget; any other end of the search within its
    /// own limits counts as every candidate decided, or as the candidate budget when that
    /// is spent.
    fn of(stop: Stop, spent: bool) -> StopReason {
        match stop {
            Stop::Found => StopReason::Found,
            Stop::ExecutionBudget => StopReason::BudgetExhausted,
            Stop::CandidateBudget | Stop::EvaluationLimit(_) => StopReason::CandidateBudget,
            Stop::Stopped => StopReason::Stopped,
            _ if spent => StopReason::CandidateBudget,
            _ => StopReason::CandidatesExhausted,
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Found => write!(f, "found enough plausible patches"),
            StopReason::CandidatesExhausted => write!(f, "all candidates decided"),
            StopReason::BudgetExhausted => write!(f, "test-execution budget exhausted"),
            StopReason::CandidateBudget => write!(f, "candidate budget exhausted"),
            StopReason::Stopped => write!(f, "stopped"),
            StopReason::NothingToRepair => write!(f, "the program passes every test"),
            StopReason::DoesNotCompile(e) => write!(f, "the program does not compile: {e}"),
            StopReason::EngineUnavailable(e) => {
                write!(f, "engine '{e}' is not available yet")
            }
        }
    }
}

/// A validated, ranked patch.
#[derive(Debug, Clone)]
pub struct RankedPatch {
    /// The edits.
    pub patch: Patch,
    /// One readable line per edit.
    pub description: Vec<String>,
    /// Unified diff against the original source.
    pub diff: String,
    /// The patched program text.
    pub patched_source: String,
    /// Total cost.
    pub cost: u32,
    /// Tests passed (all of them: the patch is plausible).
    pub tests_passed: usize,
    /// Number of tests.
    pub tests_total: usize,
    /// Validation score on fuzzed inputs ([`validate::Validation::score`]).
    pub validation: f64,
    /// Fuzzed inputs the validation ran ([`RepairConfig::validation_inputs`], fewer when a
    /// stop request cut it short; see [`RepairConfig::min_validation_inputs`]).
    pub validated_inputs: usize,
    /// Why it is ranked lower, if it is.
    pub demotion: Demotion,
    /// Which nodes and lines of the original program the patch changes, one per edit.
    pub changed: Vec<Change>,
    /// Whether it adds a single-value test `x == c` / `x != c`
    /// ([`validate::adds_single_value_test`]); ranked after equal-cost patches without one.
    pub single_value_test: bool,
    /// Share of fuzzed inputs whose result the patch changes
    /// ([`validate::Validation::changed`]).
    pub behaviour_change: f64,
    /// Mean share of fuzzed inputs on which the other plausible behaviours (one per
    /// class) give the same result ([`validate::agreement`]).
    pub agreement: f64,
}

/// The result of a repair.
#[derive(Debug, Clone)]
pub struct RepairReport {
    /// Why it ended.
    pub stop: StopReason,
    /// Ranked patches, best first (one per behaviour class).
    pub patches: Vec<RankedPatch>,
    /// Counters.
    pub stats: RepairStats,
    /// The suspicious statements, most suspicious first.
    pub suspicious: Vec<Suspicious>,
    /// Plausible patches found before deduplication.
    pub plausible: usize,
}

impl fmt::Display for RepairReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.stats;
        writeln!(
            f,
            "repair: {} ({} plausible, {} behaviour classes)",
            self.stop,
            self.plausible,
            self.patches.len()
        )?;
        writeln!(
            f,
            "  {} candidates, {} decided, {} test executions ({} with holes), {:.1} candidates per execution",
            s.candidates,
            s.candidates_decided,
            s.test_executions,
            s.hole_executions,
            s.candidates_per_execution()
        )?;
        if let Some(n) = s.first_plausible_at {
            writeln!(f, "  first plausible patch after {n} test executions")?;
        }
        for (i, p) in self.patches.iter().enumerate() {
            writeln!(
                f,
                "#{} cost {} tests {}/{} validation {:.2} on {} fuzzed inputs{}{}",
                i + 1,
                p.cost,
                p.tests_passed,
                p.tests_total,
                p.validation,
                p.validated_inputs,
                match p.demotion {
                    Demotion::None => "",
                    Demotion::OnlyDeletes => " (only deletes)",
                    Demotion::HardcodesTest => " (hard-codes a test constant)",
                },
                if p.single_value_test {
                    " (single-value test)"
                } else {
                    ""
                }
            )?;
            for d in &p.description {
                writeln!(f, "  {d}")?;
            }
            write!(f, "{}", p.diff)?;
        }
        Ok(())
    }
}

/// Repairs `source` against `tests` (and the learned oracle, if any) with `config`.
pub fn repair(
    source: &str,
    tests: &[RepairTest],
    oracle: Option<&LearnedOracle>,
    config: &RepairConfig,
) -> RepairReport {
    repair_with_progress(source, tests, oracle, config, &mut |_| Control::Continue)
}

/// [`repair`] with a cooperative progress hook, called between candidate batches: the
/// CLI and the web worker show progress and stop the search through it.
pub fn repair_with_progress(
    source: &str,
    tests: &[RepairTest],
    oracle: Option<&LearnedOracle>,
    config: &RepairConfig,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> RepairReport {
    let mut report = empty_report();
    // One parse: the patch model's index and the compiled original share its tree.
    let src = match RepairSource::new(source) {
        Ok(s) => s,
        Err(e) => {
            report.stop = StopReason::DoesNotCompile(e.to_string());
            return report;
        }
    };
    let program = match src.compile() {
        Ok(p) => p,
        Err(e) => {
            report.stop = StopReason::DoesNotCompile(e.first_error());
            return report;
        }
    };
    let suite = TestSuite::new(
        &program,
        tests.to_vec(),
        config.extractor.clone(),
        oracle.cloned(),
        &config.limits,
    )
    .judging_bug_tests(config.oracle_judges_bug_tests);
    if suite.failing().is_empty() {
        return report;
    }
    let (suspicious, runs) = localise::localise(&program, &suite, config.weighting);
    report.stats.localisation_executions = runs;
    report.suspicious = suspicious;
    let outcome = {
        let mut gate = Gate::new(config, &mut report.stats, progress);
        let gate = &mut gate;
        let sus = &report.suspicious;
        match config.engine {
            Engine::Genetic => run_genetic(&src, &suite, sus, config, gate),
            Engine::Linear => run_linear(&src, &suite, sus, config, gate),
            Engine::Branch => run_branch(&src, &suite, sus, config, gate),
            Engine::Pair => pair::pairs(&src, &suite, sus, config, gate),
            Engine::Enumerate => enumerate::enumerate(&src, &suite, sus, config, gate),
            Engine::All => {
                // Cheapest first: enumeration, widening, then LRA synthesis while fewer than
                // `max_plausible` patches are found (its conditions and expressions are
                // ones enumeration has no template for, so the questions that choose
                // between patches get them to compare), then GenProg while nothing is
                // plausible; all draw from one gate, so once it refuses the later engines
                // return at once.
                let mut outcome = enumerate::enumerate(&src, &suite, sus, config, gate);
                // Then widening `int` to `long long`: a few candidates, each a whole run.
                if outcome.plausible.len() < config.max_plausible && gate.stopped().is_none() {
                    let found = outcome.plausible.len();
                    match widen::widen(&src, &suite, config, gate) {
                        Ok(wider) => outcome.plausible.extend(wider),
                        Err(why) if found == 0 => outcome.stop = why,
                        Err(_) => {}
                    }
                    if found == 0 && !outcome.plausible.is_empty() {
                        outcome.stop = Stop::Found;
                    }
                }
                if outcome.plausible.len() < config.max_plausible && gate.stopped().is_none() {
                    let linear = run_linear(&src, &suite, sus, config, gate);
                    outcome.absorb(linear);
                }
                // Then new branches: dearer, and each location tries several bodies.
                if outcome.plausible.len() < config.max_plausible && gate.stopped().is_none() {
                    let branches = run_branch(&src, &suite, sus, config, gate);
                    outcome.absorb(branches);
                }
                // Then two edits, only when no single edit fits: each first edit costs an
                // enumeration of its own, and a pair beside plausible single edits is one
                // more behaviour for the few questions to rule out (on the triangle
                // function asked as a person, it left two patches after five questions
                // where one was left before).
                if outcome.plausible.is_empty() && gate.stopped().is_none() {
                    let pairs = pair::pairs(&src, &suite, sus, config, gate);
                    outcome.absorb(pairs);
                }
                if outcome.plausible.is_empty() && gate.stopped().is_none() {
                    outcome = run_genetic(&src, &suite, sus, config, gate);
                }
                outcome
            }
        }
    };
    let spent = report.stats.candidates as usize >= config.max_candidates;
    report.stop = StopReason::of(outcome.stop, spent);
    report.plausible = outcome.plausible.len();
    report.patches = finish(
        &src,
        &program,
        &suite,
        outcome.plausible,
        config,
        &mut report.stats,
        progress,
    );
    report
}

/// A report of no work yet (stop reason [`StopReason::NothingToRepair`]).
pub(crate) fn empty_report() -> RepairReport {
    RepairReport {
        stop: StopReason::NothingToRepair,
        patches: Vec::new(),
        stats: RepairStats::default(),
        suspicious: Vec::new(),
        plausible: 0,
    }
}

/// Engine 2 (GenProg, [`gp_program::genetic`]) as an engine outcome.
fn run_genetic(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> enumerate::EngineOutcome {
    let (patch, gp, _) = gp_program::genetic(src, suite, suspicious, config, &config.genetic, gate);
    enumerate::EngineOutcome {
        plausible: patch.into_iter().collect(),
        stop: gp.stop,
    }
}

/// Engine 3 (angelic values and linear synthesis, [`lra::linear`]) as an engine outcome.
fn run_linear(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> enumerate::EngineOutcome {
    lra::linear(src, suite, suspicious, config, &config.linear, gate).into()
}

/// New branches ([`branch::branches`]) as an engine outcome.
fn run_branch(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> enumerate::EngineOutcome {
    branch::branches(src, suite, suspicious, config, gate).into()
}

/// Validates, minimises, deduplicates (one per behaviour class) and ranks plausible
/// patches from any engine (`original` is the unpatched program): by demotion,
/// validation (descending; scores within [`RepairConfig::validation_tie`] of the best
/// count as the best), cost (among the best-validated, costs within
/// [`RepairConfig::cost_tie`] of the cheapest count as the cheapest), whether it adds a
/// single-value test (those last), cost, then the share of fuzzed inputs whose result
/// the patch changes (least first). Patches are validated cheapest first; when
/// `progress` says stop, the rest are dropped (at least one is always validated).
/// Without plausible patches nothing runs (the fuzzed inputs are for comparing them).
pub fn finish(
    src: &RepairSource,
    original: &crate::lang::Program,
    suite: &TestSuite,
    plausible: Vec<Patch>,
    config: &RepairConfig,
    stats: &mut RepairStats,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Vec<RankedPatch> {
    if plausible.is_empty() {
        return Vec::new();
    }
    let mut inputs = fuzz_inputs(suite, &config.fuzz, config.validation_inputs, config.seed);
    inputs.extend(constant_inputs(
        suite,
        &config.fuzz,
        &src.constants(),
        &inputs,
    ));
    let mut original = Original {
        program: original,
        results: Vec::new(),
    };
    let mut ranked: Vec<(RankedPatch, Vec<RunResult>)> = Vec::new();
    let mut by_cost = plausible;
    by_cost.sort_by_key(|p| p.cost(&config.costs));
    let found = by_cost.len();
    for patch in by_cost.into_iter().take(config.max_validated) {
        let snapshot = stats.progress(found, ranked.iter().map(|r| r.0.cost).min());
        if !ranked.is_empty() && progress(&snapshot) == Control::Stop {
            break;
        }
        let patch = if patch.edits.len() > 1 {
            minimise(&patch, &mut |p| {
                let Ok(text) = src.apply(p, &config.trusted_lines) else {
                    return false;
                };
                let Ok(prog) = compile(&text) else {
                    return false;
                };
                suite.order().iter().all(|&t| {
                    stats.validation_executions += 1;
                    suite.run(&prog, t).1
                })
            })
        } else {
            patch
        };
        let Ok(text) = src.apply(&patch, &config.trusted_lines) else {
            continue;
        };
        let Ok(prog) = compile(&text) else {
            continue;
        };
        // The first patch is always reported, validated on at least
        // `min_validation_inputs`; a later one only when its validation is complete, so
        // that the ranking compares scores on the same inputs.
        let first = ranked.is_empty();
        let min_inputs = if first {
            config.min_validation_inputs
        } else {
            0
        };
        let mut go_on = || progress(&snapshot) != Control::Stop;
        let v = validate(&prog, suite, &inputs, &mut original, min_inputs, &mut go_on);
        stats.validation_executions += v.executions;
        if !first && !v.complete(&inputs) {
            break;
        }
        let rp = RankedPatch {
            description: patch
                .edits
                .iter()
                .map(|e| src.describe(e).to_string())
                .collect(),
            diff: src.diff(&text, "program.c"),
            cost: patch.cost(&config.costs),
            tests_passed: suite.tests().len(),
            tests_total: suite.tests().len(),
            validation: v.score,
            validated_inputs: v.inputs,
            demotion: Demotion::of(src, &patch, suite),
            changed: src.changes(&patch),
            single_value_test: adds_single_value_test(src, &patch),
            behaviour_change: v.changed,
            agreement: 0.0,
            patched_source: text,
            patch,
        };
        ranked.push((rp, v.behaviour));
    }
    let behaviours: Vec<&[RunResult]> = ranked
        .iter()
        .map(|(_, b)| &b[suite.tests().len().min(b.len())..])
        .collect();
    let agree = agreement(&behaviours);
    for ((p, _), a) in ranked.iter_mut().zip(agree) {
        p.agreement = a;
    }
    let best = ranked
        .iter()
        .map(|(p, _)| p.validation)
        .fold(f64::NEG_INFINITY, f64::max);
    let validation = |p: &RankedPatch| {
        if p.validation >= best - config.validation_tie - 1e-9 {
            best
        } else {
            p.validation
        }
    };
    let cheapest = ranked
        .iter()
        .filter(|(p, _)| validation(p) == best)
        .map(|(p, _)| p.cost)
        .min()
        .unwrap_or(0);
    let tied = cheapest.saturating_add(config.cost_tie);
    let key = |p: &RankedPatch| {
        (
            p.demotion,
            std::cmp::Reverse((validation(p) * 1e6) as u64),
            p.cost.max(tied),
            p.single_value_test,
            p.cost,
            (p.behaviour_change * 1e6) as u64,
            p.patch.edits.len(),
        )
    };
    ranked.sort_by_key(|(p, _)| key(p));
    let mut out: Vec<RankedPatch> = Vec::new();
    let mut seen: Vec<Vec<RunResult>> = Vec::new();
    for (p, b) in ranked {
        if seen.contains(&b) {
            continue;
        }
        seen.push(b);
        out.push(p);
        if out.len() >= config.max_ranked {
            break;
        }
    }
    out
}
