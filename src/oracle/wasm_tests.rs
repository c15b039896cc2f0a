//! Proves the learner builds and runs on `wasm32-unknown-unknown`, and reports its speed there.
//!
//! A lib unit test (integration tests would also build the native-only CLI binary). Run:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test --target wasm32-unknown-unknown --lib oracle`

use super::{learn, Example, LearnConfig, Learner, Value};
use wasm_bindgen_test::wasm_bindgen_test;

fn ex(a: i64, b: i64, c: i64, out: i64, bug: bool) -> Example {
    Example {
        point: vec![Value::Int(a), Value::Int(b), Value::Int(c), Value::Int(out)],
        bug,
    }
}

fn vars() -> Vec<String> {
    ["a", "b", "c", "out"]
        .iter()
        .map(|s| s.to_string())
        .collect()
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
