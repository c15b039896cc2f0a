//! Fuzz target `interp`: generated hostile C programs on random stdin must end in a typed outcome within fuel, output, memory and call-depth limits.

use super::cgen::{program, GenConfig};
use super::{Target, Violation};
use crate::lang::{compile, Limits, Outcome};
use rand::rngs::StdRng;
use rand::RngExt;

pub(super) const TARGET: Target = Target {
    name: "interp",
    about: "generated programs (overflow, division by zero, out of bounds, deep recursion, endless loops, huge arrays) on random inputs",
    generate,
    check,
};

/// Separates the program from its stdin in an input file.
const STDIN_MARK: &str = "\n//@stdin\n";

/// Small budgets, so endless programs end fast; the checker holds the VM to them.
fn limits() -> Limits {
    Limits {
        fuel: 20_000,
        memory_bytes: 8 << 20,
        global_bytes: 8 << 20,
        call_depth: 2_000,
        output_bytes: 16 << 10,
        ..Limits::default()
    }
}

fn generate(rng: &mut StdRng, _corpus: &[String]) -> Vec<u8> {
    let cfg = GenConfig {
        ub_free: rng.random_range(0..4) == 0,
        ..GenConfig::default()
    };
    let p = program(rng, &cfg);
    let stdin = p.stdin(rng, cfg.ub_free);
    format!("{}{STDIN_MARK}{stdin}", p.source).into_bytes()
}

fn check(input: &[u8]) -> Result<(), Violation> {
    let text = String::from_utf8_lossy(input);
    let (source, stdin) = text.split_once(STDIN_MARK).unwrap_or((&text, ""));
    let program = match compile(source) {
        Ok(p) => p,
        // Huge arrays and constant negative VLA sizes are rejected at compile time
        // ("size of array ... is too large / is negative"): typed diagnostics, as intended.
        Err(e) if e.to_string().contains("size of array") => return Ok(()),
        Err(e) => {
            return Err(Violation::Invariant(format!(
                "generated program rejected: {}",
                e.first_error()
            )))
        }
    };
    let limits = limits();
    let run = program.run(stdin.as_bytes(), &limits);
    if run.steps > limits.fuel {
        return Err(Violation::Budget(format!(
            "{} steps with fuel {}",
            run.steps, limits.fuel
        )));
    }
    if run.stdout.len() > limits.output_bytes {
        return Err(Violation::Budget(format!(
            "{} output bytes with limit {}",
            run.stdout.len(),
            limits.output_bytes
        )));
    }
    if let Outcome::RuntimeError { line, message } = &run.outcome {
        if *line == 0 || message.is_empty() {
            return Err(Violation::Invariant(format!(
                "runtime error without a place: {}",
                run.outcome
            )));
        }
    }
    // Replays exactly (no hidden state between runs of one compiled program); checked on
    // one input in eight (by length) to keep the rate up.
    if input.len() % 8 == 0 && program.run(stdin.as_bytes(), &limits) != run {
        return Err(Violation::Invariant("two runs differ".into()));
    }
    Ok(())
}
