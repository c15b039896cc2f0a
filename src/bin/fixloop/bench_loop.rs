//! `fixloop bench loop`: thread CPU of each of the page's label steps (from an answer to the next question), the reference answering, over several seeds.

use crate::bench_learn::{print_json, quantile, thread_cpu};
use fixloop::active::num::parse_input;
use fixloop::corpus::Subject;
use fixloop::session::autopilot::{fly_watched, reference_user, StepEdge};
use fixloop::session::{Session, Settings};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fixloop bench loop`.
#[derive(clap::Args)]
pub struct LoopBenchArgs {
    /// The buggy C program, or a corpus subject (`.json`: its buggy program, its golden
    /// program as the reference, and its first failing train test unless `--failing`).
    program: PathBuf,
    /// The correct program (not needed for a subject).
    #[arg(long)]
    reference: Option<PathBuf>,
    /// The input on which the program goes wrong.
    #[arg(long)]
    failing: Option<String>,
    /// Label budget (the page's default when left out).
    #[arg(long)]
    labels: Option<usize>,
    /// Seeds of the sessions, `FIRST..LAST` inclusive or one number.
    #[arg(long, default_value = "1..10")]
    seeds: String,
    /// Print one JSON object (every step's time too) instead of the table.
    #[arg(long)]
    json: bool,
}

/// One label step: answers given before it, and its thread CPU in milliseconds.
struct Timed {
    seed: u64,
    answers: usize,
    ms: f64,
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The buggy program, the reference and the failing input named by `a`.
fn subject(a: &LoopBenchArgs) -> Result<(String, String, String), String> {
    if a.program.extension().is_some_and(|e| e == "json") {
        let s = Subject::from_json(&read(&a.program)?).map_err(|e| e.to_string())?;
        let failing = match &a.failing {
            Some(f) => f.clone(),
            None => s
                .tests
                .train
                .iter()
                .find(|t| t.buggy_passes == Some(false))
                .map(|t| t.input.split_whitespace().collect::<Vec<_>>().join(" "))
                .ok_or("the subject has no failing train test; give --failing")?,
        };
        return Ok((s.buggy, s.golden, failing));
    }
    let reference = a
        .reference
        .as_ref()
        .ok_or("--reference is needed with a C program")?;
    let failing = a
        .failing
        .clone()
        .ok_or("--failing is needed with a C program")?;
    Ok((read(&a.program)?, read(reference)?, failing))
}

fn seeds(text: &str) -> Result<Vec<u64>, String> {
    let bad = || format!("--seeds {text}: expected FIRST..LAST or a number");
    match text.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (a.trim().parse::<u64>(), b.trim().parse::<u64>());
            match (a, b) {
                (Ok(a), Ok(b)) if a <= b => Ok((a..=b).collect()),
                _ => Err(bad()),
            }
        }
        None => text.trim().parse().map(|s| vec![s]).map_err(|_| bad()),
    }
}

/// Every label step of one session with `seed`, timed.
fn time_session(
    program: &str,
    reference: &str,
    failing: &str,
    labels: Option<usize>,
    seed: u64,
) -> Result<Vec<Timed>, String> {
    let mut user = reference_user(reference, failing).map_err(|e| e.to_string())?;
    let mut session = Session::new(program, failing);
    let defaults = Settings::default();
    session.settings.label_budget = labels.unwrap_or(defaults.label_budget);
    session.settings.seed = seed;
    // Only the labelling steps are timed: no questions about patches.
    session.settings.questions = 0;
    session.expected_output = user.right_output(&parse_input(failing).unwrap_or_default());
    session.validate().map_err(|e| e.to_string())?;
    let mut steps = Vec::new();
    let mut open: Option<(usize, f64)> = None;
    let mut watch = |edge: StepEdge| match edge {
        StepEdge::Begin { answers } => open = Some((answers, thread_cpu())),
        StepEdge::End => {
            if let Some((answers, t0)) = open.take() {
                steps.push(Timed {
                    seed,
                    answers,
                    ms: (thread_cpu() - t0) * 1e3,
                });
            }
        }
    };
    fly_watched(session, &mut user, &mut watch).map_err(|e| e.to_string())?;
    Ok(steps)
}

/// Runs `fixloop bench loop`.
pub fn main(a: LoopBenchArgs) -> ExitCode {
    let run = || -> Result<Vec<Timed>, String> {
        let (program, reference, failing) = subject(&a)?;
        let mut all = Vec::new();
        for seed in seeds(&a.seeds)? {
            all.extend(time_session(
                &program, &reference, &failing, a.labels, seed,
            )?);
        }
        Ok(all)
    };
    let steps = match run() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("fixloop bench loop: {e}");
            return ExitCode::from(2);
        }
    };
    // The first step of a session (Start to the first question) apart from the others.
    let mut first: Vec<f64> = steps
        .iter()
        .filter(|s| s.answers == 0)
        .map(|s| s.ms)
        .collect();
    let mut next: Vec<f64> = steps
        .iter()
        .filter(|s| s.answers > 0)
        .map(|s| s.ms)
        .collect();
    let row = |name: &str, v: &mut Vec<f64>| {
        serde_json::json!({
            "steps": name,
            "count": v.len(),
            "cpu_ms_median": quantile(v, 0.5),
            "cpu_ms_p95": quantile(v, 0.95),
            "cpu_ms_max": quantile(v, 1.0),
        })
    };
    let rows = [
        row("start to first question", &mut first),
        row("answer to next question", &mut next),
    ];
    let mut out = std::io::stdout().lock();
    if a.json {
        let per_step: Vec<serde_json::Value> = steps
            .iter()
            .map(|s| serde_json::json!({ "seed": s.seed, "answers": s.answers, "cpu_ms": s.ms }))
            .collect();
        print_json(
            &mut out,
            &serde_json::json!({ "rows": rows, "steps": per_step }),
        );
        return ExitCode::SUCCESS;
    }
    let _ = writeln!(
        out,
        "{:<32} {:>6} {:>9} {:>9} {:>9}",
        "steps (thread CPU ms)", "count", "median", "p95", "max"
    );
    for r in &rows {
        let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
        let _ = writeln!(
            out,
            "{:<32} {:>6} {:>9.3} {:>9.3} {:>9.3}",
            r["steps"].as_str().unwrap_or(""),
            r["count"].as_u64().unwrap_or(0),
            f("cpu_ms_median"),
            f("cpu_ms_p95"),
            f("cpu_ms_max"),
        );
    }
    let slowest = steps.iter().max_by(|x, y| x.ms.total_cmp(&y.ms));
    if let Some(s) = slowest {
        let _ = writeln!(
            out,
            "slowest step: seed {}, after {} answers, {:.3} ms",
            s.seed, s.answers, s.ms
        );
    }
    ExitCode::SUCCESS
}
