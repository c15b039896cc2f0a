//! `fixloop run FILE.c`: compile and run one program, reporting the outcome like a compiler/shell.

use fixloop::lang::{compile, Limits, Num, Outcome, Shape};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fixloop run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The C source file.
    file: PathBuf,
    /// Input numbers (a `main` program gets them as one stdin line; a function-shaped
    /// program as its arguments). Without it, stdin is read.
    #[arg(long)]
    input: Option<String>,
    /// Step budget.
    #[arg(long, default_value_t = Limits::default().fuel)]
    fuel: u64,
    /// Print the outcome and step count to stderr even on success.
    #[arg(long)]
    verbose: bool,
}

/// Runs the subcommand.
pub fn main(a: RunArgs) -> ExitCode {
    let name = a.file.display().to_string();
    let source = match std::fs::read_to_string(&a.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::from(1);
        }
    };
    let program = match compile(&source) {
        Ok(p) => p,
        Err(e) => {
            for d in &e.diagnostics {
                eprintln!("{name}:{d}");
            }
            return ExitCode::from(2);
        }
    };
    let limits = Limits {
        fuel: a.fuel,
        ..Limits::default()
    };
    let exec = match (&a.input, program.shape()) {
        (Some(text), _) => match Num::parse_list(text) {
            Ok(nums) => program.run_test(&nums, &limits),
            Err(e) => {
                eprintln!("--input: {e}");
                return ExitCode::from(1);
            }
        },
        (None, Shape::Main | Shape::Function { .. }) => {
            let mut buf = vec![];
            if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
                eprintln!("stdin: {e}");
                return ExitCode::from(1);
            }
            program.run(&buf, &limits)
        }
    };
    let mut out = std::io::stdout();
    let _ = out.write_all(&exec.stdout);
    let _ = out.flush();
    if a.verbose {
        eprintln!("{} ({} steps)", exec.outcome, exec.steps);
    }
    // Like a sanitizer's report: the run went on, but C does not define what follows (a
    // run that undefined behaviour stopped says so in its runtime error).
    if let Some(u) = exec.undefined.filter(|_| !exec.stopped_by_undefined()) {
        eprintln!("{name}: warning: undefined behaviour: {u}");
    }
    match exec.outcome {
        Outcome::Exit(_) => ExitCode::SUCCESS,
        Outcome::Timeout => {
            eprintln!("{name}: {}", exec.outcome);
            ExitCode::from(3)
        }
        _ => {
            eprintln!("{name}: {}", exec.outcome);
            ExitCode::from(4)
        }
    }
}
