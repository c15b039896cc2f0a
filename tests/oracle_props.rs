//! Property tests with known answers: data labelled by random formulas from the atom
//! language must be learned exactly (consistent) and never with more literals.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use fixloop::oracle::{learn, Atom, Example, Form, Formula, LearnConfig, Learner, Rel, Value};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const NVARS: usize = 3;

fn names() -> Vec<String> {
    ["x", "y", "z"].iter().map(|s| s.to_string()).collect()
}

/// One atom of the template language: x <= c, x >= c, x = c, x != c, x - y <= c,
/// x = y, x + y <= c.
fn atom() -> impl Strategy<Value = Atom> {
    (0..7u8, 0..NVARS, 0..NVARS, -3i64..=3).prop_map(|(kind, x, y, c)| make_atom(kind, x, y, c))
}

/// Atom `kind` (0 to 6) over variables `x`, `y` (another one when equal) and constant `c`.
fn make_atom(kind: u8, x: usize, y: usize, c: i64) -> Atom {
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
    check_learned_with(target, data, &LearnConfig::default())
}

fn check_learned_with(
    target: &Formula,
    data: &[Example],
    config: &LearnConfig,
) -> Result<(), TestCaseError> {
    let r = learn(&names(), data, config);
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

    /// Four-literal targets go through the SAT search (the exhaustive search's budget
    /// set to nothing).
    #[test]
    fn learns_four_literal_formulas_by_sat(f in formula(2, 2), pts in points(20)) {
        prop_assume!(f.literals() == 4 && f.form() == Form::Dnf);
        let sat_only = LearnConfig { max_exhaustive_steps: 0, ..LearnConfig::default() };
        check_learned_with(&f, &label(&f, &pts), &sat_only)?;
    }
}

/// A random atom of the template language, as [`atom`] draws them.
fn seeded_atom(rng: &mut StdRng) -> Atom {
    let (x, y) = (rng.random_range(0..NVARS), rng.random_range(0..NVARS));
    let c = rng.random_range(-3i64..=3);
    make_atom(rng.random_range(0..7u8), x, y, c)
}

/// The exhaustive search for `lits` (4 or 5) literals finds a formula exactly when the SAT
/// search over the same pool does, with as few groups, consistent with every example:
/// seeded random targets of every shape of that size, until `cases` need `lits` literals.
fn exhaustive_search_agrees_with_sat(lits: usize, seed: u64, cases: usize, base: &LearnConfig) {
    let mut rng = StdRng::seed_from_u64(seed);
    let shapes: &[&[usize]] = if lits == 4 {
        &[&[4], &[1, 3], &[2, 2], &[1, 1, 2]]
    } else {
        &[
            &[5],
            &[1, 4],
            &[2, 3],
            &[1, 1, 3],
            &[1, 2, 2],
            &[1, 1, 1, 2],
        ]
    };
    let sat_only = LearnConfig {
        max_exhaustive_steps: 0,
        max_sat_pool: 600,
        ..base.clone()
    };
    let mut found = 0;
    for _ in 0..4000 {
        let shape = shapes[rng.random_range(0..shapes.len())];
        let groups: Vec<Vec<Atom>> = shape
            .iter()
            .map(|&n| (0..n).map(|_| seeded_atom(&mut rng)).collect())
            .collect();
        let f = if rng.random_range(0..2) == 0 {
            Formula::cnf(names(), groups)
        } else {
            Formula::dnf(names(), groups)
        };
        let pts: Vec<Vec<Value>> = (0..40)
            .map(|_| {
                (0..NVARS)
                    .map(|_| Value::Int(rng.random_range(-4i64..=4)))
                    .collect()
            })
            .collect();
        let data = label(&f, &pts);
        let exhaustive = learn(&names(), &data, base);
        if exhaustive.literals < lits || exhaustive.sat_calls > 0 {
            // Settled before the exhaustive search of this size (sizes 1 to 3, or 4), or
            // past its step budget by SAT.
            continue;
        }
        let sat = learn(&names(), &data, &sat_only);
        assert_eq!(exhaustive.literals, sat.literals, "{exhaustive} vs {sat}");
        if sat.literals != lits {
            continue;
        }
        found += 1;
        assert_eq!(exhaustive.clauses, sat.clauses, "{exhaustive} vs {sat}");
        let g = exhaustive.formula.expect("a formula");
        for e in &data {
            assert_eq!(g.eval(&e.point), e.bug, "{g} on {:?}", e.point);
        }
        let form_on = match g.form() {
            Form::Cnf => base.cnf,
            Form::Dnf => base.dnf,
        };
        // A formula keeps one group of the other form for groups of one literal each.
        let allowed = if form_on {
            g.clauses() <= base.max_clauses
        } else {
            g.clauses() == 1 && g.literals() <= base.max_clauses
        };
        assert!(allowed, "{g}");
        if found == cases {
            return;
        }
    }
    panic!("only {found} cases of {lits} literals");
}

#[test]
fn exhaustive_four_literal_search_agrees_with_sat() {
    exhaustive_search_agrees_with_sat(4, 4, 6, &LearnConfig::default());
}

/// The same with one form only, or at most two groups: the search keeps to them.
#[test]
fn exhaustive_four_literal_search_keeps_to_the_forms_and_groups_allowed() {
    let default = LearnConfig::default();
    for (seed, config) in [
        (
            7,
            LearnConfig {
                cnf: false,
                ..default.clone()
            },
        ),
        (
            8,
            LearnConfig {
                dnf: false,
                ..default.clone()
            },
        ),
        (
            9,
            LearnConfig {
                max_clauses: 2,
                ..default.clone()
            },
        ),
    ] {
        exhaustive_search_agrees_with_sat(4, seed, 3, &config);
    }
}

/// The same over many more cases, and for five literals (slow: the SAT side takes up to
/// seconds a case).
#[test]
#[ignore]
fn exhaustive_four_and_five_literal_search_agrees_with_sat_often() {
    let default = LearnConfig::default();
    exhaustive_search_agrees_with_sat(4, 5, 80, &default);
    exhaustive_search_agrees_with_sat(5, 6, 20, &default);
    exhaustive_search_agrees_with_sat(
        5,
        10,
        5,
        &LearnConfig {
            cnf: false,
            ..default.clone()
        },
    );
    exhaustive_search_agrees_with_sat(
        5,
        11,
        5,
        &LearnConfig {
            max_clauses: 2,
            ..default
        },
    );
}
