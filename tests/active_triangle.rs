//! The Learn2fix triangle example end to end: C program, fuzzer with ranges, committee, golden labeller, real learner.

mod common;

use common::{triangle_reference, TRIANGLE_FUNCTION};
use fixloop::active::formula::FormulaOracle;
use fixloop::active::program::ProgramRunner;
use fixloop::active::reference::ReferenceLabeller;
use fixloop::active::{ActiveConfig, ActiveLoop, FuzzConfig, Num, Range, Runner, StopReason};
use fixloop::corpus::AnswerExtractor;
use fixloop::lang::{compile, Limits};

fn runner(src: &str) -> ProgramRunner {
    let p = compile(src).expect("triangle compiles");
    ProgramRunner::new(p, Limits::default(), AnswerExtractor::WholeOutput)
}

fn config(labels: usize, max_generated: usize) -> ActiveConfig {
    let r = Some(Range {
        min: 1.0,
        max: 10.0,
    });
    ActiveConfig {
        label_budget: labels,
        max_generated,
        fuzz: FuzzConfig {
            ranges: vec![r, r, r],
            ..FuzzConfig::default()
        },
        ..ActiveConfig::default()
    }
}

struct Outcome {
    labels: Vec<(Vec<Num>, bool)>,
    formula: String,
    asked_failing: usize,
    asked: usize,
    generated_failing: usize,
    generated: usize,
    accuracy: f64,
}

fn session(seed: u64, labels: usize, max_generated: usize) -> Outcome {
    let start = [Num::Int(2), Num::Int(2), Num::Int(1)];
    let mut golden = ReferenceLabeller::new(runner(&triangle_reference(TRIANGLE_FUNCTION)));
    let mut l = ActiveLoop::new(
        config(labels, max_generated),
        runner(TRIANGLE_FUNCTION),
        FormulaOracle::new(),
        &start,
        None,
        seed,
    );
    let report = l.run(&mut golden);
    assert!(
        matches!(
            report.stop,
            Some(StopReason::LabelBudget | StopReason::GenerationBudget)
        ),
        "{report}"
    );
    assert!(report.generated <= max_generated && report.labels <= labels);
    let asked: Vec<_> = l.labelled().iter().filter(|t| t.asked).collect();
    let generated_failing = l
        .generated()
        .iter()
        .filter(|g| golden.judge(&g.input, &g.observation).bug)
        .count();
    // Accuracy on the whole 10x10x10 cube.
    let mut buggy = runner(TRIANGLE_FUNCTION);
    let mut correct = 0;
    for a in 1..=10 {
        for b in 1..=10 {
            for c in 1..=10 {
                let input = [Num::Int(a), Num::Int(b), Num::Int(c)];
                let obs = buggy.run(&input);
                if l.predicts_bug(&input, &obs) == golden.judge(&input, &obs).bug {
                    correct += 1;
                }
            }
        }
    }
    Outcome {
        labels: l
            .labelled()
            .iter()
            .map(|t| (t.input.clone(), t.label.bug))
            .collect(),
        formula: report.formula,
        asked_failing: asked.iter().filter(|t| t.label.bug).count(),
        asked: asked.len(),
        generated_failing,
        generated: l.generated().len(),
        accuracy: correct as f64 / 1000.0,
    }
}

#[test]
fn replays_exactly() {
    let a = session(3, 6, 40);
    let b = session(3, 6, 40);
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.formula, b.formula);
    assert_eq!(a.accuracy, b.accuracy);
}

#[test]
fn asks_failing_tests_more_often_than_they_are_generated() {
    let (mut af, mut a, mut gf, mut g) = (0, 0, 0, 0);
    for seed in 0..2 {
        let o = session(seed, 10, 40);
        af += o.asked_failing;
        a += o.asked;
        gf += o.generated_failing;
        g += o.generated;
    }
    let p_asked = af as f64 / a as f64;
    let p_gen = gf as f64 / g as f64;
    // More often than chance (the 2x bar is measured on the corpus by `fixloop eval`).
    assert!(
        p_asked > p_gen,
        "P(asked failing) {p_asked} vs P(generated failing) {p_gen}"
    );
}

/// The full-size version (release: `cargo test --release -- --ignored`).
#[test]
#[ignore]
fn learns_the_triangle_bug_with_20_labels() {
    let mut accuracies = Vec::new();
    for seed in 0..5 {
        let o = session(seed, 20, 400);
        accuracies.push(o.accuracy);
    }
    accuracies.sort_by(f64::total_cmp);
    assert!(accuracies[2] >= 0.9, "accuracies {accuracies:?}");
}
