//! Properties of the fuzzer (the neighbourhood default and Learn2fix's classic profile): shape, kinds, ranges, deduplication, replay, where mutants land.

use fixloop::active::fuzz::{
    shape_of, FuzzConfig, FuzzProfile, FuzzStop, Fuzzer, Kind, Range, Reach,
};
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
    fn classic_mutants_keep_length_and_kinds_and_are_new(template in prop::collection::vec(num(), 1..6), seed in any::<u64>()) {
        let out = run(&template, classic(), seed, 200);
        let mut seen = HashSet::new();
        seen.insert(format!("{template:?}"));
        for m in &out {
            prop_assert_eq!(m.len(), template.len());
            prop_assert!(seen.insert(format!("{m:?}")), "duplicate {:?}", m);
        }
    }

    #[test]
    fn ranges_are_honoured(a in -50i64..50, b in 0.0f64..5.0, seed in any::<u64>(), share in prop_oneof![Just(0.0), Just(0.5), Just(1.0)], profile in prop_oneof![Just(FuzzProfile::Neighbourhood), Just(FuzzProfile::Classic)]) {
        // A position the mutant would keep but whose seed value is out of range is drawn
        // again too.
        let template = [Num::Int(a), Num::Float(b)];
        let ranges = vec![Some(Range { min: -3.0, max: 7.0 }), Some(Range { min: 0.5, max: 2.5 })];
        let config = FuzzConfig { ranges: ranges.clone(), single_position_share: share, profile, ..FuzzConfig::default() };
        let out = run(&template, config, seed, 50);
        prop_assert!(!out.is_empty());
        for m in &out {
            prop_assert!(ranges[0].unwrap().contains(&m[0]), "{:?}", m);
            prop_assert!(ranges[1].unwrap().contains(&m[1]), "{:?}", m);
        }
    }

    #[test]
    fn single_position_mutants_change_exactly_one_position(template in prop::collection::vec(any::<i64>().prop_map(Num::Int), 2..6), seed in any::<u64>()) {
        let only = FuzzConfig { single_position_share: 1.0, ..classic() };
        for m in run(&template, only, seed, 40) {
            let changed = m.iter().zip(&template).filter(|(a, b)| a != b).count();
            prop_assert_eq!(changed, 1, "{:?} from {:?}", m, template);
        }
        // Learn2fix's fuzzer changes several positions of most mutants.
        let every = run(&template, classic(), seed, 40);
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

fn classic() -> FuzzConfig {
    FuzzConfig {
        profile: FuzzProfile::Classic,
        ..FuzzConfig::default()
    }
}

fn ints(v: &[i64]) -> Vec<Num> {
    v.iter().map(|&i| Num::Int(i)).collect()
}

#[test]
fn neighbourhood_mutants_are_single_steps_of_the_failing_input() {
    // The example: from `47 50` come questions such as `47 49`, `46 50`, `47 51`,
    // `94 50`.
    let template = ints(&[47, 50]);
    let out = run(&template, FuzzConfig::default(), 1, 200);
    for expected in [[47, 49], [46, 50], [47, 51], [94, 50]] {
        assert!(
            out.contains(&ints(&expected)),
            "{expected:?} not among {out:?}"
        );
    }
    // At first (before the single steps are used up) most change one position.
    let one = out[..40]
        .iter()
        .filter(|m| m.iter().zip(&template).filter(|(a, b)| a != b).count() == 1)
        .count();
    assert!(one * 2 >= 40, "{one} of 40");
}

#[test]
fn neighbourhood_mutants_keep_magnitude_and_sign() {
    // A failing input of -623563697: most mutants are negative numbers of that size.
    let out = run(&ints(&[-623_563_697]), FuzzConfig::default(), 3, 200);
    let like = out
        .iter()
        .filter(|m| matches!(m[0], Num::Int(x) if (-1_300_000_000..=-300_000_000).contains(&x)))
        .count();
    assert!(
        like * 10 >= out.len() * 6,
        "{like} of {}: {out:?}",
        out.len()
    );
    // The classic fuzzer strays further (x10, /10, small values).
    let classic_like = run(&ints(&[-623_563_697]), classic(), 3, 200)
        .iter()
        .filter(|m| matches!(m[0], Num::Int(x) if (-1_300_000_000..=-300_000_000).contains(&x)))
        .count();
    assert!(classic_like < like, "{classic_like} vs {like}");
}

#[test]
fn neighbourhood_mutants_use_type_limits_and_program_constants() {
    let src =
        "#include <stdio.h>\nint main(void) { long long n; int k; scanf(\"%lld %d\", &n, &k);\n\
               if (n > 4000 && k != 77) printf(\"x\\n\"); return 0; }";
    let program = fixloop::lang::compile(src).expect("compiles");
    let config = FuzzConfig {
        program: program.inputs().clone(),
        ..FuzzConfig::default()
    };
    let out = run(&ints(&[5, 5]), config, 2, 400);
    let has = |pos: usize, v: i64| out.iter().any(|m| m[pos] == Num::Int(v));
    assert!(
        has(0, i64::MAX) && has(0, i64::MIN),
        "long long limits for n"
    );
    assert!(
        has(1, i32::MAX as i64) && has(1, i32::MIN as i64),
        "int limits for k"
    );
    assert!(!has(1, i64::MAX), "no long long limit for an int");
    assert!(
        has(0, 4000) || has(0, 4001) || has(0, 3999),
        "a constant near 4000"
    );
    assert!(has(1, 77) || has(1, 76) || has(1, 78), "a constant near 77");
}

#[test]
fn neighbourhood_mutants_stay_inside_a_known_type() {
    // Steps stacked on a type limit (its double, its negation) would leave `int` or go
    // negative for an `unsigned`: a number the program reads as undefined behaviour.
    let src = "#include <stdio.h>\nint main(void) { int k; unsigned u; scanf(\"%d %u\", &k, &u);\n\
               if (k > 10) printf(\"x\\n\"); return 0; }";
    let program = fixloop::lang::compile(src).expect("compiles");
    let config = FuzzConfig {
        program: program.inputs().clone(),
        ..FuzzConfig::default()
    };
    let out = run(&ints(&[10, 3]), config, 4, 1000);
    assert!(out.len() >= 500, "{} mutants", out.len());
    let int = i32::MIN as i64..=i32::MAX as i64;
    let unsigned = 0..=u32::MAX as i64;
    for m in &out {
        assert!(matches!(m[0], Num::Int(k) if int.contains(&k)), "{m:?}");
        assert!(
            matches!(m[1], Num::Int(u) if unsigned.contains(&u)),
            "{m:?}"
        );
    }
    // The limits themselves are still reached.
    assert!(out.iter().any(|m| m[0] == Num::Int(i32::MAX as i64)));
    assert!(out.iter().any(|m| m[0] == Num::Int(i32::MIN as i64)));
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

/// `n` mutants of `template` within `reach`.
fn run_within(template: &[Num], reach: Reach, n: usize) -> Vec<Vec<Num>> {
    let mut f = Fuzzer::new(template, FuzzConfig::default());
    let mut rng = StdRng::seed_from_u64(7);
    (0..n)
        .map_while(|_| f.next_within(&[template], &mut rng, reach).ok())
        .collect()
}

#[test]
fn like_mutants_keep_the_shape_of_the_failing_input_and_near_ones_its_signs() {
    // From `2 2 2`: `3 3 3`, `4 4 4` and the like; never `2 2 3`, never a negative side.
    let triangle = ints(&[2, 2, 2]);
    let like = run_within(&triangle, Reach::Like, 6);
    assert!(like.len() >= 3, "{like:?}");
    assert!(
        like.iter().all(|m| shape_of(m) == shape_of(&triangle)),
        "{like:?}"
    );
    assert!(like.contains(&ints(&[3, 3, 3])), "{like:?}");
    // `5 3 4`: every mutant keeps 5 > 4 > 3 > 0.
    let ordered = ints(&[5, 3, 4]);
    let like = run_within(&ordered, Reach::Like, 30);
    assert!(like.len() >= 10, "{like:?}");
    assert!(
        like.iter().all(|m| shape_of(m) == shape_of(&ordered)),
        "{like:?}"
    );
    // Near: small and medium steps, no sign flips or type limits, any order.
    let near = run_within(&ordered, Reach::Near, 100);
    assert!(
        near.iter().all(|m| m.iter().all(|n| n.as_f64() > 0.0)),
        "{near:?}"
    );
    assert!(
        near.iter().all(|m| m.iter().all(|n| n.as_f64() < 1e6)),
        "{near:?}"
    );
    assert!(near.iter().any(|m| shape_of(m) != shape_of(&ordered)));
    // Far is the neighbourhood fuzzer as it was: the same mutants as `next`.
    let far = run_within(&ordered, Reach::Far, 50);
    let mut f = Fuzzer::new(&ordered, FuzzConfig::default());
    let mut rng = StdRng::seed_from_u64(7);
    let plain: Vec<Vec<Num>> = (0..50)
        .map_while(|_| f.next(&[&ordered], &mut rng).ok())
        .collect();
    assert_eq!(far, plain);
}
