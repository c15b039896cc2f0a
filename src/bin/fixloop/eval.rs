//! `fixloop eval`: Learn2fix's oracle evaluation over a corpus, the golden program as labeller, with the paper's metrics.

use crate::eval_setup::{
    active_config, selected_files, thread_count, thread_cpu_seconds, EvalArgs, Timing,
};
use crate::pipeline::{lock, prepare_then_run};
use crate::shard::{self};
use fixloop::active::eval::{
    aggregate, run_seed, EvalConfig, InputRanges, Prepared, RunMetrics, SkipReason,
};
use fixloop::active::formula::FormulaOracle;
use fixloop::active::FuzzFuel;
use fixloop::corpus::Subject;
use fixloop::lang::Limits;
use fixloop::oracle::LearnConfig;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The paper's Learn2fix medians on 552 Codeflaws subjects: (l, accuracy, conditional accuracy).
const PAPER: [(usize, f64, f64); 3] = [(10, 0.750, 0.776), (20, 0.833, 0.791), (30, 0.861, 0.800)];

/// A subject after preparation: ready to run, or why it is left out.
enum Loaded {
    Ready {
        prepared: Box<Prepared>,
        cpu_seconds: f64,
    },
    Skipped(String, SkipReason),
    Unreadable(String, String),
}

/// The result of `f` and the CPU seconds the calling thread spent in it (NaN where the
/// platform cannot tell).
fn with_cpu<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let before = thread_cpu_seconds();
    let out = f();
    let cpu = match (before, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    (out, cpu)
}

/// Reads and prepares one subject (its programs compiled, its tests run once).
fn load(path: &Path, config: &EvalConfig) -> Loaded {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return Loaded::Unreadable(name, e.to_string()),
    };
    let subject = match Subject::from_json(&text) {
        Ok(s) => s,
        Err(e) => return Loaded::Unreadable(name, e.to_string()),
    };
    match with_cpu(|| Prepared::new(&subject, config)) {
        (Ok(prepared), cpu_seconds) => Loaded::Ready {
            prepared: Box::new(prepared),
            cpu_seconds,
        },
        (Err(e), _) => Loaded::Skipped(subject.id, e),
    }
}

/// A prepared subject while its runs are under way, with the CPU seconds spent on it
/// so far (preparation plus finished runs).
struct Evaluating {
    prepared: Box<Prepared>,
    cpu_seconds: Mutex<f64>,
}

/// What one subject gave: its rows (every run, in run order) and CPU seconds spent on
/// it (preparation plus runs; `None` where the platform cannot tell), or why it was
/// left out. A shard's partial report carries these.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum SubjectResult {
    /// Evaluated.
    Done {
        /// Every run's rows, in run order.
        rows: Vec<RunMetrics>,
        /// CPU seconds spent on the subject.
        cpu_seconds: Option<f64>,
    },
    /// Left out: (subject id, why).
    Skipped(String, String),
    /// Not a subject file: (path, why).
    Unreadable(String, String),
}

/// Prepares every subject and runs its `runs` loops on `threads` threads
/// ([`prepare_then_run`]: costliest subjects first, by [`Prepared::slowest_train_steps`],
/// so that a heavy subject does not start last and run alone at the end); results in
/// file order.
fn evaluate_all(
    files: &[PathBuf],
    config: &EvalConfig,
    learn: &LearnConfig,
    prefer_inputs: bool,
    runs: usize,
    seed: u64,
    threads: usize,
) -> Vec<SubjectResult> {
    let left_out: Vec<Mutex<Option<SubjectResult>>> =
        files.iter().map(|_| Mutex::new(None)).collect();
    let cpu_of: Vec<Mutex<f64>> = files.iter().map(|_| Mutex::new(f64::NAN)).collect();
    let finished = AtomicUsize::new(0);
    let rows = prepare_then_run(
        files.len(),
        runs,
        threads,
        |i| match load(&files[i], config) {
            Loaded::Ready {
                prepared,
                cpu_seconds,
            } => {
                let cost = prepared.slowest_train_steps();
                let cpu_seconds = Mutex::new(cpu_seconds);
                Some((
                    Evaluating {
                        prepared,
                        cpu_seconds,
                    },
                    cost,
                ))
            }
            Loaded::Skipped(id, why) => {
                eprintln!("skipped {id}: {why}");
                *lock(&left_out[i]) = Some(SubjectResult::Skipped(id, why.to_string()));
                None
            }
            Loaded::Unreadable(p, why) => {
                eprintln!("unreadable {p}: {why}");
                *lock(&left_out[i]) = Some(SubjectResult::Unreadable(p, why));
                None
            }
        },
        |_, run, subject: &Evaluating| {
            let prepared = &subject.prepared;
            let s = run_seed(seed, prepared.id(), run);
            let (rows, cpu) = with_cpu(|| {
                prepared.run(config, run, s, || {
                    FormulaOracle::with_config(learn.clone())
                        .with_input_names(prepared.input_names())
                        .preferring_inputs(prefer_inputs)
                })
            });
            *lock(&subject.cpu_seconds) += cpu;
            rows
        },
        |i, subject| {
            let total = *lock(&subject.cpu_seconds);
            *lock(&cpu_of[i]) = total;
            let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
            eprintln!("[{done}] {} cpu {total:.1} s", files[i].display());
        },
    );
    rows.into_iter()
        .zip(left_out)
        .zip(cpu_of)
        .map(|((by_run, left_out), cpu)| {
            left_out
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .unwrap_or_else(|| SubjectResult::Done {
                    rows: by_run.into_iter().flatten().collect(),
                    cpu_seconds: Some(cpu.into_inner().unwrap_or_else(PoisonError::into_inner))
                        .filter(|c| !c.is_nan()),
                })
        })
        .collect()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes the rows with their subject's CPU seconds (a `subject_cpu_s` column before
/// `stop`; left out when `timing` is off).
fn write_csv(path: &Path, rows: &[(RunMetrics, Option<f64>)], timing: bool) -> std::io::Result<()> {
    let mut out = String::from(
        "subject,run,seed,label_budget,initial_test,labelled,labelled_failing,skipped,generated,generated_failing,validation,validation_failing,correct,correct_failing,accuracy,conditional_accuracy,p_labelled_failing,p_generated_failing,look_ahead_learns,learn_failures,conflicts,",
    );
    out.push_str(if timing {
        "subject_cpu_s,stop,formula\n"
    } else {
        "stop,formula\n"
    });
    for (r, t) in rows {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{},{},{},",
            csv_field(&r.subject),
            r.run,
            r.seed,
            r.label_budget,
            csv_field(&r.initial_test),
            r.labelled,
            r.labelled_failing,
            r.skipped,
            r.generated,
            r.generated_failing,
            r.validation,
            r.validation_failing,
            r.correct,
            r.correct_failing,
            r.accuracy(),
            r.conditional_accuracy(),
            r.p_labelled_failing(),
            r.p_generated_failing(),
            r.look_ahead_learns,
            r.learn_failures,
            r.conflicts,
        ));
        if timing {
            out.push_str(&format!("{:.3},", t.unwrap_or(f64::NAN)));
        }
        out.push_str(&format!(
            "{},{}\n",
            csv_field(&r.stop),
            csv_field(&r.formula)
        ));
    }
    std::fs::write(path, out)
}

/// The evaluation's settings from the command line.
fn eval_config(args: &EvalArgs) -> EvalConfig {
    EvalConfig {
        active: active_config(args),
        label_budgets: args.labels.clone(),
        limits: Limits {
            fuel: args.fuel,
            ..Limits::default()
        },
        fuzz_fuel: FuzzFuel {
            multiple: args.fuzz_fuel_multiple,
            floor: args.fuzz_fuel_floor,
            cap: args.fuel,
        },
        label_undefined: args.label_undefined,
        input_ranges: if args.ranges_from_failing {
            InputRanges::NonNegativeWhereFailingTestIs
        } else if args.ranges_from_train {
            InputRanges::NonNegativeWhereTrainIs
        } else {
            InputRanges::Unbounded
        },
    }
}

/// Runs `fixloop eval`, or with `--shard` one slice of it.
pub fn run(args: EvalArgs) -> ExitCode {
    let started = Instant::now();
    let files = match selected_files(&args) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let config = eval_config(&args);
    let learn = LearnConfig {
        max_literals: args.max_literals,
        max_clauses: args.max_clauses,
        max_sat_calls: args.max_sat_calls,
        ..LearnConfig::default()
    };
    let threads = thread_count(&args);
    let prefer_inputs = args.asking.person();
    let evaluate = |files: &[PathBuf]| {
        evaluate_all(
            files,
            &config,
            &learn,
            prefer_inputs,
            args.runs,
            args.seed,
            threads,
        )
    };
    let Some(spec) = args.shard else {
        let results = evaluate(&files);
        let timing = Timing {
            threads,
            wall_s: started.elapsed().as_secs_f64(),
        };
        return report(&args, files.len(), &results, Some(timing));
    };
    let plan = shard::plan("oracle", &args, &files, spec, &config.limits, threads);
    let own_files: Vec<PathBuf> = plan.own.iter().map(|&i| files[i].clone()).collect();
    let results = evaluate(&own_files);
    if let Some(path) = &args.csv {
        if let Err(e) = write_csv(path, &rows_of(&results), !args.no_timing) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    plan.print(results, threads, started);
    ExitCode::SUCCESS
}

/// Every run's rows with their subject's CPU seconds, in file order.
fn rows_of(results: &[SubjectResult]) -> Vec<(RunMetrics, Option<f64>)> {
    results
        .iter()
        .flat_map(|r| match r {
            SubjectResult::Done { rows, cpu_seconds } => {
                rows.iter().map(|m| (m.clone(), *cpu_seconds)).collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

/// Prints the report of an evaluation of `files` subjects (one run's, or the merged
/// parts') and writes `--csv`; `timing` is shown unless `--no-timing`.
pub fn report(
    args: &EvalArgs,
    files: usize,
    results: &[SubjectResult],
    timing: Option<Timing>,
) -> ExitCode {
    let timing = timing.filter(|_| !args.no_timing);
    let rows = rows_of(results);
    let cpu_total: f64 = results
        .iter()
        .filter_map(|r| match r {
            SubjectResult::Done { cpu_seconds, .. } => *cpu_seconds,
            _ => None,
        })
        .sum();
    let mut skipped = Vec::new();
    let mut unreadable = Vec::new();
    for r in results {
        match r {
            SubjectResult::Done { .. } => {}
            SubjectResult::Skipped(id, why) => skipped.push((id.clone(), why.clone())),
            SubjectResult::Unreadable(p, why) => unreadable.push((p.clone(), why.clone())),
        }
    }
    let metrics: Vec<RunMetrics> = rows.iter().map(|(m, _)| m.clone()).collect();
    let aggregates = aggregate(&metrics);
    let evaluated = files - skipped.len() - unreadable.len();
    if let Some(path) = &args.csv {
        if let Err(e) = write_csv(path, &rows, timing.is_some()) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    let paper = |l: usize| PAPER.iter().find(|p| p.0 == l).map(|p| (p.1, p.2));
    if args.json {
        let budgets: Vec<serde_json::Value> = aggregates
            .iter()
            .map(|a| {
                serde_json::json!({
                    "label_budget": a.label_budget,
                    "subjects": a.subjects,
                    "rows": a.rows,
                    "accuracy_mean": a.accuracy.mean,
                    "accuracy_median": a.accuracy.median,
                    "conditional_accuracy_mean": a.conditional_accuracy.mean,
                    "conditional_accuracy_median": a.conditional_accuracy.median,
                    "labelled_mean": a.labelled.mean,
                    "generated_mean": a.generated.mean,
                    "generated_median": a.generated.median,
                    "p_labelled_failing": a.p_labelled_failing,
                    "p_generated_failing": a.p_generated_failing,
                    "effort_ratio": a.effort_ratio(),
                    "paper_accuracy_median": paper(a.label_budget).map(|p| p.0),
                    "paper_conditional_accuracy_median": paper(a.label_budget).map(|p| p.1),
                })
            })
            .collect();
        let mut report = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "subjects": files,
            "evaluated": evaluated,
            "runs": args.runs,
            "seed": args.seed,
            "committee": args.committee,
            "max_generated": args.max_generated,
            "max_look_ahead_learns": args.max_look_ahead_learns,
            "max_run_conflicts": args.max_run_conflicts,
            "leftover_labels": !args.no_leftover_labels,
            "label_undefined": args.label_undefined,
            "single_position_share": args.single_position_share,
            "fuzzer": format!("{:?}", args.fuzzer).to_lowercase(),
            "ranges_from_train": args.ranges_from_train,
            "ranges_from_failing": args.ranges_from_failing,
            "skipped": skipped.iter().map(|(id, why)| serde_json::json!({"id": id, "reason": why})).collect::<Vec<_>>(),
            "unreadable": unreadable.iter().map(|(p, why)| serde_json::json!({"path": p, "reason": why})).collect::<Vec<_>>(),
            "budgets": budgets,
        });
        if let (Some(t), Some(m)) = (timing, report.as_object_mut()) {
            m.insert("threads".into(), t.threads.into());
            m.insert("time_s".into(), t.wall_s.into());
            m.insert("cpu_s".into(), cpu_total.into());
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        println!(
            "{} subjects, {} evaluated, {} skipped, {} unreadable; {} run(s), seed {}, S={}, generation budget {}{}",
            files,
            evaluated,
            skipped.len(),
            unreadable.len(),
            args.runs,
            args.seed,
            args.committee,
            args.max_generated,
            timing.map_or(String::new(), |t| format!(
                ", {} thread(s), {:.1} s wall, {:.1} s cpu",
                t.threads, t.wall_s, cpu_total
            ))
        );
        println!(
            "{:>4} {:>8} | {:>8} {:>8} {:>8} | {:>8} {:>8} {:>8} | {:>8} {:>9} | {:>8} {:>8} {:>6}",
            "l",
            "subjects",
            "acc med",
            "acc mean",
            "paper",
            "cond med",
            "cond mean",
            "paper",
            "labelled",
            "generated",
            "P(lab f)",
            "P(gen f)",
            "ratio"
        );
        for a in &aggregates {
            let p = paper(a.label_budget);
            let show = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.3}"));
            println!(
                "{:>4} {:>8} | {:>8.3} {:>8.3} {:>8} | {:>8.3} {:>8.3} {:>8} | {:>8.1} {:>9.1} | {:>8.3} {:>8.3} {:>6.2}",
                a.label_budget,
                a.subjects,
                a.accuracy.median,
                a.accuracy.mean,
                show(p.map(|p| p.0)),
                a.conditional_accuracy.median,
                a.conditional_accuracy.mean,
                show(p.map(|p| p.1)),
                a.labelled.mean,
                a.generated.mean,
                a.p_labelled_failing,
                a.p_generated_failing,
                a.effort_ratio()
            );
        }
        for (id, why) in &skipped {
            println!("skipped {id}: {why}");
        }
        for (p, why) in &unreadable {
            println!("unreadable {p}: {why}");
        }
    }
    ExitCode::SUCCESS
}
