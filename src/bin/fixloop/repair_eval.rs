//! `fixloop eval --repair`: repair over a corpus with the subjects' train tests; repairability, held-out pass rate of the top patch, speed.

use crate::eval::{parallel_map, select_files, subject_files, EvalArgs};
use crate::repair::{subject_tests, timed_repair};
use fixloop::active::eval::Stat;
use fixloop::active::num::parse_input;
use fixloop::compare::outputs_match;
use fixloop::corpus::Subject;
use fixloop::lang::{compile, Limits};
use fixloop::repair::RepairConfig;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One subject's repair result.
struct Row {
    id: String,
    /// `None`: skipped (with the reason).
    skipped: Option<String>,
    repaired: bool,
    heldout_pass: f64,
    first_ms: Option<f64>,
    total_ms: f64,
    test_executions: u64,
    hole_decisions: u64,
    engine_runs: u64,
    plain_runs: u64,
    stop: String,
}

fn evaluate(path: &std::path::Path, bound: Duration, fuel: u64) -> Row {
    let mut row = Row {
        id: path.display().to_string(),
        skipped: None,
        repaired: false,
        heldout_pass: 0.0,
        first_ms: None,
        total_ms: 0.0,
        test_executions: 0,
        hole_decisions: 0,
        engine_runs: 0,
        plain_runs: 0,
        stop: String::new(),
    };
    let subject = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| Subject::from_json(&t).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            row.skipped = Some(format!("unreadable: {e}"));
            return row;
        }
    };
    row.id = subject.id.clone();
    let extractor = match subject.answer_extractor() {
        Ok(x) => x,
        Err(e) => {
            row.skipped = Some(format!("bad answer pattern: {e}"));
            return row;
        }
    };
    if let Err(e) = compile(&subject.buggy) {
        row.skipped = Some(format!("buggy does not compile: {}", e.first_error()));
        return row;
    }
    let tests = subject_tests(&subject);
    let config = RepairConfig {
        extractor: extractor.clone(),
        limits: Limits {
            fuel,
            ..Limits::default()
        },
        ..RepairConfig::default()
    };
    let (report, elapsed, first) = timed_repair(&subject.buggy, &tests, &config, bound);
    row.total_ms = elapsed.as_secs_f64() * 1e3;
    row.stop = report.stop.to_string();
    let s = &report.stats;
    row.test_executions = s.test_executions;
    row.hole_decisions = s.hole_decisions;
    row.engine_runs = s.hole_executions + s.plain_executions;
    row.plain_runs = s.plain_executions;
    if matches!(report.stop, fixloop::repair::StopReason::NothingToRepair) {
        row.skipped = Some("the buggy program passes every train test".into());
        return row;
    }
    let Some(top) = report.patches.first() else {
        return row;
    };
    row.repaired = true;
    row.first_ms = first.map(|d| d.as_secs_f64() * 1e3);
    let Ok(patched) = compile(&top.patched_source) else {
        return row;
    };
    let limits = Limits {
        fuel,
        ..Limits::default()
    };
    let mut total = 0;
    let mut passed = 0;
    for t in &subject.tests.heldout {
        let Some(input) = parse_input(&t.input) else {
            continue;
        };
        total += 1;
        let exec = patched.run_test(&input, &limits);
        let answer = extractor.answer(&String::from_utf8_lossy(&exec.stdout));
        if exec.exited() && answer.is_some_and(|a| outputs_match(&a, &t.output)) {
            passed += 1;
        }
    }
    row.heldout_pass = if total == 0 {
        1.0
    } else {
        passed as f64 / total as f64
    };
    row
}

/// Runs `fixloop eval DIR --repair`.
pub fn run(args: EvalArgs) -> ExitCode {
    if args.tests != "train" {
        eprintln!(
            "error: --tests {} is not available yet (repair from active-loop labels needs the labelled tests exported by the loop); use --tests train",
            args.tests
        );
        return ExitCode::from(2);
    }
    let started = Instant::now();
    let mut files = Vec::new();
    if let Err(e) = subject_files(&args.dir, &mut files) {
        eprintln!("error: cannot read {}: {e}", args.dir.display());
        return ExitCode::from(2);
    }
    select_files(&mut files, &args);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let bound = Duration::from_millis(args.repair_timeout_ms);
    let finished = AtomicUsize::new(0);
    let rows = parallel_map(files.len(), threads, |i| {
        let r = evaluate(&files[i], bound, args.fuel);
        let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
        eprintln!(
            "[{done}/{}] {} {} {:.0} ms{}",
            files.len(),
            r.id,
            if r.skipped.is_some() {
                "skipped"
            } else if r.repaired {
                "repaired"
            } else {
                "not repaired"
            },
            r.total_ms,
            if r.repaired {
                format!(" held-out {:.3}", r.heldout_pass)
            } else {
                String::new()
            }
        );
        r
    });
    let evaluated: Vec<&Row> = rows.iter().filter(|r| r.skipped.is_none()).collect();
    let repaired: Vec<&Row> = evaluated.iter().copied().filter(|r| r.repaired).collect();
    let heldout = Stat::of(&repaired.iter().map(|r| r.heldout_pass).collect::<Vec<_>>());
    let first = Stat::of(
        &repaired
            .iter()
            .filter_map(|r| r.first_ms)
            .collect::<Vec<_>>(),
    );
    let execs: u64 = evaluated.iter().map(|r| r.test_executions).sum();
    let engine_runs: u64 = evaluated.iter().map(|r| r.engine_runs).sum();
    let decisions: u64 = evaluated
        .iter()
        .map(|r| r.hole_decisions + r.plain_runs)
        .sum();
    let cpe = if engine_runs == 0 {
        0.0
    } else {
        decisions as f64 / engine_runs as f64
    };
    let repairability = if evaluated.is_empty() {
        0.0
    } else {
        repaired.len() as f64 / evaluated.len() as f64
    };
    let full_heldout = repaired.iter().filter(|r| r.heldout_pass >= 1.0).count();
    let elapsed = started.elapsed().as_secs_f64();
    if args.json {
        let report = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "tests": args.tests,
            "subjects": files.len(),
            "evaluated": evaluated.len(),
            "repaired": repaired.len(),
            "repairability": repairability,
            "heldout_pass_mean": heldout.mean,
            "heldout_pass_median": heldout.median,
            "heldout_all_pass": full_heldout,
            "first_patch_ms_median": first.median,
            "first_patch_ms_mean": first.mean,
            "test_executions": execs,
            "test_executions_mean": if evaluated.is_empty() { 0.0 } else { execs as f64 / evaluated.len() as f64 },
            "candidates_per_execution": cpe,
            "threads": threads,
            "time_s": elapsed,
            "skipped": rows.iter().filter_map(|r| r.skipped.as_ref().map(|w| serde_json::json!({"id": r.id, "reason": w}))).collect::<Vec<_>>(),
            "per_subject": evaluated.iter().map(|r| serde_json::json!({"id": r.id, "repaired": r.repaired, "heldout_pass": r.heldout_pass, "first_patch_ms": r.first_ms, "time_ms": r.total_ms, "test_executions": r.test_executions, "stop": r.stop})).collect::<Vec<_>>(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        println!(
            "{} subjects, {} evaluated, {} skipped; {} thread(s), {:.1} s wall",
            files.len(),
            evaluated.len(),
            files.len() - evaluated.len(),
            threads,
            elapsed
        );
        println!(
            "repairability {:.3} ({}/{}) | held-out pass of top patch: mean {:.3} median {:.3} ({} all-pass) | first patch median {:.0} ms | {} test executions | {:.1} candidates per execution",
            repairability,
            repaired.len(),
            evaluated.len(),
            heldout.mean,
            heldout.median,
            full_heldout,
            first.median,
            execs,
            cpe
        );
    }
    ExitCode::SUCCESS
}
