//! Deterministic fuzz harnesses: one seeded generator and one checker per engine, and a campaign runner that catches panics.
//!
//! A [`Target`] is two plain functions: `generate` turns a seeded [`StdRng`] (and an
//! optional corpus of C programs) into one input as bytes, and `check` runs the engine on
//! such bytes and says whether a budget or an invariant was broken. Inputs are bytes so
//! that every finding can be saved as a file and replayed by a regression test
//! (`tests/fuzz_regressions/<target>/`). Adding a target is one module with those two
//! functions and one line in [`TARGETS`].
//!
//! A [`Campaign`] runs execution after execution; execution `i` of a campaign with seed
//! `s` draws its input from `StdRng::seed_from_u64(exec_seed(s, i))`, so a finding is
//! reproduced from that one number. Panics are caught with `catch_unwind` (natively; on
//! wasm32 a panic aborts). The core reads no clock: time budgets and hang watchdogs
//! belong to the caller (`fixloop fuzz`).

pub mod cgen;
mod formula_target;
mod interp_target;
mod learn_target;
pub mod mutate;
mod parse_target;
mod repair_target;
mod session_target;

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One fuzz target: a generator of inputs and a checker of the engine on one input.
#[derive(Clone, Copy)]
pub struct Target {
    /// The name used on the command line (`fixloop fuzz NAME`).
    pub name: &'static str,
    /// One line on what is fuzzed.
    pub about: &'static str,
    /// Draws one input; `corpus` holds extra C programs to mutate (may be empty).
    pub generate: fn(&mut StdRng, &[String]) -> Vec<u8>,
    /// Runs the engine on one input: `Err` describes a broken budget or invariant.
    pub check: fn(&[u8]) -> Result<(), Violation>,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target").field("name", &self.name).finish()
    }
}

/// Every target, in the order `fixloop fuzz all` runs them.
pub const TARGETS: &[Target] = &[
    parse_target::TARGET,
    interp_target::TARGET,
    formula_target::TARGET,
    learn_target::TARGET,
    session_target::TARGET,
    repair_target::TARGET,
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// What a checker found wrong (a panic is reported separately by the runner).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A count budget (fuel, output, SAT calls, pool, literals...) was exceeded.
    Budget(String),
    /// A result broke its contract (inconsistent formula, failed round trip...).
    Invariant(String),
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Budget(m) => write!(f, "budget exceeded: {m}"),
            Violation::Invariant(m) => write!(f, "invariant broken: {m}"),
        }
    }
}

/// The kind of a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// The engine panicked (message of the panic).
    Panic(String),
    /// The checker reported a violation.
    Violation(Violation),
    /// One execution ran longer than the caller's watchdog allowed (reported by the
    /// caller; the core has no clock).
    Hang,
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingKind::Panic(m) => write!(f, "panic: {m}"),
            FindingKind::Violation(v) => write!(f, "{v}"),
            FindingKind::Hang => write!(f, "hang (watchdog)"),
        }
    }
}

/// A failing execution, with what is needed to reproduce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Index of the execution in its campaign.
    pub exec: u64,
    /// The execution's own seed (`fixloop fuzz TARGET --replay SEED`).
    pub seed: u64,
    /// What went wrong.
    pub kind: FindingKind,
    /// The input (save it under `tests/fuzz_regressions/<target>/`).
    pub input: Vec<u8>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "exec {} (replay seed {}): {}",
            self.exec, self.seed, self.kind
        )
    }
}

/// SplitMix64 finaliser: spreads campaign seeds and execution indices over 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of execution `exec` of a campaign seeded with `campaign_seed`.
pub fn exec_seed(campaign_seed: u64, exec: u64) -> u64 {
    mix(campaign_seed ^ mix(exec))
}

/// The input a target generates from one execution seed.
pub fn generate(target: &Target, seed: u64, corpus: &[String]) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    (target.generate)(&mut rng, corpus)
}

/// Runs the checker on one input, catching panics.
pub fn check(target: &Target, input: &[u8]) -> Result<(), FindingKind> {
    match catch_unwind(AssertUnwindSafe(|| (target.check)(input))) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(v)) => Err(FindingKind::Violation(v)),
        Err(payload) => Err(FindingKind::Panic(panic_message(payload.as_ref()))),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

/// A fuzzing campaign over one target: call [`Campaign::step`] as often as the budget
/// allows (a count here, or a clock in the caller).
pub struct Campaign<'a> {
    target: &'static Target,
    seed: u64,
    corpus: &'a [String],
    execs: u64,
    findings: Vec<Finding>,
    finding_count: u64,
    max_kept: usize,
}

impl<'a> Campaign<'a> {
    /// A campaign with this seed; at most `max_kept` findings keep their input (all are counted).
    pub fn new(target: &'static Target, seed: u64, corpus: &'a [String], max_kept: usize) -> Self {
        Campaign {
            target,
            seed,
            corpus,
            execs: 0,
            findings: Vec::new(),
            finding_count: 0,
            max_kept,
        }
    }

    /// The seed of the next execution (for a caller's watchdog).
    pub fn next_seed(&self) -> u64 {
        exec_seed(self.seed, self.execs)
    }

    /// Runs one execution; returns the finding, if any.
    pub fn step(&mut self) -> Option<&Finding> {
        let seed = self.next_seed();
        let exec = self.execs;
        self.execs += 1;
        let input = generate(self.target, seed, self.corpus);
        let kind = check(self.target, &input).err()?;
        self.finding_count += 1;
        if self.findings.len() >= self.max_kept {
            return None;
        }
        self.findings.push(Finding {
            exec,
            seed,
            kind,
            input,
        });
        self.findings.last()
    }

    /// Runs `n` executions.
    pub fn run(&mut self, n: u64) -> &mut Self {
        for _ in 0..n {
            self.step();
        }
        self
    }

    /// Executions so far.
    pub fn execs(&self) -> u64 {
        self.execs
    }

    /// The summary so far.
    pub fn report(&self) -> FuzzReport {
        let count =
            |p: fn(&FindingKind) -> bool| self.findings.iter().filter(|f| p(&f.kind)).count();
        FuzzReport {
            target: self.target.name,
            seed: self.seed,
            execs: self.execs,
            findings: self.finding_count,
            panics_kept: count(|k| matches!(k, FindingKind::Panic(_))),
            violations_kept: count(|k| matches!(k, FindingKind::Violation(_))),
            kept: self.findings.clone(),
        }
    }
}

/// What a campaign did: executions and findings (each with its replay seed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzReport {
    /// Target name.
    pub target: &'static str,
    /// Campaign seed.
    pub seed: u64,
    /// Executions run.
    pub execs: u64,
    /// Findings (all, including those whose input was not kept).
    pub findings: u64,
    /// Panics among the kept findings.
    pub panics_kept: usize,
    /// Violations among the kept findings.
    pub violations_kept: usize,
    /// The first findings, with inputs.
    pub kept: Vec<Finding>,
}

impl fmt::Display for FuzzReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "target {}: seed {}, {} executions, {} findings ({} panics, {} violations among the first {})",
            self.target,
            self.seed,
            self.execs,
            self.findings,
            self.panics_kept,
            self.violations_kept,
            self.kept.len()
        )?;
        for finding in &self.kept {
            writeln!(f, "  {finding}")?;
        }
        Ok(())
    }
}
