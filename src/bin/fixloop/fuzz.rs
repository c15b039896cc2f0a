//! `fixloop fuzz TARGET`: runs a deterministic fuzz campaign for a count or a time budget, with a hang watchdog, and prints executions, findings and replay seeds.

use fixloop::corpus::check::load_dir;
use fixloop::fuzzing::{self, Campaign, Finding, Target, TARGETS};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Arguments of `fixloop fuzz`.
#[derive(clap::Args)]
pub struct FuzzArgs {
    /// Target: parse, interp, formula, learn, session, repair, or all (one after another).
    target: String,
    /// Campaign seed (execution i uses fuzzing::exec_seed(seed, i)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many executions (per target), or at --seconds, whichever comes first.
    #[arg(long)]
    execs: Option<u64>,
    /// Stop after this many seconds (per target). Default when neither is given: 10 seconds.
    #[arg(long)]
    seconds: Option<f64>,
    /// Replay one execution seed (printed with each finding) and show its input.
    #[arg(long)]
    replay: Option<u64>,
    /// A folder of subject JSON files (or of such folders) whose programs the parse target mutates.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Write each finding's input to DIR/<target>/<seed>.txt (for tests/fuzz_regressions).
    #[arg(long)]
    save: Option<PathBuf>,
    /// One execution running longer than this is reported as a hang (and ends the run).
    #[arg(long, default_value_t = 20.0)]
    hang_seconds: f64,
}

/// Runs the command. Exit code 0: no findings; 1: findings or a hang; 2: bad arguments.
pub fn main(a: FuzzArgs) -> ExitCode {
    let targets: Vec<&'static Target> = if a.target == "all" {
        TARGETS.iter().collect()
    } else if let Some(t) = fuzzing::target(&a.target) {
        vec![t]
    } else {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        eprintln!(
            "unknown target '{}'; targets: {}, all",
            a.target,
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    // Panics are caught and reported as findings: keep the default hook from printing each.
    std::panic::set_hook(Box::new(|_| {}));
    let corpus = a.corpus.as_deref().map(load_corpus).unwrap_or_default();
    if let Some(seed) = a.replay {
        return replay(&targets, seed, &corpus);
    }
    let mut clean = true;
    for target in targets {
        let (execs, findings, secs) = run_one(target, &a, &corpus);
        println!(
            "{:<8} seed {:<6} {:>10} execs {:>9.1} s {:>10.0} execs/s  {} findings",
            target.name,
            a.seed,
            execs,
            secs,
            execs as f64 / secs.max(1e-9),
            findings.len(),
        );
        for f in &findings {
            println!("  {f}");
            save(&a, target, f);
        }
        clean &= findings.is_empty();
    }
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Runs one target's campaign on a worker thread; the main thread keeps the clock.
fn run_one(target: &'static Target, a: &FuzzArgs, corpus: &[String]) -> (u64, Vec<Finding>, f64) {
    let done = AtomicU64::new(0);
    let current_seed = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let start = Instant::now();
    let deadline = match (a.execs, a.seconds) {
        (Some(_), None) => None,
        (_, s) => Some(Duration::from_secs_f64(s.unwrap_or(10.0))),
    };
    let limit = a.execs.unwrap_or(u64::MAX);
    std::thread::scope(|s| {
        // A large stack: debug builds' parser frames need it for nesting at the depth limit.
        let worker = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, || {
                let mut c = Campaign::new(target, a.seed, corpus, 50);
                while c.execs() < limit && !stop.load(Ordering::Relaxed) {
                    current_seed.store(c.next_seed(), Ordering::Relaxed);
                    c.step();
                    done.store(c.execs(), Ordering::Relaxed);
                }
                finished.store(true, Ordering::Relaxed);
                c.report()
            });
        let Ok(worker) = worker else {
            eprintln!("cannot start the fuzzing thread");
            return (0, Vec::new(), 0.0);
        };
        let (mut last, mut last_change, mut last_print) = (0u64, Instant::now(), Instant::now());
        while !finished.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            let n = done.load(Ordering::Relaxed);
            if n != last {
                (last, last_change) = (n, Instant::now());
            } else if last_change.elapsed().as_secs_f64() > a.hang_seconds {
                let seed = current_seed.load(Ordering::Relaxed);
                println!(
                    "{:<8} hang at exec {n} (replay seed {seed}) after {:.1} s",
                    target.name,
                    start.elapsed().as_secs_f64()
                );
                // The worker cannot be interrupted: report and leave the process.
                std::process::exit(1);
            }
            if deadline.is_some_and(|d| start.elapsed() >= d) {
                stop.store(true, Ordering::Relaxed);
            }
            if last_print.elapsed() >= Duration::from_secs(30) {
                eprintln!(
                    "  {}: {n} execs, {:.0} s",
                    target.name,
                    start.elapsed().as_secs_f64()
                );
                last_print = Instant::now();
            }
        }
        let report = worker
            .join()
            .unwrap_or_else(|_| Campaign::new(target, a.seed, corpus, 0).report());
        let mut findings = report.kept;
        if report.findings as usize > findings.len() {
            eprintln!(
                "  ({} more findings not kept)",
                report.findings as usize - findings.len()
            );
        }
        findings.truncate(50);
        (report.execs, findings, start.elapsed().as_secs_f64())
    })
}

fn replay(targets: &[&'static Target], seed: u64, corpus: &[String]) -> ExitCode {
    let mut clean = true;
    for target in targets {
        let input = fuzzing::generate(target, seed, corpus);
        println!(
            "==== {} input (seed {seed}):\n{}",
            target.name,
            String::from_utf8_lossy(&input)
        );
        match fuzzing::check(target, &input) {
            Ok(()) => println!("==== ok"),
            Err(kind) => {
                clean = false;
                println!("==== {kind}");
            }
        }
    }
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn save(a: &FuzzArgs, target: &Target, f: &Finding) {
    let Some(dir) = &a.save else { return };
    let dir = dir.join(target.name);
    let path = dir.join(format!("{}.txt", f.seed));
    let written = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, &f.input));
    match written {
        Ok(()) => println!("    saved {}", path.display()),
        Err(e) => eprintln!("    cannot save {}: {e}", path.display()),
    }
}

/// Every buggy and golden program of the subjects under `dir`.
fn load_corpus(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for (_, path) in crate::corpus_check::corpora(dir) {
        match load_dir(&path) {
            Ok((subjects, _)) => {
                for s in subjects {
                    out.push(s.buggy);
                    out.push(s.golden);
                }
            }
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
    }
    eprintln!("corpus: {} programs", out.len());
    out
}
