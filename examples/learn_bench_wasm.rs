//! The learner's benchmark workloads ([`fixloop::oracle::workloads`]) in wasm32, for `scripts/bench-wasm.mjs` to time in node and in Chromium beside `fixloop bench learn`.
//!
//! Build with the profile of the page's worker (as `scripts/bench-wasm.mjs` does):
//! `cargo build --profile release-wasm --target wasm32-unknown-unknown --example learn_bench_wasm`,
//! then wasm-bindgen and `wasm-opt -O3`. Natively it only says so.

#[cfg(target_arch = "wasm32")]
mod wasm {
    use fixloop::oracle::workloads;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// The host's clock in milliseconds, `globalThis.benchClock` (set by
        /// `scripts/bench-wasm.mjs`: the process's CPU time in node, `performance.now()`
        /// in a browser, which has no CPU clock).
        #[wasm_bindgen(js_namespace = globalThis, js_name = benchClock)]
        fn now() -> f64;
    }

    /// Every workload call, each timed `repeat` times (the median is its figure), as
    /// JSON: `[{"workload", "ms", "formula"}]`, in `fixloop bench learn`'s call order.
    #[wasm_bindgen]
    pub fn run_workloads(repeat: usize, only: &str) -> Result<String, JsValue> {
        let calls = workloads::all().map_err(|e| JsValue::from_str(&e))?;
        let mut out = Vec::new();
        for call in calls.iter().filter(|c| c.workload.starts_with(only)) {
            let mut ms = Vec::new();
            let mut formula = None;
            for _ in 0..repeat.max(1) {
                let mut prepared = call.prepare();
                let t0 = now();
                let report = call.execute(prepared.as_mut());
                ms.push(now() - t0);
                formula = report.formula.map(|f| f.to_string());
            }
            ms.sort_by(|a, b| a.total_cmp(b));
            let name = if call.look_ahead.is_some() {
                format!("{} (look-ahead)", call.workload)
            } else {
                call.workload.clone()
            };
            out.push(serde_json::json!({
                "workload": name,
                "ms": ms[ms.len() / 2],
                "formula": formula,
            }));
        }
        Ok(serde_json::Value::Array(out).to_string())
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("learn_bench_wasm runs in wasm32: see scripts/bench-wasm.mjs");
}
