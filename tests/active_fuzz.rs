//! Properties of the Learn2fix fuzzer: shape, kinds, ranges, deduplication, replay.

use fixloop::active::fuzz::{FuzzConfig, FuzzStop, Fuzzer, Kind, Range};
use fixloop::active::Num;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;

fn num() -> impl Strategy<Value = Num> {
    prop_oneof![
        any::<i64>().prop_map(Num::Int),
        (-1e12f64..1e12).prop_map(Num::Float),
    ]
}

fn run(template: &[Num], config: FuzzConfig, seed: u64, n: usize) -> Vec<Vec<Num>> {
    let mut f = Fuzzer::new(template, config);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..n {
        match f.next(&[template], &mut rng) {
            Ok(i) => out.push(i),
            Err(_) => break,
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mutants_keep_length_and_kinds_and_are_new(template in prop::collection::vec(num(), 1..6), seed in any::<u64>()) {
        let kinds: Vec<Kind> = template.iter().map(Kind::of).collect();
        let out = run(&template, FuzzConfig::default(), seed, 200);
        let mut seen = HashSet::new();
        seen.insert(format!("{template:?}"));
        for m in &out {
            prop_assert_eq!(m.len(), template.len());
            prop_assert_eq!(m.iter().map(Kind::of).collect::<Vec<_>>(), kinds.clone());
            for v in m {
                if let Num::Float(f) = v { prop_assert!(f.is_finite()); }
            }
            prop_assert!(seen.insert(format!("{m:?}")), "duplicate {:?}", m);
        }
    }

    #[test]
    fn ranges_are_honoured(a in -50i64..50, b in 0.0f64..5.0, seed in any::<u64>(), share in prop_oneof![Just(0.0), Just(0.5), Just(1.0)]) {
        // A position the mutant would keep but whose seed value is out of range is drawn
        // again too.
        let template = [Num::Int(a), Num::Float(b)];
        let ranges = vec![Some(Range { min: -3.0, max: 7.0 }), Some(Range { min: 0.5, max: 2.5 })];
        let config = FuzzConfig { ranges: ranges.clone(), single_position_share: share, ..FuzzConfig::default() };
        let out = run(&template, config, seed, 50);
        prop_assert!(!out.is_empty());
        for m in &out {
            prop_assert!(ranges[0].unwrap().contains(&m[0]), "{:?}", m);
            prop_assert!(ranges[1].unwrap().contains(&m[1]), "{:?}", m);
        }
    }

    #[test]
    fn single_position_mutants_change_exactly_one_position(template in prop::collection::vec(any::<i64>().prop_map(Num::Int), 2..6), seed in any::<u64>()) {
        let only = FuzzConfig { single_position_share: 1.0, ..FuzzConfig::default() };
        for m in run(&template, only, seed, 40) {
            let changed = m.iter().zip(&template).filter(|(a, b)| a != b).count();
            prop_assert_eq!(changed, 1, "{:?} from {:?}", m, template);
        }
        // Learn2fix's fuzzer (the default) changes several positions of most mutants.
        let every = run(&template, FuzzConfig::default(), seed, 40);
        let several = every.iter().filter(|m| m.iter().zip(&template).filter(|(a, b)| a != b).count() > 1).count();
        prop_assert!(several * 2 > every.len(), "{} of {}", several, every.len());
    }

    #[test]
    fn same_seed_same_inputs(template in prop::collection::vec(num(), 1..5), seed in any::<u64>()) {
        let a = run(&template, FuzzConfig::default(), seed, 50);
        let b = run(&template, FuzzConfig::default(), seed, 50);
        prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}

#[test]
fn a_tiny_space_is_exhausted_with_a_typed_reason() {
    // One integer in 0..=2: at most 3 distinct inputs, the template is already seen.
    let template = [Num::Int(1)];
    let config = FuzzConfig {
        ranges: vec![Some(Range { min: 0.0, max: 2.0 })],
        max_attempts: 200,
        ..FuzzConfig::default()
    };
    let mut f = Fuzzer::new(&template, config);
    let mut rng = StdRng::seed_from_u64(7);
    let mut got = Vec::new();
    let stop = loop {
        match f.next(&[&template], &mut rng) {
            Ok(i) => got.push(i),
            Err(e) => break e,
        }
    };
    got.sort_by_key(|v| format!("{v:?}"));
    assert_eq!(got, vec![vec![Num::Int(0)], vec![Num::Int(2)]]);
    assert_eq!(stop, FuzzStop::Exhausted(200));
    assert_eq!(f.next(&[], &mut rng), Err(FuzzStop::NoSeed));
}

#[test]
fn different_seeds_explore_differently_and_near_the_seed() {
    let template = [Num::Int(1000), Num::Int(7)];
    let a = run(&template, FuzzConfig::default(), 1, 100);
    let b = run(&template, FuzzConfig::default(), 2, 100);
    assert_ne!(a, b);
    // Mutation stays mostly local: many mutants keep a position or move it a little.
    let close = a
        .iter()
        .filter(|m| matches!(m[0], Num::Int(x) if x.saturating_sub(1000).unsigned_abs() <= 500))
        .count();
    assert!(close > 30, "{close}");
}
