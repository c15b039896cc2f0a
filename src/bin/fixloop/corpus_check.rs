//! `fixloop corpus check DIR`: our verdicts vs gcc's on every subject, as a table or JSON.

use fixloop::corpus::check::{check_all, load_dir, Report, Runner};
use fixloop::corpus::gcc_record::GccRecord;
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
    /// Records of gcc's runs (`fixloop corpus record-gcc`) to compare exact outputs with,
    /// besides the records built into this binary (data/gcc-outputs/); later files win.
    #[arg(long)]
    gcc_outputs: Vec<PathBuf>,
}

/// The records of gcc's runs on the two corpora, made by `corpus record-gcc` and built
/// into the binary, so that exact outputs are checked on machines without gcc.
const BUILT_IN_RECORDS: &[(&str, &[u8])] = &[
    (
        "built-in data/gcc-outputs/codeflaws.gcc.jsonl.zz",
        include_bytes!("../../../data/gcc-outputs/codeflaws.gcc.jsonl.zz"),
    ),
    (
        "built-in data/gcc-outputs/introclass.gcc.jsonl.zz",
        include_bytes!("../../../data/gcc-outputs/introclass.gcc.jsonl.zz"),
    ),
];

/// The built-in records extended by `files`, or the error message.
fn gcc_records(files: &[PathBuf]) -> Result<GccRecord, String> {
    let mut all: Option<GccRecord> = None;
    let named = BUILT_IN_RECORDS
        .iter()
        .map(|(name, bytes)| (name.to_string(), Ok(bytes.to_vec())))
        .chain(
            files
                .iter()
                .map(|f| (f.display().to_string(), std::fs::read(f))),
        );
    for (name, bytes) in named {
        let bytes = bytes.map_err(|e| format!("{name}: {e}"))?;
        let r = GccRecord::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))?;
        match &mut all {
            Some(a) => a.extend(r),
            None => all = Some(r),
        }
    }
    all.ok_or_else(|| "no record of gcc's runs".to_string())
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
    let o = &r.stdout;
    serde_json::json!({
        "subjects": r.subjects,
        "executions": r.executions,
        "agree_with_gcc": {
            "count": r.agree,
            "compared": r.compared,
            "ratio": r.agreement(),
            "ratio_including_unsupported": r.agreement_including_unsupported(),
            "undefined_behaviour": {"compared": r.undefined_compared, "agree": r.undefined_agree},
            "stopped_by_undefined_behaviour": r.undefined_stops,
        },
        "stdout_agree": {
            "count": o.agree,
            "compared": o.compared,
            "ratio": o.agreement(),
            "undefined_behaviour": {"compared": o.undefined_compared, "agree": o.undefined_agree},
            "i64_format": {"compared": o.i64_format_compared, "agree": o.i64_format_agree,
                "agree_but_padding": o.i64_format_agree_but_padding},
            "unstable": o.unstable,
            "not_recorded": o.not_recorded,
            "gcc_verdict_differs": o.gcc_verdict_differs,
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
        "stdout_disagreements": o.disagreements.iter().map(|d| serde_json::json!({
            "subject": d.subject, "program": d.program.name(), "test": d.test,
            "gcc": d.gcc, "ours": d.ours, "undefined": d.undefined})).collect::<Vec<_>>(),
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
    let record = match gcc_records(&a.gcc_outputs) {
        Ok(r) => Some(r),
        Err(e) => {
            eprintln!("exact outputs not checked: {e}");
            None
        }
    };
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
        let r = check_all(&subjects, &limits, runner, record.as_ref(), threads);
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
            "{:<14} {:>8} {:>10} {:>10} {:>9} {:>13} {:>9} {:>7} {:>11} {:>8} {:>8} {:>6} {:>10}",
            "corpus",
            "subjects",
            "executions",
            "agree",
            "agree%",
            "stdout agree",
            "stdout%",
            "UB",
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
                "{:<14} {:>8} {:>10} {:>10} {:>8.3}% {:>13} {:>8.3}% {:>7} {:>11} {:>8} {:>8} {:>6} {:>10.0}",
                n,
                r.subjects,
                r.executions,
                format!("{}/{}", r.agree, r.compared),
                100.0 * r.agreement(),
                format!("{}/{}", r.stdout.agree, r.stdout.compared),
                100.0 * r.stdout.agreement(),
                r.stdout.undefined_compared,
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
        let o = &total.stdout;
        println!(
            "\nverdicts not compared: {} runs stopped by undefined behaviour (a read of an uninitialised variable)",
            total.undefined_stops
        );
        println!(
            "\nexact outputs: {} of {} runs as gcc printed; apart: through undefined behaviour {} of {}, with %I64d {} of {} ({} but for padding); not compared: {} unstable, {} not recorded, {} whose gcc verdict differs from the corpus's",
            o.agree,
            o.compared,
            o.undefined_agree,
            o.undefined_compared,
            o.i64_format_agree,
            o.i64_format_compared,
            o.i64_format_agree_but_padding,
            o.unstable,
            o.not_recorded,
            o.gcc_verdict_differs
        );
        if !o.disagreements.is_empty() {
            println!("\noutputs other than gcc's ({}):", o.disagreements.len());
            for d in o.disagreements.iter().take(a.show) {
                println!(
                    "  {} {} {}: gcc {}, ours {}{}",
                    d.subject,
                    d.program.name(),
                    d.test,
                    d.gcc,
                    d.ours,
                    d.undefined
                        .as_ref()
                        .map(|u| format!(" (undefined: {u})"))
                        .unwrap_or_default()
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
