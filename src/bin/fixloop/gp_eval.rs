//! `fixloop eval DIR --repair --selection LIST`: the GenProg engine per operator-selection strategy over a corpus (success rate and variants evaluated until a patch, like the RL paper's Table IV).

use crate::eval_setup::{parallel_map, selected_files, thread_clock, EvalArgs};
use crate::repair::subject_tests;
use fixloop::corpus::Subject;
use fixloop::lang::{compile, Limits};
use fixloop::repair::gp::GpConfig;
use fixloop::repair::gp_program::genetic_with_progress;
use fixloop::repair::localise::{localise, Suspicious};
use fixloop::repair::select::{Credit, Reward, SelectionConfig, Strategy};
use fixloop::repair::tests::TestSuite;
use fixloop::repair::{Control, RepairConfig, RepairSource};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The selections of `--selection`: `all`, or a comma-separated list of
/// `STRATEGY[/CREDIT[/REWARD]]` (e.g. `uniform,eps-greedy/avg/raw,ucb/recency`).
fn parse_selections(text: &str) -> Result<Vec<SelectionConfig>, String> {
    if text == "all" {
        let mut out = vec![SelectionConfig::with(
            Strategy::Uniform,
            Credit::Average,
            Reward::Raw,
        )];
        for s in &Strategy::ALL[1..] {
            for c in Credit::ALL {
                for r in Reward::ALL {
                    out.push(SelectionConfig::with(*s, c, r));
                }
            }
        }
        return Ok(out);
    }
    text.split(',')
        .map(|item| {
            let mut parts = item.trim().split('/');
            let s: Strategy = parts
                .next()
                .unwrap_or("")
                .parse()
                .map_err(|e| format!("{e}"))?;
            let c: Credit = parts
                .next()
                .unwrap_or("avg")
                .parse()
                .map_err(|e| format!("{e}"))?;
            let r: Reward = parts
                .next()
                .unwrap_or("raw")
                .parse()
                .map_err(|e| format!("{e}"))?;
            Ok(SelectionConfig::with(s, c, r))
        })
        .collect()
}

/// One GP run's outcome.
#[derive(Clone, Copy, Default)]
struct RunOutcome {
    found: bool,
    evaluations: usize,
    test_executions: u64,
    /// The run reached the time bound before a patch or its variant budget.
    timed_out: bool,
}

/// One GP run, stopped at its next test execution once `clock` has moved `bound` past
/// its start.
fn bounded_run(
    (src, suite, suspicious): (&RepairSource, &TestSuite, &[Suspicious]),
    config: &RepairConfig,
    gp: &GpConfig,
    bound: Duration,
    clock: &dyn Fn() -> Duration,
) -> RunOutcome {
    let start = clock();
    let mut timed_out = false;
    let mut hook = |_: &fixloop::repair::Progress| {
        if clock().saturating_sub(start) > bound {
            timed_out = true;
            Control::Stop
        } else {
            Control::Continue
        }
    };
    let (patch, report, test_executions) =
        genetic_with_progress(src, suite, suspicious, config, gp, &mut hook);
    RunOutcome {
        found: patch.is_some(),
        evaluations: report.evaluations,
        test_executions,
        timed_out,
    }
}

/// A subject's outcomes: per selection, per run.
enum SubjectRows {
    Done(Vec<Vec<RunOutcome>>),
    Skipped(String),
}

fn evaluate(
    path: &std::path::Path,
    selections: &[SelectionConfig],
    runs: usize,
    seed: u64,
    fuel: u64,
    bound: Duration,
) -> (String, SubjectRows) {
    let skip = |id: String, why: String| (id, SubjectRows::Skipped(why));
    let id = path.display().to_string();
    let subject = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| Subject::from_json(&t).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => return skip(id, format!("unreadable: {e}")),
    };
    let id = subject.id.clone();
    let extractor = match subject.answer_extractor() {
        Ok(x) => x,
        Err(e) => return skip(id, format!("bad answer pattern: {e}")),
    };
    let program = match compile(&subject.buggy) {
        Ok(p) => p,
        Err(e) => return skip(id, format!("does not compile: {}", e.first_error())),
    };
    let src = match RepairSource::new(&subject.buggy) {
        Ok(s) => s,
        Err(e) => return skip(id, e.to_string()),
    };
    let config = RepairConfig {
        extractor: extractor.clone(),
        limits: Limits {
            fuel,
            ..Limits::default()
        },
        ..RepairConfig::default()
    };
    let suite = TestSuite::new(
        &program,
        subject_tests(&subject),
        extractor,
        None,
        &config.limits,
    );
    if suite.failing().is_empty() {
        return skip(id, "the buggy program passes every train test".into());
    }
    let (suspicious, _) = localise(&program, &suite, config.weighting);
    let rows = selections
        .iter()
        .map(|sel| {
            (0..runs)
                .map(|r| {
                    let gp = GpConfig {
                        selection: *sel,
                        seed: seed.wrapping_add(r as u64),
                        ..GpConfig::default()
                    };
                    let clock = thread_clock(Instant::now());
                    bounded_run((&src, &suite, &suspicious), &config, &gp, bound, &clock)
                })
                .collect()
        })
        .collect();
    (id, SubjectRows::Done(rows))
}

fn label(sel: &SelectionConfig) -> (String, String, String) {
    if sel.strategy == Strategy::Uniform {
        (sel.strategy.to_string(), "-".into(), "-".into())
    } else {
        (
            sel.strategy.to_string(),
            sel.credit.to_string(),
            sel.reward.to_string(),
        )
    }
}

/// Runs `fixloop eval DIR --repair --selection LIST`.
pub fn run(args: EvalArgs, selection: &str) -> ExitCode {
    let selections = match parse_selections(selection) {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => {
            eprintln!("error: --selection lists nothing");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("error: --selection: {e} (strategies: uniform, pm, ap, eps-greedy, ucb; credit: avg, recency; reward: raw, parent)");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let files = match selected_files(&args) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runs = args.runs.max(1);
    let bound = Duration::from_millis(args.repair_timeout_ms);
    let finished = AtomicUsize::new(0);
    let results = parallel_map(files.len(), threads, |i| {
        let t0 = Instant::now();
        let (id, rows) = evaluate(&files[i], &selections, runs, args.seed, args.fuel, bound);
        let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
        match &rows {
            SubjectRows::Done(r) => {
                let found: usize = r.iter().flatten().filter(|o| o.found).count();
                // Per selection (found/runs, variants of each run), so a run cut short
                // still leaves per-strategy data in the log.
                let per: Vec<String> = selections
                    .iter()
                    .zip(r)
                    .map(|(sel, outs)| {
                        let (s, c, w) = label(sel);
                        let variants: Vec<String> =
                            outs.iter().map(|o| o.evaluations.to_string()).collect();
                        format!(
                            "{s}/{c}/{w} {}/{} [{}]",
                            outs.iter().filter(|o| o.found).count(),
                            outs.len(),
                            variants.join(" ")
                        )
                    })
                    .collect();
                eprintln!(
                    "[{done}/{}] {id}: {found}/{} GP runs found a patch ({:.1} s); {}",
                    files.len(),
                    r.len() * runs,
                    t0.elapsed().as_secs_f64(),
                    per.join("; ")
                );
            }
            SubjectRows::Skipped(why) => eprintln!("[{done}/{}] {id} skipped: {why}", files.len()),
        }
        (id, rows)
    });
    let done: Vec<&Vec<Vec<RunOutcome>>> = results
        .iter()
        .filter_map(|(_, r)| match r {
            SubjectRows::Done(rows) => Some(rows),
            SubjectRows::Skipped(_) => None,
        })
        .collect();
    let mut table = Vec::new();
    for (k, sel) in selections.iter().enumerate() {
        let outcomes: Vec<RunOutcome> = done
            .iter()
            .flat_map(|rows| rows[k].iter().copied())
            .collect();
        let found: Vec<&RunOutcome> = outcomes.iter().filter(|o| o.found).collect();
        let subjects_found = done
            .iter()
            .filter(|rows| rows[k].iter().any(|o| o.found))
            .count();
        let mean = |xs: &[f64]| {
            if xs.is_empty() {
                f64::NAN
            } else {
                xs.iter().sum::<f64>() / xs.len() as f64
            }
        };
        let to_patch = mean(
            &found
                .iter()
                .map(|o| o.evaluations as f64)
                .collect::<Vec<_>>(),
        );
        let all = mean(
            &outcomes
                .iter()
                .map(|o| o.evaluations as f64)
                .collect::<Vec<_>>(),
        );
        let execs: u64 = outcomes.iter().map(|o| o.test_executions).sum();
        let timed_out = outcomes.iter().filter(|o| o.timed_out).count();
        let success = if outcomes.is_empty() {
            0.0
        } else {
            found.len() as f64 / outcomes.len() as f64
        };
        table.push((
            label(sel),
            success,
            found.len(),
            outcomes.len(),
            subjects_found,
            to_patch,
            all,
            execs,
            timed_out,
        ));
    }
    let elapsed = started.elapsed().as_secs_f64();
    if args.json {
        let rows: Vec<_> = table
            .iter()
            .map(|((s, c, r), success, found, n, subjects, to_patch, all, execs, timed_out)| {
                serde_json::json!({
                    "strategy": s, "credit": c, "reward": r,
                    "success_rate": success, "runs_found": found, "runs": n,
                    "subjects_found": subjects,
                    "variants_to_patch_mean": if to_patch.is_nan() { None } else { Some(*to_patch) },
                    "variants_mean": all, "test_executions": execs,
                    "runs_timed_out": timed_out,
                })
            })
            .collect();
        let report = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "subjects": files.len(),
            "evaluated": done.len(),
            "runs_per_subject": runs,
            "run_bound_s": bound.as_secs_f64(),
            "gp": {"population": GpConfig::default().population, "generations": GpConfig::default().generations, "max_evaluations": GpConfig::default().max_evaluations},
            "selections": rows,
            "time_s": elapsed,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
        return ExitCode::SUCCESS;
    }
    let d = GpConfig::default();
    println!(
        "{} subjects, {} evaluated; {} runs per subject and selection; GP population {}, {} generations, at most {} variants and {:.1} s CPU per run; {} thread(s), {:.1} s wall",
        files.len(),
        done.len(),
        runs,
        d.population,
        d.generations,
        d.max_evaluations,
        bound.as_secs_f64(),
        threads,
        elapsed
    );
    println!(
        "| strategy | credit | reward | success rate | runs with patch | subjects with patch | mean variants until patch | mean variants per run | test executions | runs cut at the time bound |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for ((s, c, r), success, found, n, subjects, to_patch, all, execs, timed_out) in &table {
        let to_patch = if to_patch.is_nan() {
            "-".to_string()
        } else {
            format!("{to_patch:.1}")
        };
        println!(
            "| {s} | {c} | {r} | {success:.3} | {found}/{n} | {subjects}/{} | {to_patch} | {all:.1} | {execs} | {timed_out} |",
            done.len()
        );
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_lists_parse() {
        assert_eq!(parse_selections("all").unwrap().len(), 17);
        let s = parse_selections("uniform, ucb/recency/parent,pm").unwrap();
        assert_eq!(s[1].strategy, Strategy::Ucb);
        assert_eq!(s[1].credit, Credit::RecencyWeighted);
        assert_eq!(s[1].reward, Reward::ParentRelative);
        assert_eq!(s[2].credit, Credit::Average);
        assert!(parse_selections("greedy").is_err());
    }

    #[test]
    fn a_run_stops_at_the_time_bound() {
        let max = "int max(int a, int b) {\n    if (a < b)\n        return a;\n    return b;\n}\n";
        let tests = fixloop::repair::tests::parse_tests("1 2 => 2\n5 3 => 5\n0 7 => 7\n").unwrap();
        let config = RepairConfig::default();
        let program = compile(max).unwrap();
        let src = RepairSource::new(max).unwrap();
        let suite = TestSuite::new(
            &program,
            tests,
            config.extractor.clone(),
            None,
            &config.limits,
        );
        let (suspicious, _) = localise(&program, &suite, config.weighting);
        let gp = GpConfig {
            seed: 1,
            ..GpConfig::default()
        };
        let set_up = (&src, &suite, &suspicious[..]);
        // A clock that moves 1 ms each time it is read.
        let ticks = std::cell::Cell::new(0u64);
        let clock = || {
            ticks.set(ticks.get() + 1);
            Duration::from_millis(ticks.get())
        };
        let free = bounded_run(set_up, &config, &gp, Duration::from_secs(3600), &clock);
        assert!(free.found && !free.timed_out && free.test_executions > 0);
        let cut = bounded_run(set_up, &config, &gp, Duration::from_millis(5), &clock);
        assert!(cut.timed_out && !cut.found);
        // Read once at the start and once per execution asked for: five granted.
        assert_eq!(cut.test_executions, 5);
    }
}
