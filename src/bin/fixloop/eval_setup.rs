//! What every corpus evaluation command shares: `fixloop eval`'s arguments and the loop settings they make, the subject files they select, the worker threads, the per-thread CPU clock and the timing block of a report.

use clap::Args;
use fixloop::active::{ActiveConfig, FuzzConfig, FuzzFuel};
use fixloop::lang::Limits;
use fixloop::oracle::LearnConfig;
use fixloop::session::{Fuzzer, Settings};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The loop's fuzzer on the command line (see [`fixloop::session::Fuzzer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
pub enum FuzzerArg {
    /// Around the failing input (the page's default).
    Neighbourhood,
    /// Learn2fix's stacked operators.
    Classic,
}

impl From<Fuzzer> for FuzzerArg {
    fn from(f: Fuzzer) -> FuzzerArg {
        match f {
            Fuzzer::Neighbourhood => FuzzerArg::Neighbourhood,
            Fuzzer::Classic => FuzzerArg::Classic,
        }
    }
}

impl FuzzerArg {
    /// The session setting.
    pub fn setting(self) -> Fuzzer {
        match self {
            FuzzerArg::Neighbourhood => Fuzzer::Neighbourhood,
            FuzzerArg::Classic => Fuzzer::Classic,
        }
    }

    /// The active loop's fuzzer profile.
    pub fn profile(self) -> fixloop::active::FuzzProfile {
        self.setting().profile()
    }
}

/// `--answerer`: how the simulated user answers.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AnswererArg {
    /// As a person at the page: Bug or Not a bug, an output only when a question asks
    /// for one (the default: the figures describe the page).
    #[default]
    Person,
    /// The ideal user of earlier figures: the right output with every Bug answer and
    /// with the failing input.
    Golden,
}

impl AnswererArg {
    /// The labeller's style.
    pub fn style(self) -> fixloop::active::reference::Answerer {
        match self {
            AnswererArg::Person => fixloop::active::reference::Answerer::Person,
            AnswererArg::Golden => fixloop::active::reference::Answerer::Golden,
        }
    }
}

/// `--asking`: how the loop and repair ask.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AskingArg {
    /// As the page asks a person (the default): questions near the failing input first,
    /// formulas over the inputs preferred, the right output of a bug asked when repair
    /// needs it, boundary questions before a patch is called the fix.
    #[default]
    Person,
    /// As sessions were asked before (`Asking::Legacy`).
    Legacy,
}

impl AskingArg {
    /// The session setting.
    pub fn setting(self) -> fixloop::session::Asking {
        match self {
            AskingArg::Person => fixloop::session::Asking::Person,
            AskingArg::Legacy => fixloop::session::Asking::Legacy,
        }
    }

    /// Whether it asks as a person is asked.
    pub fn person(self) -> bool {
        self == AskingArg::Person
    }
}

/// The asking of partial reports written before `--asking` existed.
fn legacy_asking() -> AskingArg {
    AskingArg::Legacy
}

/// The answerer of partial reports written before `--answerer` existed.
fn golden_answerer() -> AnswererArg {
    AnswererArg::Golden
}

/// `--shard I/N`: the I-th (1-based) of N slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// 1 ..= count.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<ShardSpec, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: expected I/N, e.g. 2/8"))?;
        let parse = |x: &str| {
            x.trim()
                .parse::<usize>()
                .map_err(|_| format!("{s:?}: expected I/N with whole numbers, e.g. 2/8"))
        };
        let (index, count) = (parse(i)?, parse(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!(
                "{s:?}: the shard number I counts from 1 to N (N at least 1)"
            ));
        }
        Ok(ShardSpec { index, count })
    }
}

impl std::fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Arguments of `fixloop eval`. Serialisable: a shard's partial report carries them, so
/// that `eval merge` checks and reproduces the settings.
#[derive(Args, Debug, Clone, Serialize, Deserialize)]
pub struct EvalArgs {
    /// A folder of subject JSON files (searched recursively; manifest.json is skipped).
    pub dir: PathBuf,
    /// Label budgets l, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "10,20,30")]
    pub labels: Vec<usize>,
    /// Runs per subject (different seeds, and initial failing tests where there are several).
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Base random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    #[serde(default)]
    pub json: bool,
    /// Write per-subject, per-run, per-budget rows to this CSV file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Committee size S (2S look-ahead oracles).
    #[arg(long, default_value_t = Settings::default().committee)]
    pub committee: usize,
    /// Generation budget: candidate tests per run.
    #[arg(long, default_value_t = ActiveConfig::default().max_generated)]
    pub max_generated: usize,
    /// Committee budget: look-ahead learns per run.
    #[arg(long, default_value_t = ActiveConfig::default().max_look_ahead_learns)]
    pub max_look_ahead_learns: usize,
    /// Stop at the generation budget with labels left, as Learn2fix's Algorithm 1 does
    /// (by default the leftover labels go to the generated tests not asked yet). The loop
    /// settings (this, --committee, --max-generated, --max-look-ahead-learns,
    /// --max-run-conflicts) also apply to `--repair --tests labels`.
    #[arg(long)]
    pub no_leftover_labels: bool,
    /// The golden labeller answers also questions on which the golden program has no
    /// defined answer (it stops abnormally, reads a number that does not fit its type, or
    /// goes through undefined behaviour of C, such as a signed overflow, that changes its
    /// output when every undefined result is 0), comparing with whatever it printed, as
    /// Learn2fix's does. By
    /// default it skips them, as a person told an input is invalid would; a skip spends
    /// no label. Also applies to `--repair --tests labels`.
    #[arg(long)]
    pub label_undefined: bool,
    /// With `--repair --tests labels`: how the golden program answers the loop's and the
    /// repair's questions - as a person at the page (Bug or Not a bug, an output only
    /// when a question asks for one; the default) or as the ideal user who types the
    /// right output with every Bug and with the failing input (`golden`).
    #[arg(long, value_enum, default_value = "person")]
    #[serde(default = "golden_answerer")]
    pub answerer: AnswererArg,
    /// How the loop and repair ask: as the page asks a person (`person`, the default:
    /// near questions first, formulas over the inputs preferred, outputs asked when
    /// needed, boundary questions) or as sessions were asked before (`legacy`).
    #[arg(long, value_enum, default_value = "person")]
    #[serde(default = "legacy_asking")]
    pub asking: AskingArg,
    /// Fuzzer of the loop: share of mutants that change one input position and keep the
    /// others; the rest change every position, as Learn2fix's fuzzer does (the default, 0).
    /// Also applies to `--repair --tests labels`.
    #[arg(long, default_value_t = FuzzConfig::default().single_position_share)]
    pub single_position_share: f64,
    /// Fuzzer of the loop: `neighbourhood` (the page's default: steps around the failing
    /// input, sign flips, type limits, the program's constants) or `classic` (Learn2fix's
    /// stacked operators, the fuzzer of the figures before the neighbourhood fuzzer).
    /// Also applies to `--repair --tests labels`.
    #[arg(long, value_enum, default_value_t = FuzzerArg::from(Settings::default().fuzzer))]
    pub fuzzer: FuzzerArg,
    /// Fuzzer of the loop: keep an input position non-negative when none of the subject's
    /// train tests (the problem statement's examples) has a negative value there, as a
    /// person would by giving ranges; by default inputs are unbounded, as in Learn2fix.
    /// The oracle evaluation only (not `--repair --tests labels`).
    #[arg(long, conflicts_with = "ranges_from_failing")]
    pub ranges_from_train: bool,
    /// Fuzzer of the loop: keep an input position non-negative when the run's initial
    /// failing test has a non-negative value there (the loop's own input, nothing else of
    /// the subject). The oracle evaluation only.
    #[arg(long)]
    pub ranges_from_failing: bool,
    /// Learner budget: SAT conflicts of all learn calls of a run together (0: no cap,
    /// only the learner's per-learn-call limit).
    #[arg(long, default_value_t = ActiveConfig::default().max_conflicts.unwrap_or(0))]
    pub max_run_conflicts: u64,
    /// Fuel (steps) per program run on the subject's tests; the most any run gets.
    #[arg(long, default_value_t = Limits::default().fuel)]
    pub fuel: u64,
    /// Fuel of fuzzed inputs: this many times the slowest train test's steps (buggy or
    /// golden), at least --fuzz-fuel-floor and at most --fuel.
    #[arg(long, default_value_t = FuzzFuel::default().multiple)]
    pub fuzz_fuel_multiple: u64,
    /// Least fuel of a fuzzed input.
    #[arg(long, default_value_t = FuzzFuel::default().floor)]
    pub fuzz_fuel_floor: u64,
    /// Learner: largest formula size in literals.
    #[arg(long, default_value_t = LearnConfig::default().max_literals)]
    pub max_literals: usize,
    /// Learner: most clauses (CNF) or terms (DNF).
    #[arg(long, default_value_t = LearnConfig::default().max_clauses)]
    pub max_clauses: usize,
    /// Learner: most SAT calls per learn call.
    #[arg(long, default_value_t = LearnConfig::default().max_sat_calls)]
    pub max_sat_calls: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Only subjects whose id contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// Only every K-th subject file (in sorted order), for a quick sample of a corpus.
    #[arg(long, default_value_t = 1)]
    pub stride: usize,
    /// Evaluate repair instead of the oracle (repairability, held-out pass rate of the
    /// top patch, time to first plausible patch, test executions).
    #[arg(long)]
    pub repair: bool,
    /// With --repair: the tests repair uses (`train`: the subject's train tests with
    /// expected outputs; `labels`: the tests the active loop labels, up to the largest --labels budget, with the
    /// golden program as labeller, and its learned oracle).
    #[arg(long, default_value = "train")]
    pub tests: String,
    /// With --repair: per-subject time bound in milliseconds (the thread's CPU time where
    /// the platform reports it, else wall-clock time); with --selection, per GP run.
    #[arg(long, default_value_t = 10_000)]
    pub repair_timeout_ms: u64,
    /// With --repair: run the GenProg engine once per operator-selection strategy and
    /// print the success-rate table (`all`, or a list like `uniform,eps-greedy/avg/raw`;
    /// strategies uniform, pm, ap, eps-greedy, ucb; credit avg, recency; reward raw, parent).
    #[arg(long)]
    pub selection: Option<String>,
    /// With --repair: the repair engine (enum, gp, lra, all); by default the page's
    /// repair settings (every engine, the default session's pool of 40 plausible patches
    /// validated, the best 10 ranked).
    #[arg(long, value_enum)]
    pub engine: Option<crate::repair::EngineArg>,
    /// With --repair --tests labels: question budgets for choosing between plausible
    /// patches, comma-separated (the golden program answers; one run reports the top
    /// patch after each budget, since the questions asked do not depend on the budget).
    /// 0 (the default): no questions.
    #[arg(long, value_delimiter = ',', default_value = "0")]
    #[serde(default)]
    pub questions: Vec<usize>,
    /// With --repair: plausible patches a search collects before it stops (the page's
    /// default, 40, when left out; sessions saved before the setting used 10).
    #[arg(long)]
    #[serde(default)]
    pub patch_pool: Option<usize>,
    /// Evaluate only the I-th of N deterministic slices of the subjects (1 <= I <= N),
    /// balanced by the cost estimate, and print the slice's partial report (JSON) for
    /// `fixloop eval merge`; --csv gets the slice's rows. Not with --selection.
    #[arg(long)]
    pub shard: Option<ShardSpec>,
    /// Leave every clock reading out of the report (wall and CPU times, time to first
    /// patch) and the thread count, so that it depends only on the settings, the build
    /// and the corpus; merged shards then print exactly what one run prints.
    #[arg(long)]
    #[serde(default)]
    pub no_timing: bool,
}

/// Subject JSON files under `dir` (recursively; manifest.json skipped).
fn subject_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            subject_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json")
            && path.file_name().is_some_and(|n| n != "manifest.json")
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The subject files `args` selects (sorted, filtered, strided), or the error printed
/// and exit code 2 when the folder cannot be read.
pub fn selected_files(args: &EvalArgs) -> Result<Vec<PathBuf>, ExitCode> {
    let mut files = Vec::new();
    if let Err(e) = subject_files(&args.dir, &mut files) {
        eprintln!("error: cannot read {}: {e}", args.dir.display());
        return Err(ExitCode::from(2));
    }
    select_files(&mut files, args);
    Ok(files)
}

/// Sorts `files` and keeps those `--filter` and `--stride` select.
fn select_files(files: &mut Vec<PathBuf>, args: &EvalArgs) {
    files.sort();
    if let Some(f) = &args.filter {
        files.retain(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(f.as_str()))
        });
    }
    let stride = args.stride.max(1);
    let all = std::mem::take(files);
    *files = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0)
        .map(|(_, p)| p)
        .collect();
}

/// Runs `job(i)` for every `i < n` on `threads` worker threads (work stealing by index);
/// results in index order.
pub fn parallel_map<T: Send>(n: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = job(i);
                if let Ok(mut all) = results.lock() {
                    all[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// CPU time of the calling thread in seconds (Linux `/proc/thread-self/schedstat`), so
/// figures stay meaningful on a loaded machine; `None` elsewhere.
pub fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// A clock for time bounds: this thread's CPU time where the platform reports it (the
/// machine may be shared), else the wall time since `wall`.
pub fn thread_clock(wall: Instant) -> impl Fn() -> Duration {
    move || {
        thread_cpu_seconds()
            .map(Duration::from_secs_f64)
            .unwrap_or_else(|| wall.elapsed())
    }
}

/// The active loop's settings from the command line (the label budget is set per run).
/// `--repair --tests labels` runs its loops with these too.
pub fn active_config(args: &EvalArgs) -> ActiveConfig {
    ActiveConfig {
        committee: args.committee,
        max_generated: args.max_generated,
        max_look_ahead_learns: args.max_look_ahead_learns,
        max_conflicts: (args.max_run_conflicts > 0).then_some(args.max_run_conflicts),
        spend_leftover_labels: !args.no_leftover_labels,
        fuzz: FuzzConfig {
            single_position_share: args.single_position_share,
            profile: args.fuzzer.profile(),
            ..FuzzConfig::default()
        },
        near_first: args.asking.person(),
        ..ActiveConfig::default()
    }
}

/// Worker threads: `--threads`, else every core.
pub fn thread_count(args: &EvalArgs) -> usize {
    args.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The clock readings a report shows (none under `--no-timing`).
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Worker threads (of a merged report: the most any shard had).
    pub threads: usize,
    /// Wall seconds (of a merged report: the longest shard's).
    pub wall_s: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        eval: EvalArgs,
    }

    fn args(words: &[&str]) -> EvalArgs {
        use clap::Parser;
        Cli::parse_from(std::iter::once("eval").chain(words.iter().copied())).eval
    }

    #[test]
    fn loop_settings_come_from_the_command_line() {
        let c = active_config(&args(&["dir"]));
        assert!(c.spend_leftover_labels);
        assert_eq!(c.committee, ActiveConfig::default().committee);
        assert_eq!(c.max_conflicts, ActiveConfig::default().max_conflicts);
        let c = active_config(&args(&[
            "dir",
            "--no-leftover-labels",
            "--committee",
            "3",
            "--max-generated",
            "50",
            "--max-look-ahead-learns",
            "7",
            "--max-run-conflicts",
            "0",
        ]));
        assert!(!c.spend_leftover_labels);
        assert_eq!(
            (c.committee, c.max_generated, c.max_look_ahead_learns),
            (3, 50, 7)
        );
        assert_eq!(c.max_conflicts, None);
    }
}
