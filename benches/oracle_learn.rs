//! Learner latency benchmark: fresh learn calls and 20-member committees, p50/p95/max.
//!
//! Run with `cargo bench --bench oracle_learn`. Workloads: the Learn2fix triangle oracle
//! (inputs a, b, c in 1..10 plus the output: 4 variables) with 10, 20 and 40 labelled
//! examples, random 4-variable formulas with 40 sampled examples, and the active loop's
//! committee (20 look-one-ahead learns around one generated test) on 20 labels.

use fixloop::oracle::{learn, triangle, Example, LearnConfig, Learner, StopReason, Value};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// 40 points in 4 variables labelled by a random 2-term DNF of 2 literals each.
fn random_draw(n: usize, rng: &mut StdRng) -> Vec<Example> {
    let atoms: Vec<(usize, usize, i64, u8)> = (0..4)
        .map(|_| {
            (
                rng.random_range(0..4),
                rng.random_range(0..4),
                rng.random_range(-3..=3),
                rng.random_range(0..3),
            )
        })
        .collect();
    let holds = |p: &[i64], &(x, y, c, k): &(usize, usize, i64, u8)| match k {
        0 => p[x] <= c,
        1 => p[x] - p[y] <= c,
        _ => p[x] == p[y],
    };
    (0..n)
        .map(|_| {
            let p: Vec<i64> = (0..4).map(|_| rng.random_range(-5..=5)).collect();
            let bug = (holds(&p, &atoms[0]) && holds(&p, &atoms[1]))
                || (holds(&p, &atoms[2]) && holds(&p, &atoms[3]));
            Example {
                point: p.into_iter().map(Value::Int).collect(),
                bug,
            }
        })
        .collect()
}

fn stats(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| ms[((ms.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95), ms[ms.len() - 1])
}

fn row(name: &str, ms: Vec<f64>) {
    let n = ms.len();
    let (p50, p95, max) = stats(ms);
    println!("{name:<40} {n:>5} {p50:>9.3} {p95:>9.3} {max:>9.3}");
}

fn main() {
    let vars = triangle::vars();
    let all = triangle::all_examples();
    let config = LearnConfig::default();
    let mut rng = StdRng::seed_from_u64(7);
    println!(
        "{:<40} {:>5} {:>9} {:>9} {:>9}",
        "workload (ms)", "runs", "p50", "p95", "max"
    );
    for n in [10, 20, 40] {
        let mut ms = Vec::new();
        for _ in 0..100 {
            let data = triangle::draw_balanced(&all, n, &mut rng);
            let t = Instant::now();
            let r = learn(&vars, &data, &config);
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(r.consistent());
        }
        row(&format!("learn triangle, {n} examples"), ms);
    }
    let mut ms = Vec::new();
    let mut conflicts = Vec::new();
    let mut limited = 0;
    for _ in 0..100 {
        let data = random_draw(40, &mut rng);
        let t = Instant::now();
        let r = learn(&vars, &data, &config);
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        conflicts.push(r.conflicts as f64);
        limited += usize::from(matches!(r.stop, StopReason::ConflictLimit { .. }));
    }
    row("learn random 2x2 DNF, 40 examples", ms);
    let (c50, c95, cmax) = stats(conflicts);
    println!(
        "  SAT conflicts per learn: p50 {c50:.0}, p95 {c95:.0}, max {cmax:.0}; \
         {limited} of 100 stopped at max_conflicts = {}",
        config.max_conflicts
    );

    // Committee: 20 labels, one generated test, S = 10 fuzzed neighbours, 2 learns each.
    let mut ms = Vec::new();
    let mut fresh_ms = Vec::new();
    for _ in 0..50 {
        let data = triangle::draw_balanced(&all, 20, &mut rng);
        let mut l = Learner::with_examples(vars.clone(), config.clone(), &data).unwrap();
        l.learn();
        let neighbours = triangle::neighbours(10, &mut rng);
        let t = Instant::now();
        let hyps = l.committee(&neighbours);
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(hyps.len(), 20);
        // The same 20 learns without reuse, for comparison.
        let t = Instant::now();
        for nb in &neighbours {
            for bug in [true, false] {
                let mut d = data.clone();
                d.push(Example {
                    point: nb.clone(),
                    bug,
                });
                learn(&vars, &d, &config);
            }
        }
        fresh_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    row("committee of 20 (incremental), 20 labels", ms);
    row("committee of 20 (fresh learns), 20 labels", fresh_ms);

    // Evaluation throughput, as the repair engine uses it: the exact triangle oracle on
    // all 1000 points, 1000 times.
    let f = fixloop::oracle::Formula::parse("(a = b) and (a != 1) and (a = c or c = 1)", &vars)
        .unwrap();
    let points: Vec<Vec<Value>> = all.iter().map(|e| e.point.clone()).collect();
    let t = Instant::now();
    let mut hits = 0usize;
    for _ in 0..1000 {
        hits += points.iter().filter(|p| f.eval(p)).count();
    }
    let ns = t.elapsed().as_secs_f64() * 1e9 / (1000.0 * points.len() as f64);
    assert_eq!(hits, 18 * 1000);
    println!("eval exact triangle oracle: {ns:.1} ns per point (1M evaluations)");
}
