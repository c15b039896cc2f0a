//! Property tests with known answers for linear synthesis: random small-coefficient
//! expressions and half-space conditions, sampled without noise, must be recovered.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use fixloop::repair::budget::Stop;
use fixloop::repair::synth::{synthesize_condition, synthesize_expression, SynthConfig};
use proptest::prelude::*;

const NVARS: usize = 4;

fn names() -> Vec<String> {
    ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect()
}

/// A target `c0 + sum ci*xi` over 1 to 3 distinct variables, coefficients in +-1..=5.
fn target() -> impl Strategy<Value = (i64, Vec<(usize, i64)>)> {
    (
        -9i64..=9,
        prop::collection::btree_map(0..NVARS, (1i64..=5, any::<bool>()), 1..=3),
    )
        .prop_map(|(c0, m)| {
            let terms = m
                .into_iter()
                .map(|(v, (c, neg))| (v, if neg { -c } else { c }))
                .collect();
            (c0, terms)
        })
}

fn eval(c0: i64, terms: &[(usize, i64)], x: &[i64]) -> i64 {
    c0 + terms.iter().map(|&(v, c)| c * x[v]).sum::<i64>()
}

fn points(n: usize) -> impl Strategy<Value = Vec<Vec<i64>>> {
    prop::collection::vec(prop::collection::vec(-30i64..=30, NVARS), n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// With more examples than unknowns, the synthesised expression is the target itself
    /// (or, rarely, a no-larger one that agrees on every example and on fresh points).
    #[test]
    fn random_linear_targets_are_recovered(
        (c0, terms) in target(),
        train in points(10),
        fresh in points(20),
    ) {
        let ex: Vec<(Vec<i64>, i64)> =
            train.iter().map(|x| (x.clone(), eval(c0, &terms, x))).collect();
        let r = synthesize_expression(&ex, NVARS, &SynthConfig::default());
        prop_assert_eq!(&r.stop, &Stop::Found, "{}", r);
        let e = r.expr.unwrap();
        prop_assert!(e.terms.len() <= terms.len(), "{:?} has more variables than {:?}", e, terms);
        for (x, y) in &ex {
            prop_assert_eq!(e.eval(x), Some(*y));
        }
        for x in &fresh {
            prop_assert_eq!(e.eval(x), Some(eval(c0, &terms, x)), "{:?} vs target {} {:?}", e, c0, terms);
        }
    }

    /// Data labelled by a random half-space over two variables gets a consistent
    /// condition whose C text is non-empty.
    #[test]
    fn random_half_space_conditions_are_consistent(
        a in -3i64..=3, b in -3i64..=3, k in -10i64..=10,
        train in points(25),
    ) {
        let holds = |x: &[i64]| a * x[0] + b * x[1] <= k;
        let ex: Vec<(Vec<i64>, bool)> = train.iter().map(|x| (x.clone(), holds(x))).collect();
        let r = synthesize_condition(&names(), &ex, &SynthConfig::default());
        prop_assert_eq!(&r.stop, &Stop::Found, "{}", r);
        let c = r.condition.unwrap();
        prop_assert!(!c.to_c().is_empty());
        for (x, h) in &ex {
            prop_assert_eq!(c.eval(x), *h, "{} at {:?}", c.to_c(), x);
        }
    }
}
