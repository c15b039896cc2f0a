//! The triangle oracle of the Learn2fix paper: accuracy from 20 and 80 labels, and exact
//! recovery by the counterexample loop.
//!
//! The workload (classifiers, the 1000 labelled points, balanced draws) is
//! [`fixloop::oracle::triangle`], shared with the benchmark and the wasm tests.
//!
//! The accuracy figures take a few seconds in debug builds, so the full 20-draw medians
//! are `#[ignore]`d; run them with
//! `cargo test --release --test oracle_triangle -- --ignored --nocapture`.

use fixloop::oracle::{learn, learn_cegis, triangle, CegisConfig, Example, LearnConfig};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn vars() -> Vec<String> {
    triangle::vars()
}

fn all_points() -> Vec<Example> {
    triangle::all_examples()
}

fn draw(all: &[Example], n: usize, seed: u64) -> Vec<Example> {
    triangle::draw_balanced(all, n, &mut StdRng::seed_from_u64(seed))
}

fn accuracy_over_draws(n: usize, draws: u64) -> Vec<f64> {
    let all = all_points();
    let mut accs = Vec::new();
    for seed in 0..draws {
        let data = draw(&all, n, seed);
        let r = learn(&vars(), &data, &LearnConfig::default());
        let f = r.formula.expect("a formula");
        assert!(
            data.iter().all(|e| f.eval(&e.point) == e.bug),
            "inconsistent: {f}"
        );
        let acc = all.iter().filter(|e| f.eval(&e.point) == e.bug).count() as f64 / 1000.0;
        println!("n={n} seed={seed} acc={acc:.3} {f}");
        accs.push(acc);
    }
    accs
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 0 {
        (v[m - 1] + v[m]) / 2.0
    } else {
        v[m]
    }
}

#[test]
fn the_bug_region_is_as_documented() {
    let all = all_points();
    assert_eq!(all.iter().filter(|e| e.bug).count(), 18);
    assert!(all.iter().all(|e| {
        let p: Vec<i64> = e.point.iter().map(|v| v.as_i64().unwrap()).collect();
        e.bug == (p[0] == p[1] && p[0] != 1 && (p[1] == p[2] || p[2] == 1))
    }));
}

#[test]
fn a_few_draws_generalise() {
    // Quick version for debug builds: 3 draws of 20.
    let accs = accuracy_over_draws(20, 3);
    assert!(median(accs) >= 0.85);
}

#[test]
#[ignore = "20 draws x 2 sizes; run in release (see module docs)"]
fn accuracy_20_and_80_labels() {
    let m20 = median(accuracy_over_draws(20, 20));
    let m80 = median(accuracy_over_draws(80, 20));
    println!("median accuracy over 20 draws: 20 labels {m20:.3}, 80 labels {m80:.3}");
    assert!(m20 >= 0.90, "20 labels: {m20}");
    assert!(m80 >= 0.99, "80 labels: {m80}");
}

#[test]
fn counterexample_loop_recovers_the_exact_oracle() {
    let all = all_points();
    let r = learn_cegis(
        &vars(),
        &all,
        &LearnConfig::default(),
        &CegisConfig::default(),
    );
    println!("{r}");
    assert!(r.consistent_with_all, "{r}");
    let f = r.last.formula.unwrap();
    assert!(all.iter().all(|e| f.eval(&e.point) == e.bug));
}
