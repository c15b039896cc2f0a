//! The batch evaluation pipeline on real corpus subjects (compile, failing train test, loop, metrics, replay).

mod active_support;

use active_support::NearestLearner;
use fixloop::active::eval::{aggregate, run_seed, EvalConfig, Prepared};
use fixloop::corpus::Subject;

fn subject(path: &str) -> Option<Subject> {
    let text = std::fs::read_to_string(path).ok()?;
    Subject::from_json(&text).ok()
}

#[test]
fn evaluates_a_codeflaws_subject() {
    let Some(s) = subject("../../shared/benchmarks/codeflaws/1-A-bug-18353198-18353306.json")
    else {
        eprintln!("corpus not found, skipping");
        return;
    };
    let config = EvalConfig {
        label_budgets: vec![0, 5, 10],
        ..EvalConfig::default()
    };
    let p = Prepared::new(&s, &config.limits).expect("subject prepares");
    assert!(p.failing_train_tests() >= 1);
    let seed = run_seed(1, &s.id, 0);
    let rows = p.run(&config, 0, seed, NearestLearner::default);
    assert_eq!(rows.len(), 3);
    for (r, b) in rows.iter().zip([0, 5, 10]) {
        assert_eq!(r.label_budget, b);
        assert!(r.labelled <= b);
        assert!(r.validation >= 20);
        assert!(r.validation_failing >= 1, "{r:?}");
        assert!(r.generated_failing <= r.generated);
        assert!((0.0..=1.0).contains(&r.accuracy()));
    }
    assert_eq!(rows[2].labelled, 10);
    let again = p.run(&config, 0, seed, NearestLearner::default);
    assert_eq!(rows, again, "same seed, same run");
    let agg = aggregate(&rows);
    assert_eq!(agg.len(), 3);
    assert_eq!(agg[1].rows, 1);
}

#[test]
fn real_learner_replays_labels_formulas_and_metrics() {
    let Some(s) = subject("../../shared/benchmarks/codeflaws/1-A-bug-18353198-18353306.json")
    else {
        eprintln!("corpus not found, skipping");
        return;
    };
    let config = EvalConfig {
        label_budgets: vec![2, 4],
        active: fixloop::active::ActiveConfig {
            max_generated: 30,
            ..Default::default()
        },
        ..EvalConfig::default()
    };
    let p = Prepared::new(&s, &config.limits).expect("subject prepares");
    let seed = run_seed(7, &s.id, 0);
    let a = p.run(
        &config,
        0,
        seed,
        fixloop::active::formula::FormulaOracle::new,
    );
    let b = p.run(
        &config,
        0,
        seed,
        fixloop::active::formula::FormulaOracle::new,
    );
    assert_eq!(a, b);
    assert!(!a[1].formula.is_empty());
}
