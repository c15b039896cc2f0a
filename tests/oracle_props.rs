//! Property tests with known answers: data labelled by random formulas from the atom
//! language must be learned exactly (consistent) and never with more literals.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use fixloop::oracle::{learn, Atom, Example, Form, Formula, LearnConfig, Learner, Rel, Value};
use proptest::prelude::*;

const NVARS: usize = 3;

fn names() -> Vec<String> {
    ["x", "y", "z"].iter().map(|s| s.to_string()).collect()
}

/// One atom of the template language: x <= c, x >= c, x = c, x != c, x - y <= c,
/// x = y, x + y <= c.
fn atom() -> impl Strategy<Value = Atom> {
    (0..7u8, 0..NVARS, 0..NVARS, -3i64..=3).prop_map(|(kind, x, y, c)| {
        let y = if y == x { (x + 1) % NVARS } else { y };
        let c = Value::Int(c);
        match kind {
            0 => Atom::var_const(x, Rel::Le, c),
            1 => Atom::var_const(x, Rel::Ge, c),
            2 => Atom::var_const(x, Rel::Eq, c),
            3 => Atom::var_const(x, Rel::Ne, c),
            4 => Atom::new(&[(x, 1), (y, -1)], Rel::Le, c),
            5 => Atom::new(&[(x, 1), (y, -1)], Rel::Eq, Value::ZERO),
            _ => Atom::new(&[(x, 1), (y, 1)], Rel::Le, c),
        }
    })
}

/// A CNF or DNF of up to `max_groups` groups of up to `max_len` literals.
fn formula(max_groups: usize, max_len: usize) -> impl Strategy<Value = Formula> {
    (
        any::<bool>(),
        prop::collection::vec(prop::collection::vec(atom(), 1..=max_len), 1..=max_groups),
    )
        .prop_map(|(cnf, groups)| {
            if cnf {
                Formula::cnf(names(), groups)
            } else {
                Formula::dnf(names(), groups)
            }
        })
}

fn points(n: usize) -> impl Strategy<Value = Vec<Vec<Value>>> {
    prop::collection::vec(
        prop::collection::vec((-4i64..=4).prop_map(Value::Int), NVARS),
        n,
    )
}

fn label(f: &Formula, pts: &[Vec<Value>]) -> Vec<Example> {
    pts.iter()
        .map(|p| Example {
            point: p.clone(),
            bug: f.eval(p),
        })
        .collect()
}

fn check_learned(target: &Formula, data: &[Example]) -> Result<(), TestCaseError> {
    let r = learn(&names(), data, &LearnConfig::default());
    let f = r
        .formula
        .clone()
        .ok_or_else(|| TestCaseError::fail(format!("{r}")))?;
    for e in data {
        prop_assert_eq!(f.eval(&e.point), e.bug, "{} on {:?}", f, e.point);
    }
    prop_assert!(
        f.literals() <= target.literals(),
        "learned {} ({} literals) from {} ({})",
        f,
        f.literals(),
        target,
        target.literals()
    );
    let back =
        Formula::parse(&f.to_string(), &names()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(back, f);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn printing_round_trips(f in formula(3, 3)) {
        let back = Formula::parse(&f.to_string(), &names()).unwrap();
        prop_assert_eq!(&back, &f);
        prop_assert_eq!(back.to_string(), f.to_string());
    }

    #[test]
    fn parsing_garbage_never_panics(s in "[a-z0-9 ()<>=!+*/.,&|-]{0,60}", t in ".{0,40}") {
        let _ = Formula::parse(&s, &names());
        let _ = Formula::parse(&t, &names());
        let _ = Value::parse(&t);
    }

    #[test]
    fn negation_is_exact(f in formula(3, 2), pts in points(20)) {
        let g = f.negate();
        for p in &pts {
            prop_assert_ne!(f.eval(p), g.eval(p));
        }
    }

    #[test]
    fn learns_small_formulas_exactly(f in formula(2, 2), pts in points(30)) {
        prop_assume!(f.literals() <= 3);
        check_learned(&f, &label(&f, &pts))?;
    }

    #[test]
    fn hypothetical_learns_match_fresh_learns(f in formula(2, 2), pts in points(16), extra in points(3)) {
        prop_assume!(f.literals() <= 3);
        let data = label(&f, &pts);
        let mut l = Learner::with_examples(names(), LearnConfig::default(), &data).unwrap();
        let hyps = l.committee(&extra);
        prop_assert_eq!(hyps.len(), 2 * extra.len());
        for h in hyps {
            let mut d = data.clone();
            d.push(Example { point: extra[h.neighbour].clone(), bug: h.bug });
            let fresh = learn(&names(), &d, &LearnConfig::default());
            prop_assert_eq!(h.report.stop.clone(), fresh.stop.clone());
            prop_assert_eq!(h.report.literals, fresh.literals, "{} vs {:?}", h.report, fresh.formula);
            if let Some(g) = &h.report.formula {
                for e in &d {
                    prop_assert_eq!(g.eval(&e.point), e.bug);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Four-literal targets go through the SAT search.
    #[test]
    fn learns_four_literal_formulas(f in formula(2, 2), pts in points(20)) {
        prop_assume!(f.literals() == 4 && f.form() == Form::Dnf);
        check_learned(&f, &label(&f, &pts))?;
    }
}
