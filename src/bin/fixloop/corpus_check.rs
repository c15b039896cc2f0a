//! `fixloop corpus check DIR`: our verdicts vs gcc's on every subject, as a table or JSON.

use fixloop::lang::corpus_check::{check_all, load_dir, Report, Runner};
use fixloop::lang::{Execution, Limits, Program};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `fixloop corpus check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// A folder of subject JSON files, or a folder of such folders (e.g. `shared/benchmarks`).
    dir: PathBuf,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Step budget per run. Larger than the library default: accepted Codeforces solutions
    /// run up to ~2*10^8 steps within their time limit.
    #[arg(long, default_value_t = 300_000_000)]
    fuel: u64,
    /// Memory budget per run in MiB (Codeforces allows 256).
    #[arg(long, default_value_t = 256)]
    memory_mib: usize,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print at most this many disagreements in the table.
    #[arg(long, default_value_t = 50)]
    show: usize,
    /// Check only subjects whose id contains one of these substrings (repeatable), e.g.
    /// `--only 175-A --only 458-D` while iterating on a few subjects.
    #[arg(long)]
    only: Vec<String>,
}

/// Runs a program, turning a panic into `Err` so it is counted instead of aborting.
pub fn catching_runner(p: &Program, stdin: &[u8], limits: &Limits) -> Result<Execution, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.run(stdin, limits))).map_err(|e| {
        e.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into())
    })
}

/// The corpora under `dir`: itself if it holds subject files, else its subfolders.
pub fn corpora(dir: &std::path::Path) -> Vec<(String, PathBuf)> {
    let has_json = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .any(|e| e.path().extension().is_some_and(|x| x == "json"))
        })
        .unwrap_or(false);
    if has_json {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return vec![(name, dir.to_path_buf())];
    }
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .map(|p| {
                    (
                        p.file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                        p,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn corpus_json(r: &Report, secs: f64) -> serde_json::Value {
    serde_json::json!({
        "subjects": r.subjects,
        "executions": r.executions,
        "agree_with_gcc": {
            "count": r.agree,
            "compared": r.compared,
            "ratio": r.agreement(),
            "ratio_including_unsupported": r.agreement_including_unsupported(),
        },
        "unstable_skipped": r.unstable_skipped,
        "golden_without_recorded_verdict": {"runs": r.unrecorded, "pass": r.unrecorded_pass},
        "unsupported": r.unsupported.iter().map(|(s, w, why)| serde_json::json!({
            "subject": s, "program": w.name(), "reason": why})).collect::<Vec<_>>(),
        "timeouts": r.timeouts,
        "runtime_errors": r.runtime_errors,
        "panics": r.panics,
        "steps": r.steps,
        "seconds": secs,
        "executions_per_second": if secs > 0.0 { r.executions as f64 / secs } else { 0.0 },
        "disagreements": r.disagreements.iter().map(|d| serde_json::json!({
            "subject": d.subject, "program": d.program.name(), "test": d.test,
            "gcc_passes": d.gcc_passes, "outcome": d.outcome, "stdout": d.stdout,
            "expected": d.expected})).collect::<Vec<_>>(),
    })
}

/// Runs the subcommand.
pub fn main(a: CheckArgs) -> ExitCode {
    let limits = Limits {
        fuel: a.fuel,
        memory_bytes: a.memory_mib << 20,
        ..Limits::default()
    };
    let threads = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    // Panics are caught and counted; keep the default hook quiet while checking.
    std::panic::set_hook(Box::new(|_| {}));
    let runner: &Runner = &catching_runner;
    let mut per = vec![];
    let mut total = Report::default();
    let all_start = Instant::now();
    for (name, path) in corpora(&a.dir) {
        let (subjects, bad) = match load_dir(&path) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(1);
            }
        };
        for (f, e) in bad {
            eprintln!("{f}: {e}");
        }
        let subjects: Vec<_> = subjects
            .into_iter()
            .filter(|s| a.only.is_empty() || a.only.iter().any(|o| s.id.contains(o.as_str())))
            .collect();
        if subjects.is_empty() {
            continue;
        }
        let start = Instant::now();
        let r = check_all(&subjects, &limits, runner, threads);
        let secs = start.elapsed().as_secs_f64();
        per.push((name, r.clone(), secs));
        total.merge(r);
    }
    let secs = all_start.elapsed().as_secs_f64();
    if a.json {
        let mut obj = corpus_json(&total, secs);
        if let Some(m) = obj.as_object_mut() {
            m.insert(
                "corpora".into(),
                serde_json::Value::Object(
                    per.iter()
                        .map(|(n, r, s)| (n.clone(), corpus_json(r, *s)))
                        .collect(),
                ),
            );
        }
        println!("{}", serde_json::to_string_pretty(&obj).unwrap_or_default());
    } else {
        println!(
            "{:<14} {:>8} {:>10} {:>10} {:>9} {:>11} {:>8} {:>8} {:>6} {:>10}",
            "corpus",
            "subjects",
            "executions",
            "agree",
            "agree%",
            "unsupported",
            "timeouts",
            "rt-errors",
            "panics",
            "exec/s"
        );
        let mut rows = per
            .iter()
            .map(|(n, r, s)| (n.clone(), r, *s))
            .collect::<Vec<_>>();
        rows.push(("total".into(), &total, secs));
        for (n, r, s) in rows {
            println!(
                "{:<14} {:>8} {:>10} {:>10} {:>8.3}% {:>11} {:>8} {:>8} {:>6} {:>10.0}",
                n,
                r.subjects,
                r.executions,
                format!("{}/{}", r.agree, r.compared),
                100.0 * r.agreement(),
                r.unsupported.len(),
                r.timeouts,
                r.runtime_errors,
                r.panics,
                if s > 0.0 {
                    r.executions as f64 / s
                } else {
                    0.0
                }
            );
        }
        if !total.unsupported.is_empty() {
            println!("\nunsupported programs:");
            for (s, w, why) in &total.unsupported {
                println!("  {s} {}: {why}", w.name());
            }
        }
        if !total.disagreements.is_empty() {
            println!("\ndisagreements with gcc ({}):", total.disagreements.len());
            for d in total.disagreements.iter().take(a.show) {
                println!(
                    "  {} {} {}: gcc {}, ours {} ({}); stdout {:?}, expected {:?}",
                    d.subject,
                    d.program.name(),
                    d.test,
                    if d.gcc_passes { "pass" } else { "fail" },
                    if d.gcc_passes { "fail" } else { "pass" },
                    d.outcome,
                    d.stdout,
                    d.expected
                );
            }
        }
    }
    if total.panics > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
