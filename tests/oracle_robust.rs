//! Edge cases: the learner returns typed outcomes, never panics.

use fixloop::oracle::{
    learn, learn_cegis, CegisConfig, Example, Formula, LearnConfig, Learner, StopReason, Value,
};

fn ex(p: &[i64], bug: bool) -> Example {
    Example {
        point: p.iter().map(|&v| Value::Int(v)).collect(),
        bug,
    }
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("x{}", i + 1)).collect()
}

#[test]
fn zero_examples_learn_false() {
    let r = learn(&names(2), &[], &LearnConfig::default());
    assert_eq!(r.stop, StopReason::Found);
    assert_eq!(r.formula.unwrap().to_string(), "false");
}

#[test]
fn one_label_only_learns_a_constant() {
    let r = learn(
        &names(1),
        &[ex(&[1], true), ex(&[2], true)],
        &LearnConfig::default(),
    );
    assert_eq!(r.formula.unwrap().to_string(), "true");
    let r = learn(&names(1), &[ex(&[1], false)], &LearnConfig::default());
    assert_eq!(r.formula.unwrap().to_string(), "false");
}

#[test]
fn zero_variables() {
    let r = learn(&[], &[ex(&[], true)], &LearnConfig::default());
    assert_eq!(r.formula.unwrap().to_string(), "true");
    let r = learn(
        &[],
        &[ex(&[], true), ex(&[], false)],
        &LearnConfig::default(),
    );
    assert!(matches!(r.stop, StopReason::Contradiction { .. }));
    assert!(r.formula.is_none());
}

#[test]
fn contradictory_labels_are_a_typed_outcome() {
    let data = [ex(&[1, 2], true), ex(&[3, 4], false), ex(&[1, 2], false)];
    let r = learn(&names(2), &data, &LearnConfig::default());
    assert_eq!(
        r.stop,
        StopReason::Contradiction {
            point: vec![Value::Int(1), Value::Int(2)]
        }
    );
    assert!(r.to_string().contains("contradictory labels: (1, 2)"));
    // A hypothetical label against an existing one is a contradiction too.
    let mut l = Learner::with_examples(names(2), LearnConfig::default(), &data[..2]).unwrap();
    let h = l.learn_with(&[Value::Int(3), Value::Int(4)], true);
    assert!(matches!(h.stop, StopReason::Contradiction { .. }));
}

#[test]
fn duplicates_are_merged() {
    let data = [
        ex(&[1], true),
        ex(&[1], true),
        ex(&[5], false),
        ex(&[5], false),
    ];
    let r = learn(&names(1), &data, &LearnConfig::default());
    assert_eq!(r.examples, 2);
    let f = r.formula.unwrap();
    assert_eq!(f.literals(), 1);
    assert!(data.iter().all(|e| f.eval(&e.point) == e.bug), "{f}");
}

#[test]
fn wrong_arity_is_an_error_not_a_panic() {
    let r = learn(&names(2), &[ex(&[1], true)], &LearnConfig::default());
    assert!(matches!(r.stop, StopReason::Invalid(_)));
    let mut l = Learner::new(names(2), LearnConfig::default());
    assert!(l.add_example(vec![Value::Int(1)], true).is_err());
    assert!(matches!(
        l.learn_with(&[], true).stop,
        StopReason::Invalid(_)
    ));
    let hs = l.committee(&[vec![Value::Int(1)]]);
    assert!(hs
        .iter()
        .all(|h| matches!(h.report.stop, StopReason::Invalid(_))));
}

#[test]
fn huge_and_tiny_numbers_are_exact() {
    let big = Value::from_f64(1e300).unwrap();
    let tiny = Value::from_f64(1e-300).unwrap();
    let data = vec![
        Example {
            point: vec![big.clone(), Value::Int(i64::MAX)],
            bug: true,
        },
        Example {
            point: vec![tiny.clone(), Value::Int(i64::MIN)],
            bug: false,
        },
        Example {
            point: vec![Value::ZERO, Value::Int(i64::MIN + 1)],
            bug: false,
        },
        Example {
            point: vec![Value::from_f64(-1e300).unwrap(), Value::Int(i64::MAX - 1)],
            bug: true,
        },
    ];
    let r = learn(&names(2), &data, &LearnConfig::default());
    let f = r.formula.expect("a formula");
    for e in &data {
        assert_eq!(f.eval(&e.point), e.bug, "{f}");
    }
    // Tiny differences are told apart exactly.
    let data = vec![
        Example {
            point: vec![tiny.clone()],
            bug: true,
        },
        Example {
            point: vec![Value::ZERO],
            bug: false,
        },
    ];
    let f = learn(&names(1), &data, &LearnConfig::default())
        .formula
        .unwrap();
    assert!(f.eval(&[tiny]) && !f.eval(&[Value::ZERO]), "{f}");
    assert_eq!(Formula::parse(&f.to_string(), &names(1)).unwrap(), f);
}

#[test]
fn xor_needs_two_groups_and_limits_are_typed() {
    let data = [
        ex(&[0, 0], false),
        ex(&[1, 1], false),
        ex(&[0, 1], true),
        ex(&[1, 0], true),
    ];
    let r = learn(&names(2), &data, &LearnConfig::default());
    assert_eq!(r.formula.unwrap().to_string(), "(x1 != x2)");
    let cfg = LearnConfig {
        max_literals: 1,
        pair_atoms: false,
        simplex: false,
        ..LearnConfig::default()
    };
    let r = learn(&names(2), &data, &cfg);
    assert!(
        matches!(
            r.stop,
            StopReason::NoFormulaWithinLimits {
                max_literals: 1,
                ..
            }
        ),
        "{r}"
    );
    assert!(r.formula.is_none());
}

#[test]
fn simplex_finds_a_half_space_when_the_pool_cannot() {
    // bug iff 2x + 3y <= 12, no templates beyond single-variable thresholds, 1 literal.
    let mut data = Vec::new();
    for x in 0..7 {
        for y in 0..6 {
            data.push(ex(&[x, y], 2 * x + 3 * y <= 12));
        }
    }
    let cfg = LearnConfig {
        max_literals: 1,
        ..LearnConfig::default()
    };
    let r = learn(&names(2), &data, &cfg);
    assert!(r.simplex_used, "{r}");
    let f = r.formula.unwrap();
    assert!(data.iter().all(|e| f.eval(&e.point) == e.bug), "{f}");
    assert_eq!(f.atoms().next().unwrap().terms().len(), 2);
}

#[test]
fn committee_reuses_the_current_formula_when_consistent() {
    let data = [
        ex(&[1, 1], true),
        ex(&[2, 2], true),
        ex(&[1, 2], false),
        ex(&[3, 1], false),
    ];
    let mut l = Learner::with_examples(names(2), LearnConfig::default(), &data).unwrap();
    let hs = l.committee(&[vec![Value::Int(5), Value::Int(5)]]);
    assert_eq!(hs.len(), 2);
    assert!(hs[0].bug && hs[0].report.sat_calls == 0);
    assert_eq!(
        hs[0].report.formula.as_ref().unwrap().to_string(),
        "(x1 = x2)"
    );
    let f = hs[1].report.formula.as_ref().unwrap();
    assert!(!f.eval(&[Value::Int(5), Value::Int(5)]));
    assert!(f.eval(&[Value::Int(1), Value::Int(1)]));
}

#[test]
fn cegis_on_empty_and_tiny_inputs() {
    let r = learn_cegis(
        &names(1),
        &[],
        &LearnConfig::default(),
        &CegisConfig::default(),
    );
    assert!(r.consistent_with_all);
    let data = [ex(&[1], true), ex(&[1], false)];
    let r = learn_cegis(
        &names(1),
        &data,
        &LearnConfig::default(),
        &CegisConfig::default(),
    );
    assert!(!r.consistent_with_all);
    assert!(matches!(r.last.stop, StopReason::Contradiction { .. }));
}

#[test]
fn reports_display() {
    let r = learn(
        &names(1),
        &[ex(&[1], true), ex(&[4], false)],
        &LearnConfig::default(),
    );
    let s = r.to_string();
    assert!(s.starts_with("formula:   (x1 "), "{s}");
    assert!(s.contains("size:      1 literals, 1 clauses"), "{s}");
    assert!(s.contains("stop:      found a consistent formula"), "{s}");
}

#[test]
fn extreme_coefficients_do_not_overflow() {
    use fixloop::oracle::{Atom, Rel};
    let a = Atom::new(
        &[(0, i64::MIN), (1, i64::MIN)],
        Rel::Le,
        Value::Int(i64::MIN),
    );
    let p = [Value::Int(i64::MAX), Value::Int(i64::MIN)];
    let _ = a.eval(&p);
    let _ = a.negate().eval(&p);
    let f = Formula::dnf(names(2), vec![vec![a]]);
    assert_eq!(Formula::parse(&f.to_string(), &names(2)).unwrap(), f);
}

#[test]
fn more_than_64_points_use_multi_word_bitsets() {
    let data: Vec<Example> = (0..100)
        .map(|x| ex(&[x], (20..40).contains(&x) || x == 70))
        .collect();
    let r = learn(&names(1), &data, &LearnConfig::default());
    let f = r.formula.expect("a formula");
    assert!(data.iter().all(|e| f.eval(&e.point) == e.bug), "{f}");
    assert_eq!(f.literals(), 3, "{f}");
}

/// Three-variable parity: no formula of at most 6 single-variable literals exists, and
/// proving that for 6 (sizes up to 5 are settled by exhaustive search) takes the SAT
/// solver conflicts.
fn parity_data() -> Vec<Example> {
    let mut out = Vec::new();
    let mut v: i64 = 7;
    for _ in 0..24 {
        let mut p = [0i64; 3];
        for x in &mut p {
            v = (v * 1103515245 + 12345) % 2147483648;
            *x = v % 11 - 5;
        }
        let bug = p.iter().filter(|&&x| x <= 0).count() % 2 == 1;
        out.push(ex(&p, bug));
    }
    out
}

#[test]
fn a_tiny_conflict_budget_stops_the_learner_with_a_typed_reason() {
    let data = parity_data();
    // Single-variable thresholds only: parity of three signs needs 12 literals.
    let small = LearnConfig {
        max_literals: 6,
        max_clauses: 2,
        equality_atoms: false,
        remainder_atoms: false,
        pair_atoms: false,
        triple_atoms: false,
        simplex: false,
        ..LearnConfig::default()
    };
    let tiny = LearnConfig {
        max_conflicts: 1,
        ..small.clone()
    };
    let r = learn(&names(3), &data, &tiny);
    assert_eq!(
        r.stop,
        StopReason::ConflictLimit { max_conflicts: 1 },
        "{r}"
    );
    assert!(r.formula.is_none());
    assert!(r.conflicts > 1, "{r}");
    assert!(r.to_string().contains("conflict budget of 1"), "{r}");

    // A session that hit the budget rebuilds its solver and keeps answering.
    let mut l = Learner::with_examples(names(3), tiny, &data).unwrap();
    assert!(matches!(l.learn().stop, StopReason::ConflictLimit { .. }));
    l.add_example(vec![Value::Int(9), Value::Int(9), Value::Int(9)], false)
        .unwrap();
    assert!(matches!(l.learn().stop, StopReason::ConflictLimit { .. }));

    // With the default budget the same search runs to its real end.
    let r = learn(&names(3), &data, &small);
    assert!(
        matches!(
            r.stop,
            StopReason::NoFormulaWithinLimits { .. } | StopReason::PoolLimit { .. }
        ),
        "{r}"
    );
    assert!(r.conflicts > 1 && r.conflicts <= small.max_conflicts, "{r}");
}
