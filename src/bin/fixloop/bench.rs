//! `fixloop bench exec DIR`: executions per second and VM steps per second over a corpus.

use fixloop::corpus::check::load_dir;
use fixloop::lang::{compile, Limits};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `fixloop bench exec`.
#[derive(clap::Args)]
pub struct ExecArgs {
    /// A folder of subject JSON files, or a folder of such folders.
    dir: PathBuf,
    /// Repeat every run this many times.
    #[arg(long, default_value_t = 3)]
    repeat: u32,
}

/// Runs the benchmark (single thread, release build recommended).
pub fn main(a: ExecArgs) -> ExitCode {
    let limits = Limits::default();
    println!(
        "{:<14} {:>9} {:>11} {:>13} {:>12} {:>14}",
        "corpus", "programs", "executions", "exec/s", "steps", "steps/s"
    );
    for (name, path) in crate::corpus_check::corpora(&a.dir) {
        let Ok((subjects, _)) = load_dir(&path) else {
            eprintln!("{}: cannot read", path.display());
            return ExitCode::from(1);
        };
        let mut programs = vec![];
        for s in &subjects {
            for src in [&s.buggy, &s.golden] {
                if let Ok(p) = compile(src) {
                    let inputs: Vec<Vec<u8>> = s
                        .all_tests()
                        .map(|t| t.input.clone().into_bytes())
                        .collect();
                    programs.push((p, inputs));
                }
            }
        }
        let start = Instant::now();
        let (mut execs, mut steps) = (0u64, 0u64);
        for _ in 0..a.repeat {
            for (p, inputs) in &programs {
                for i in inputs {
                    let e = p.run(i, &limits);
                    execs += 1;
                    steps += e.steps;
                }
            }
        }
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        println!(
            "{:<14} {:>9} {:>11} {:>13.0} {:>12} {:>14.0}",
            name,
            programs.len(),
            execs,
            execs as f64 / secs,
            steps,
            steps as f64 / secs
        );
    }
    ExitCode::SUCCESS
}
