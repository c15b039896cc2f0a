//! The active loop's protocol, budgets, replay and question choice, with a fake learner and a Rust "program".

mod active_support;

use active_support::NearestLearner;
use fixloop::active::{
    ActiveConfig, ActiveLoop, AskReason, FuzzConfig, FuzzProfile, GeneratedTest, Label, Num,
    Observation, OutputEncoder, Query, Range, Report, Runner, Status, Step, StopReason,
};

fn buggy(a: i64, b: i64) -> i64 {
    if a > 10 && a < 40 {
        a.wrapping_sub(b)
    } else {
        a.wrapping_add(b)
    }
}

fn golden(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

fn ints(input: &[Num]) -> (i64, i64) {
    match (input[0], input[1]) {
        (Num::Int(a), Num::Int(b)) => (a, b),
        _ => panic!("kinds changed"),
    }
}

fn runner() -> impl FnMut(&[Num]) -> Observation {
    let mut enc = OutputEncoder::new();
    move |input: &[Num]| {
        let (a, b) = ints(input);
        let out = buggy(a, b).to_string();
        Observation {
            value: enc.encode(Status::Normal, Some(&out)),
            stdout: out.clone(),
            status: Status::Normal,
            answer: Some(out),
            undefined: None,
            outcome: None,
        }
    }
}

/// A loop from the failing input (20, 3) with the fake learner.
fn start(config: ActiveConfig, seed: u64) -> ActiveLoop<impl Runner, NearestLearner> {
    ActiveLoop::new(
        config,
        runner(),
        NearestLearner::default(),
        &[Num::Int(20), Num::Int(3)],
        None,
        seed,
    )
}

fn reference(q: &Query) -> Label {
    let (a, b) = ints(&q.input);
    let g = golden(a, b);
    Label {
        bug: g != buggy(a, b),
        expected: Some(g.to_string()),
    }
}

/// Labels (input, bug), generated failing, generated, stop reason, final oracle.
type Outcome = (Vec<(Vec<Num>, bool)>, usize, usize, StopReason, String);

/// Learn2fix's fuzzer: its wide mutants around (20, 3) fail rarely enough for the
/// committee's choice to show (the neighbourhood fuzzer's mostly fail: the bug is all
/// around the failing input).
fn classic() -> FuzzConfig {
    FuzzConfig {
        profile: FuzzProfile::Classic,
        ..FuzzConfig::default()
    }
}

fn run(seed: u64, budget: usize) -> Outcome {
    let config = ActiveConfig {
        label_budget: budget,
        max_generated: 3_000,
        fuzz: classic(),
        ..ActiveConfig::default()
    };
    let mut l = start(config, seed);
    let report = l.run(&mut |q: &Query| Some(reference(q)));
    let labels = l
        .labelled()
        .iter()
        .map(|t| (t.input.clone(), t.label.bug))
        .collect();
    let gen_fail = l
        .generated()
        .iter()
        .filter(|g| {
            let (a, b) = ints(&g.input);
            buggy(a, b) != golden(a, b)
        })
        .count();
    (
        labels,
        gen_fail,
        l.generated().len(),
        report.stop.unwrap(),
        report.formula,
    )
}

#[test]
fn label_budget_is_respected_and_replays() {
    let (labels, _, _, stop, formula) = run(11, 12);
    assert_eq!(stop, StopReason::LabelBudget);
    assert_eq!(labels.len(), 13, "initial failing test plus 12 answers");
    let again = run(11, 12);
    assert_eq!(labels, again.0);
    assert_eq!(formula, again.4);
    assert_ne!(labels, run(12, 12).0);
}

#[test]
fn asks_about_failing_tests_more_often_than_chance() {
    let (mut asked, mut asked_fail, mut gen, mut gen_fail) = (0, 0, 0, 0);
    for seed in 0..10 {
        let (labels, gf, g, _, _) = run(seed, 15);
        asked += labels.len() - 1;
        asked_fail += labels[1..].iter().filter(|l| l.1).count();
        gen += g;
        gen_fail += gf;
    }
    let p_asked = asked_fail as f64 / asked as f64;
    let p_gen = gen_fail as f64 / gen as f64;
    assert!(
        p_asked > 1.5 * p_gen,
        "asked {p_asked} vs generated {p_gen}"
    );
}

#[test]
fn step_protocol() {
    let config = ActiveConfig {
        label_budget: 2,
        max_generated: 1000,
        ..ActiveConfig::default()
    };
    let mut l = ActiveLoop::new(
        config,
        runner(),
        NearestLearner::default(),
        &[Num::Int(20), Num::Int(3)],
        Some("23".into()),
        5,
    );
    assert!(l.answer(Label::ok()).is_err(), "no question yet");
    let Step::Ask(q1) = l.next_step() else {
        panic!()
    };
    assert_eq!(
        l.next_step(),
        Step::Ask(q1.clone()),
        "same question until answered"
    );
    l.answer(Label::bug()).unwrap();
    let Step::Ask(q2) = l.next_step() else {
        panic!()
    };
    assert_ne!(q1, q2);
    l.answer(Label::ok()).unwrap();
    assert_eq!(l.next_step(), Step::Done(StopReason::LabelBudget));
    assert_eq!(l.next_step(), Step::Done(StopReason::LabelBudget));
    assert_eq!(l.labelled()[0].label.expected.as_deref(), Some("23"));
    assert!(q1.to_string().contains("is that the bug?"));
}

#[test]
fn generation_budget_stops_the_loop() {
    let config = ActiveConfig {
        label_budget: 1000,
        max_generated: 30,
        spend_leftover_labels: false,
        ..ActiveConfig::default()
    };
    let mut l = start(config, 1);
    let r = l.run(&mut |q: &Query| Some(reference(q)));
    assert_eq!(r.stop, Some(StopReason::GenerationBudget));
    assert_eq!(r.generated, 30);
    assert!(r.to_string().contains("generation budget"));
}

/// Runs a loop to the end: its report, its generated tests and every question, in order.
fn run_asking(config: ActiveConfig, seed: u64) -> (Report, Vec<GeneratedTest>, Vec<Query>) {
    let mut l = start(config, seed);
    let mut asked = Vec::new();
    while let Step::Ask(q) = l.next_step() {
        l.answer(reference(&q)).unwrap();
        asked.push(q);
    }
    (l.report(), l.generated().to_vec(), asked)
}

fn leftover_config(label_budget: usize, spend: bool) -> ActiveConfig {
    ActiveConfig {
        label_budget,
        max_generated: 30,
        spend_leftover_labels: spend,
        fuzz: classic(),
        ..ActiveConfig::default()
    }
}

#[test]
fn leftover_labels_go_to_unasked_tests_by_their_bug_votes() {
    for seed in 0..5 {
        let (paper, _, paper_asked) = run_asking(leftover_config(25, false), seed);
        assert_eq!(paper.stop, Some(StopReason::GenerationBudget));
        assert!(
            paper_asked.len() < 25,
            "seed {seed}: the generation budget ends it first"
        );
        let (report, generated, asked) = run_asking(leftover_config(25, true), seed);
        assert_eq!(report.stop, Some(StopReason::LabelBudget), "seed {seed}");
        assert_eq!(asked.len(), 25);
        assert_eq!(generated.len(), 30);
        // The loop is the paper's until generation ends.
        assert_eq!(asked[..paper_asked.len()], paper_asked[..], "seed {seed}");
        // Each generated test is asked at most once.
        let mut inputs: Vec<&Vec<Num>> = asked.iter().map(|q| &q.input).collect();
        inputs.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        inputs.dedup();
        assert_eq!(inputs.len(), asked.len(), "seed {seed}: a test asked twice");
        // Leftover questions come in order of their share of bug votes.
        let shares: Vec<f64> = asked[paper_asked.len()..]
            .iter()
            .filter_map(|q| match q.reason {
                AskReason::LeftoverBudget { bug_votes, votes } => Some(if votes == 0 {
                    0.0
                } else {
                    bug_votes as f64 / votes as f64
                }),
                AskReason::OraclePredictsBug => None,
                AskReason::Committee { .. } => panic!("seed {seed}: committee after generation"),
            })
            .collect();
        assert!(!shares.is_empty(), "seed {seed}");
        assert!(
            shares.windows(2).all(|w| w[0] >= w[1]),
            "seed {seed}: {shares:?}"
        );
    }
}

#[test]
fn leftover_labels_end_when_every_generated_test_was_asked() {
    let (report, generated, asked) = run_asking(leftover_config(1000, true), 3);
    assert_eq!(report.stop, Some(StopReason::GenerationBudget));
    assert_eq!(asked.len(), 30);
    assert!(generated.iter().all(|g| g.asked));
}

#[test]
fn leftover_labels_follow_a_stopped_fuzzer() {
    // Only (19, 3) and (21, 3) are new inputs in these ranges.
    let config = ActiveConfig {
        label_budget: 10,
        fuzz: FuzzConfig {
            ranges: vec![
                Some(Range {
                    min: 19.0,
                    max: 21.0,
                }),
                Some(Range { min: 3.0, max: 3.0 }),
            ],
            ..FuzzConfig::default()
        },
        ..ActiveConfig::default()
    };
    let (report, generated, asked) = run_asking(config, 1);
    assert!(matches!(report.stop, Some(StopReason::Fuzzer(_))));
    assert_eq!(generated.len(), 2);
    assert_eq!(asked.len(), 2, "both generated tests are asked");
}

#[test]
fn a_question_the_labeller_cannot_answer_is_skipped_without_spending_a_label() {
    let config = ActiveConfig {
        label_budget: 8,
        max_generated: 3_000,
        ..ActiveConfig::default()
    };
    let mut l = start(config, 3);
    let mut refused = 0;
    // Inputs whose first value is odd are "invalid" to this labeller.
    let report = l.run(&mut |q: &Query| {
        if ints(&q.input).0 % 2 != 0 {
            refused += 1;
            return None;
        }
        Some(reference(q))
    });
    assert!(refused > 0, "no question was refused");
    assert_eq!(report.skipped, refused);
    assert_eq!(report.labels, 8);
    assert!(l
        .labelled()
        .iter()
        .skip(1)
        .all(|t| ints(&t.input).0 % 2 == 0));
    assert!(report.to_string().contains(&format!("{refused} skipped")));
}
