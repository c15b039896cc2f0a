//! Fuzz target `repair`: generated programs with tests (one marked a bug) through the repair engines; bounded, and every reported patch really passes.

use super::cgen::{program, GenConfig};
use super::{Target, Violation};
use crate::active::num::parse_input;
use crate::active::program::status_of;
use crate::active::Status;
use crate::compare::outputs_match;
use crate::lang::{compile, Limits, Num};
use crate::repair::gp::GpConfig;
use crate::repair::tests::{Expectation, RepairTest};
use crate::repair::{
    repair, repair_with_progress, Control, Engine, RepairConfig, RepairSource, StopReason,
};
use rand::rngs::StdRng;
use rand::RngExt;

pub(super) const TARGET: Target = Target {
    name: "repair",
    about: "generated programs with kept-output and bug tests through the enumeration, GP and LRA engines",
    generate,
    check,
};

/// Separates the program from its tests; each test line is `E|numbers` where `E` is the
/// engine (`e`, `g`, `l`) on the first line only, then `k` (keep the output) or `b` (bug).
const TESTS_MARK: &str = "\n//@tests\n";

/// Small budgets, so one execution stays fast; the checker holds repair to them. A
/// generated program has a handful of statements and at most four tests, so far less
/// than the product's defaults reaches every engine's stopping paths:
/// - 120 test executions: a few GenProg generations on four tests, several hole
///   classes, every LRA location; still often exhausted, so the exact-budget check runs;
/// - 600 candidates: one or two suspicious statements' worth of enumeration (with 40
///   conditions per location), so the candidate cap is also reached;
/// - 6 suspicious statements: more are rarely reached within 120 executions, and each
///   costs a hole compilation per expression before any run;
/// - GenProg 10 variants x 4 generations, at most 40 evaluations: crossover, mutation,
///   selection and the evaluation cap all still happen;
/// - 10 fuzzed validation inputs for at most 5 plausible patches (of at most 3 kept):
///   validation, minimisation, deduplication and ranking all run, on less data.
fn config(engine: Engine) -> RepairConfig {
    RepairConfig {
        engine,
        limits: Limits {
            fuel: 20_000,
            memory_bytes: 4 << 20,
            global_bytes: 4 << 20,
            call_depth: 500,
            output_bytes: 4 << 10,
            ..Limits::default()
        },
        max_test_executions: 120,
        max_candidates: 600,
        max_plausible: 3,
        max_locations: 6,
        max_conditions: 40,
        validation_inputs: 10,
        max_validated: 5,
        genetic: GpConfig {
            population: 10,
            generations: 4,
            max_evaluations: 40,
            ..GpConfig::default()
        },
        ..RepairConfig::default()
    }
}

fn generate(rng: &mut StdRng, _corpus: &[String]) -> Vec<u8> {
    let cfg = GenConfig {
        ub_free: true,
        max_stmts: 5,
        ..GenConfig::default()
    };
    let p = program(rng, &cfg);
    let engine = ['e', 'g', 'l'][rng.random_range(0..3)];
    let mut text = format!("{}{TESTS_MARK}{engine}\n", p.source);
    let n = rng.random_range(1..5);
    let bug = rng.random_range(0..n);
    for i in 0..n {
        let kind = if i == bug { 'b' } else { 'k' };
        text.push_str(&format!("{kind}|{}", p.stdin(rng, true)));
    }
    text.into_bytes()
}

fn check(input: &[u8]) -> Result<(), Violation> {
    let text = String::from_utf8_lossy(input);
    let Some((source, tests)) = text.split_once(TESTS_MARK) else {
        return Ok(());
    };
    let mut lines = tests.lines();
    let engine = match lines.next() {
        Some("g") => Engine::Genetic,
        Some("l") => Engine::Linear,
        _ => Engine::Enumerate,
    };
    let config = config(engine);
    let Ok(original) = compile(source) else {
        return Ok(());
    };
    let output = |p: &crate::lang::Program, input: &[Num]| {
        let run = p.run_test(input, &config.limits);
        (
            String::from_utf8_lossy(&run.stdout).into_owned(),
            status_of(&run.outcome),
        )
    };
    let mut cases: Vec<(RepairTest, (String, Status))> = Vec::new();
    for line in lines {
        let Some((kind, numbers)) = line.split_once('|') else {
            continue;
        };
        let Some(input) = parse_input(numbers) else {
            continue;
        };
        let before = output(&original, &input);
        let expect = if kind == "b" {
            Expectation::Bug
        } else {
            Expectation::Output(before.0.clone())
        };
        cases.push((RepairTest { input, expect }, before));
    }
    let tests: Vec<RepairTest> = cases.iter().map(|(t, _)| t.clone()).collect();
    let report = repair(source, &tests, None, &config);
    let stats = &report.stats;
    if stats.test_executions > config.max_test_executions {
        return Err(Violation::Budget(format!(
            "{} engine test executions with a budget of {}",
            stats.test_executions, config.max_test_executions
        )));
    }
    if stats.candidates > config.max_candidates as u64 {
        return Err(Violation::Budget(format!(
            "{} candidates with a budget of {}",
            stats.candidates, config.max_candidates
        )));
    }
    if report.stop == StopReason::BudgetExhausted
        && stats.test_executions != config.max_test_executions
    {
        return Err(Violation::Budget(format!(
            "stopped for the execution budget after {} of {} executions",
            stats.test_executions, config.max_test_executions
        )));
    }
    if report.patches.len() > config.max_ranked {
        return Err(Violation::Budget(format!(
            "{} patches ranked with a limit of {}",
            report.patches.len(),
            config.max_ranked
        )));
    }
    let src = RepairSource::new(source).map_err(|e| {
        Violation::Invariant(format!(
            "repair accepted a program its patch model rejects: {e}"
        ))
    })?;
    for patch in &report.patches {
        // The reported text is the patch's edits re-applied to the original.
        if src.apply(&patch.patch, &config.trusted_lines).as_ref() != Ok(&patch.patched_source) {
            return Err(Violation::Invariant(format!(
                "a reported patch's text is not its edits applied to the source:\n{}",
                patch.diff
            )));
        }
        if patch.tests_passed != tests.len()
            || patch.tests_total != tests.len()
            || !(0.0..=1.0).contains(&patch.validation)
        {
            return Err(Violation::Invariant(format!(
                "a reported patch claims {}/{} tests (of {}) and validation {}",
                patch.tests_passed,
                patch.tests_total,
                tests.len(),
                patch.validation
            )));
        }
        if patch.cost > config.budget {
            return Err(Violation::Budget(format!(
                "a patch of cost {} with a budget of {}",
                patch.cost, config.budget
            )));
        }
        let Ok(fixed) = compile(&patch.patched_source) else {
            return Err(Violation::Invariant(format!(
                "a reported patch does not compile:\n{}",
                patch.diff
            )));
        };
        for (test, (before, before_status)) in &cases {
            let (after, status) = output(&fixed, &test.input);
            // Changed as the engine means it: another ending, or another answer.
            let changed = status != *before_status || !outputs_match(&after, before);
            let passes = match &test.expect {
                Expectation::Output(o) => status == Status::Normal && outputs_match(&after, o),
                Expectation::Bug => changed,
                Expectation::NotBug => !changed,
            };
            if !passes {
                return Err(Violation::Invariant(format!(
                    "reported patch fails test {test}:\n{}",
                    patch.diff
                )));
            }
        }
    }
    check_stop_request(source, &tests, &config, input.len())
}

/// One input in four: a progress hook asks to stop after a few executions, and the
/// engine must not run another one.
fn check_stop_request(
    source: &str,
    tests: &[RepairTest],
    config: &RepairConfig,
    salt: usize,
) -> Result<(), Violation> {
    if salt % 4 != 0 {
        return Ok(());
    }
    let at = (salt / 4 % 40) as u64;
    let report = repair_with_progress(source, tests, None, config, &mut |p| {
        if p.test_executions >= at {
            Control::Stop
        } else {
            Control::Continue
        }
    });
    if report.stats.test_executions > at {
        return Err(Violation::Budget(format!(
            "{} engine test executions after a stop request at {at}",
            report.stats.test_executions
        )));
    }
    Ok(())
}
