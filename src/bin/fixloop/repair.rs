//! `fixloop repair`: repairs one C program against a tests file (or a subject's train tests) and prints ranked patches.

use clap::{Args, ValueEnum};
use fixloop::corpus::Subject;
use fixloop::repair::tests::parse_tests;
use fixloop::repair::{
    repair_with_progress, Control, CostTable, Engine, Expectation, LearnedOracle, RepairConfig,
    RepairReport, RepairTest,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Engine choice on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineArg {
    /// Cost-ordered enumeration with test-equivalence (f1x).
    Enum,
    /// Genetic programming (GenProg) with operator selection.
    Gp,
    /// Angelic values and linear synthesis with the exact LRA solver.
    Lra,
    /// New branches `if (C) { ... }` with synthesised conditions.
    Branch,
    /// Two edits: a first that passes some failing tests, then a second.
    Pair,
    /// Every available engine.
    All,
}

impl From<EngineArg> for Engine {
    fn from(e: EngineArg) -> Engine {
        match e {
            EngineArg::Enum => Engine::Enumerate,
            EngineArg::Gp => Engine::Genetic,
            EngineArg::Lra => Engine::Linear,
            EngineArg::Branch => Engine::Branch,
            EngineArg::Pair => Engine::Pair,
            EngineArg::All => Engine::All,
        }
    }
}

/// Arguments of `fixloop repair`.
#[derive(Args, Debug)]
pub struct RepairArgs {
    /// The C program to repair.
    pub file: PathBuf,
    /// The tests: a text file with one test per line, `INPUT => EXPECTED` where INPUT is
    /// numbers and EXPECTED the expected output (`\n` for a line break), or `bug` (the
    /// output is wrong, expected unknown) or `ok` (the output is right); `#` comments.
    /// A `.json` file is read as a benchmark subject and its train tests are used.
    #[arg(long)]
    pub tests: PathBuf,
    /// Engine.
    #[arg(long, value_enum, default_value_t = EngineArg::Enum)]
    pub engine: EngineArg,
    /// Cost table file (`key = value` lines or a JSON object; see `CostTable`).
    #[arg(long)]
    pub costs: Option<PathBuf>,
    /// Largest total patch cost.
    #[arg(long, default_value_t = RepairConfig::default().budget)]
    pub budget: u32,
    /// Trusted (never edited) lines, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub trusted: Vec<u32>,
    /// Test-execution budget of the engine.
    #[arg(long, default_value_t = RepairConfig::default().max_test_executions)]
    pub max_executions: u64,
    /// Wall-clock bound in milliseconds (the CLI stops the engine through its progress hook).
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

fn load_tests(args: &RepairArgs) -> Result<(Vec<RepairTest>, RepairConfig), String> {
    let text = std::fs::read_to_string(&args.tests)
        .map_err(|e| format!("cannot read {}: {e}", args.tests.display()))?;
    let mut config = RepairConfig::default();
    let tests = if args.tests.extension().is_some_and(|e| e == "json") {
        let s = Subject::from_json(&text).map_err(|e| e.to_string())?;
        config.extractor = s.answer_extractor().map_err(|e| e.to_string())?;
        subject_tests(&s)
    } else {
        parse_tests(&text).map_err(|e| e.to_string())?
    };
    Ok((tests, config))
}

/// A subject's numeric train tests as repair tests with expected outputs.
pub fn subject_tests(s: &Subject) -> Vec<RepairTest> {
    s.tests
        .train
        .iter()
        .filter_map(|t| {
            Some(RepairTest {
                input: fixloop::active::num::parse_input(&t.input)?,
                expect: Expectation::Output(t.output.clone()),
            })
        })
        .collect()
}

/// Runs a repair bounded by `bound` on `clock` (time since the start); returns the
/// report, the elapsed time and the time when the first plausible patch was seen (at the
/// next progress call).
pub fn timed_repair(
    source: &str,
    tests: &[RepairTest],
    oracle: Option<&LearnedOracle>,
    config: &RepairConfig,
    bound: Duration,
    clock: &dyn Fn() -> Duration,
) -> (RepairReport, Duration, Option<Duration>) {
    let start = clock();
    let mut first = None;
    let report = repair_with_progress(source, tests, oracle, config, &mut |p| {
        let now = clock().saturating_sub(start);
        if p.plausible > 0 && first.is_none() {
            first = Some(now);
        }
        if now > bound {
            Control::Stop
        } else {
            Control::Continue
        }
    });
    let elapsed = clock().saturating_sub(start);
    let first = first.or_else(|| (report.plausible > 0).then_some(elapsed));
    (report, elapsed, first)
}

/// Runs `fixloop repair`.
pub fn main(args: RepairArgs) -> ExitCode {
    let source = match std::fs::read_to_string(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file.display());
            return ExitCode::from(1);
        }
    };
    let (tests, mut config) = match load_tests(&args) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(path) = &args.costs {
        let parsed = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| CostTable::parse(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(c) => config.costs = c,
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
    }
    config.engine = args.engine.into();
    config.budget = args.budget;
    config.trusted_lines = args.trusted.iter().copied().collect();
    config.max_test_executions = args.max_executions;
    let wall = Instant::now();
    let (report, elapsed, first) = timed_repair(
        &source,
        &tests,
        None,
        &config,
        Duration::from_millis(args.timeout_ms),
        &|| wall.elapsed(),
    );
    if args.json {
        let patches: Vec<serde_json::Value> = report
            .patches
            .iter()
            .map(|p| {
                serde_json::json!({
                    "cost": p.cost,
                    "tests_passed": p.tests_passed,
                    "tests_total": p.tests_total,
                    "validation": p.validation,
                    "validated_inputs": p.validated_inputs,
                    "demotion": format!("{:?}", p.demotion),
                    "single_value_test": p.single_value_test,
                    "behaviour_change": p.behaviour_change,
                    "changed": p.changed.iter().map(|c| serde_json::json!({"node": c.node, "first_line": c.first_line, "last_line": c.last_line, "kind": c.kind.name()})).collect::<Vec<_>>(),
                    "edits": p.description,
                    "diff": p.diff,
                })
            })
            .collect();
        let s = &report.stats;
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "stop": report.stop.to_string(),
                "plausible": report.plausible,
                "patches": patches,
                "test_executions": s.test_executions,
                "hole_executions": s.hole_executions,
                "candidates": s.candidates,
                "candidates_decided": s.candidates_decided,
                "candidates_per_execution": s.candidates_per_execution(),
                "first_plausible_at_execution": s.first_plausible_at,
                "time_ms": elapsed.as_secs_f64() * 1e3,
                "first_patch_ms": first.map(|d| d.as_secs_f64() * 1e3),
            }))
            .unwrap_or_default()
        );
    } else {
        print!("{report}");
        println!(
            "time {:.0} ms{}",
            elapsed.as_secs_f64() * 1e3,
            first.map_or(String::new(), |d| format!(
                ", first plausible patch at {:.0} ms",
                d.as_secs_f64() * 1e3
            ))
        );
    }
    if report.patches.is_empty() {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}
