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

#[test]
fn threshold_probes_move_one_position_to_within_one_of_a_threshold() {
    let template = [Num::Int(50), Num::Int(7), Num::Float(2.5)];
    let config = FuzzConfig {
        threshold_share: 1.0,
        ..FuzzConfig::default()
    };
    let mut f = Fuzzer::new(&template, config);
    // Position 5 is not an input position: ignored.
    f.set_thresholds(vec![(0, 990.0), (2, 0.5), (5, 3.0)]);
    let mut rng = StdRng::seed_from_u64(3);
    let mut got = HashSet::new();
    while let Ok(m) = f.next(&[&template], &mut rng) {
        got.insert(format!("{m:?}"));
    }
    let mut got: Vec<String> = got.into_iter().collect();
    got.sort();
    // Every probe: 989..=991 at position 0 or 0.49..=0.51 at position 2, the rest kept.
    assert_eq!(
        got,
        vec![
            "[Int(50), Int(7), Float(0.49)]",
            "[Int(50), Int(7), Float(0.5)]",
            "[Int(50), Int(7), Float(0.51)]",
            "[Int(989), Int(7), Float(2.5)]",
            "[Int(990), Int(7), Float(2.5)]",
            "[Int(991), Int(7), Float(2.5)]",
        ]
    );
    // Without thresholds the share has nothing to probe: ordinary mutants.
    let mut plain = Fuzzer::new(&template, f.config().clone());
    let mut rng = StdRng::seed_from_u64(3);
    let m = plain.next(&[&template], &mut rng).unwrap();
    assert_ne!(m, template.to_vec());
}

#[test]
fn a_threshold_outside_the_range_is_not_probed() {
    let template = [Num::Int(5)];
    let config = FuzzConfig {
        threshold_share: 1.0,
        ranges: vec![Some(Range {
            min: 1.0,
            max: 100.0,
        })],
        ..FuzzConfig::default()
    };
    let mut f = Fuzzer::new(&template, config);
    f.set_thresholds(vec![(0, 1000.0)]);
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..50 {
        let m = f.next(&[&template], &mut rng).unwrap();
        assert!(
            matches!(m[0], Num::Int(x) if (1..=100).contains(&x)),
            "{m:?}"
        );
    }
}
