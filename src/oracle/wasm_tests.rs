//! Proves the learner builds and runs on `wasm32-unknown-unknown`, and reports its speed there.
//!
//! A lib unit test (integration tests would also build the native-only CLI binary). Run:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test --target wasm32-unknown-unknown --lib oracle`

use super::{learn, triangle, Example, LearnConfig, Learner, Value};
use wasm_bindgen_test::wasm_bindgen_test;

fn ex(a: i64, b: i64, c: i64, out: i64, bug: bool) -> Example {
    Example {
        point: vec![Value::Int(a), Value::Int(b), Value::Int(c), Value::Int(out)],
        bug,
    }
}

fn vars() -> Vec<String> {
    triangle::vars()
}

#[wasm_bindgen_test]
fn learns_and_runs_a_committee_in_wasm() {
    let data = [
        ex(3, 3, 3, 2, true),
        ex(5, 5, 1, 3, true),
        ex(7, 7, 7, 2, true),
        ex(4, 4, 1, 3, true),
        ex(3, 4, 5, 1, false),
        ex(1, 1, 1, 3, false),
        ex(2, 2, 3, 2, false),
        ex(6, 2, 9, 4, false),
    ];
    let r = learn(&vars(), &data, &LearnConfig::default());
    let f = r.formula.expect("a formula");
    assert!(data.iter().all(|e| f.eval(&e.point) == e.bug));
    let mut l = Learner::with_examples(vars(), LearnConfig::default(), &data).unwrap();
    let neighbours: Vec<Vec<Value>> = (0..10)
        .map(|i| ex(2 + i % 5, 2 + i % 5, 1 + i % 3, 2, false).point)
        .collect();
    let t0 = js_sys::Date::now();
    let hyps = l.committee(&neighbours);
    let ms = js_sys::Date::now() - t0;
    assert_eq!(hyps.len(), 20);
    wasm_bindgen_test::console_log!("wasm: {f}; committee of 20 took {ms} ms");
}

/// The bench's committee workload (20 triangle labels, 10 neighbours, 20 learns), timed
/// with the JS clock: the wasm latency figure for the active loop.
#[wasm_bindgen_test]
fn committee_latency_in_wasm() {
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    let mut rng = StdRng::seed_from_u64(7);
    let all = triangle::all_examples();
    let (mut learn_ms, mut committee_ms) = (Vec::new(), Vec::new());
    for _ in 0..30 {
        let data = triangle::draw_balanced(&all, 20, &mut rng);
        let t0 = js_sys::Date::now();
        let mut l = Learner::with_examples(vars(), LearnConfig::default(), &data).unwrap();
        assert!(l.learn().consistent());
        learn_ms.push(js_sys::Date::now() - t0);
        let neighbours = triangle::neighbours(10, &mut rng);
        let t0 = js_sys::Date::now();
        assert_eq!(l.committee(&neighbours).len(), 20);
        committee_ms.push(js_sys::Date::now() - t0);
    }
    for v in [&mut learn_ms, &mut committee_ms] {
        v.sort_by(|a, b| a.total_cmp(b));
    }
    let q = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    wasm_bindgen_test::console_log!(
        "wasm learn (20 labels) p50 {} p95 {} max {} ms; committee of 20 p50 {} p95 {} max {} ms",
        q(&learn_ms, 0.5),
        q(&learn_ms, 0.95),
        q(&learn_ms, 1.0),
        q(&committee_ms, 0.5),
        q(&committee_ms, 0.95),
        q(&committee_ms, 1.0)
    );
}
