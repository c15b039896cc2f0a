//! `fixloop bench learn`: thread CPU time of the learner's benchmark workloads, per call, median and p95.

use fixloop::oracle::workloads::{self, LearnCall};
use fixloop::oracle::{triangle, LearnReport};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fixloop bench learn`.
#[derive(clap::Args)]
pub struct LearnBenchArgs {
    /// Time every call this many times; a call's figure is the median.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Only workloads whose name starts with this (e.g. `triangle`, `loop`).
    #[arg(long)]
    only: Option<String>,
    /// Also read calls from these recordings (`fixloop bench record`).
    #[arg(long)]
    calls: Vec<PathBuf>,
    /// Print one JSON object (rows, and every call's formula and time) instead of the table.
    #[arg(long)]
    json: bool,
}

/// CPU time of the calling thread in seconds (`CLOCK_THREAD_CPUTIME_ID`, nanosecond
/// resolution), so figures mean the same on a loaded machine.
#[cfg(unix)]
pub fn thread_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec the call writes into.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Without a thread clock (not unix): wall time.
#[cfg(not(unix))]
pub fn thread_cpu() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// One call's outcome: median CPU milliseconds over the repeats and the last report.
struct Timed {
    ms: f64,
    report: LearnReport,
}

fn time_call(call: &LearnCall, repeat: usize) -> Timed {
    let mut ms = Vec::with_capacity(repeat);
    let mut report = None;
    for _ in 0..repeat.max(1) {
        let mut prepared = call.prepare();
        let t0 = thread_cpu();
        let r = call.execute(prepared.as_mut());
        ms.push((thread_cpu() - t0) * 1e3);
        report = Some(r);
    }
    let report = report.unwrap_or_else(|| call.execute(None));
    Timed {
        ms: quantile(&mut ms, 0.5),
        report,
    }
}

/// The `q` quantile (nearest rank) of `v`; NaN when empty.
pub fn quantile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * q).round() as usize]
}

/// Prints `json` pretty, with a newline (write errors, such as a closed pipe, ignored).
pub fn print_json(out: &mut impl Write, json: &serde_json::Value) {
    let _ = writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(json).unwrap_or_default()
    );
}

/// Grid accuracy of a triangle formula on all 1000 points (`None` for other workloads).
fn triangle_accuracy(call: &LearnCall, report: &LearnReport) -> Option<f64> {
    if !call.workload.starts_with("triangle") {
        return None;
    }
    let f = report.formula.as_ref()?;
    let all = triangle::all_examples();
    Some(all.iter().filter(|e| f.eval(&e.point) == e.bug).count() as f64 / all.len() as f64)
}

/// Runs the benchmark on the calling thread.
pub fn main(a: LearnBenchArgs) -> ExitCode {
    let mut calls = match workloads::all() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fixloop bench learn: {e}");
            return ExitCode::from(2);
        }
    };
    for path in &a.calls {
        match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| workloads::read_recording(&t))
        {
            Ok(c) => calls.extend(c),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if let Some(p) = &a.only {
        calls.retain(|c| c.workload.starts_with(p.as_str()));
    }
    let timed: Vec<Timed> = calls.iter().map(|c| time_call(c, a.repeat)).collect();
    let mut rows = Vec::new();
    // Rows in first-seen order; recorded loop calls by subject, look-aheads apart.
    for (name, idx) in workloads::by_row(&calls) {
        let mut ms: Vec<f64> = idx.iter().map(|&i| timed[i].ms).collect();
        let found = idx
            .iter()
            .filter(|&&i| timed[i].report.consistent())
            .count();
        let consistent = idx
            .iter()
            .filter(|&&i| calls[i].consistent(&timed[i].report))
            .count();
        let mut acc: Vec<f64> = idx
            .iter()
            .filter_map(|&i| triangle_accuracy(&calls[i], &timed[i].report))
            .collect();
        let total: f64 = ms.iter().sum();
        rows.push(serde_json::json!({
            "workload": name,
            "calls": idx.len(),
            "found": found,
            "consistent": consistent,
            "cpu_ms_median": quantile(&mut ms, 0.5),
            "cpu_ms_p95": quantile(&mut ms, 0.95),
            "cpu_ms_max": quantile(&mut ms, 1.0),
            "cpu_ms_total": total,
            "grid_accuracy_median": (!acc.is_empty()).then(|| quantile(&mut acc, 0.5)),
        }));
    }
    // Write errors (a closed pipe) are ignored.
    let mut out = std::io::stdout().lock();
    if a.json {
        let per_call: Vec<serde_json::Value> = calls
            .iter()
            .zip(&timed)
            .map(|(c, t)| {
                serde_json::json!({
                    "workload": c.row(),
                    "cpu_ms": t.ms,
                    "formula": t.report.formula.as_ref().map(|f| f.to_string()),
                    "stop": t.report.stop.to_string(),
                    "conflicts": t.report.conflicts,
                })
            })
            .collect();
        let json = serde_json::json!({ "repeat": a.repeat, "rows": rows, "calls": per_call });
        print_json(&mut out, &json);
        return ExitCode::SUCCESS;
    }
    let _ = writeln!(
        out,
        "{:<52} {:>5} {:>5} {:>5} {:>9} {:>9} {:>9} {:>9}",
        "workload (thread CPU ms per call)",
        "calls",
        "found",
        "cons",
        "median",
        "p95",
        "max",
        "acc med"
    );
    for r in &rows {
        let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
        let acc = r["grid_accuracy_median"]
            .as_f64()
            .map_or("-".to_string(), |x| format!("{x:.3}"));
        let _ = writeln!(
            out,
            "{:<52} {:>5} {:>5} {:>5} {:>9.3} {:>9.3} {:>9.3} {:>9}",
            r["workload"].as_str().unwrap_or(""),
            r["calls"].as_u64().unwrap_or(0),
            r["found"].as_u64().unwrap_or(0),
            r["consistent"].as_u64().unwrap_or(0),
            f("cpu_ms_median"),
            f("cpu_ms_p95"),
            f("cpu_ms_max"),
            acc
        );
    }
    ExitCode::SUCCESS
}
