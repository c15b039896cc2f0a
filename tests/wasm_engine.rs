//! The engine compiled to wasm32 and run by wasm-bindgen-test: the interpreter and the oracle learner work there.
#![cfg(target_arch = "wasm32")]

use fixloop::lang::{compile, Limits, Outcome};
use fixloop::oracle::{learn, Example, LearnConfig, StopReason, Value};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn interpreter_runs_and_bounds_programs_in_wasm() {
    let program = compile(
        "#include <stdio.h>\nint f(int n) { return n < 2 ? n : f(n - 1) + f(n - 2); }\n\
         int main(void) { int n; scanf(\"%d\", &n); printf(\"%d %.3f\\n\", f(n), n / 3.0); return 0; }\n",
    )
    .expect("compiles");
    let run = program.run(b"20\n", &Limits::default());
    assert_eq!(run.outcome, Outcome::Exit(0));
    assert_eq!(String::from_utf8_lossy(&run.stdout), "6765 6.667\n");

    let endless = compile("int main(void) { for (;;) {} return 0; }").expect("compiles");
    assert_eq!(
        endless.run(b"", &Limits::default()).outcome,
        Outcome::Timeout
    );

    let deep = compile(
        "int d(int n) { return n == 0 ? 0 : 1 + d(n - 1); }\nint main(void) { return d(1000000); }",
    )
    .expect("compiles");
    assert!(matches!(
        deep.run(b"", &Limits::default()).outcome,
        Outcome::CallDepth | Outcome::MemoryLimit
    ));
}

#[wasm_bindgen_test]
fn parse_errors_carry_lines_in_wasm() {
    let error = compile("int main(void) {\n  int x = 1\n  return x;\n}\n")
        .expect_err("a missing semicolon");
    assert!(error.to_string().contains("2:"), "{error}");
}

#[wasm_bindgen_test]
fn learner_finds_the_smallest_oracle_in_wasm() {
    let vars: Vec<String> = ["a", "b", "out"].iter().map(|s| s.to_string()).collect();
    let ex = |a: i64, b: i64, out: i64, bug| Example {
        point: vec![Value::Int(a), Value::Int(b), Value::Int(out)],
        bug,
    };
    let data = [
        ex(3, 3, 2, true),
        ex(5, 5, 2, true),
        ex(3, 3, 1, false),
        ex(4, 2, 2, false),
        ex(1, 6, 1, false),
        ex(7, 7, 2, true),
    ];
    let report = learn(&vars, &data, &LearnConfig::default());
    assert_eq!(report.stop, StopReason::Found);
    assert_eq!(
        report.formula.expect("a formula").to_string(),
        "(a = b) and (out = 2)"
    );
}

#[wasm_bindgen_test]
fn conflict_budget_stops_the_learner_in_wasm() {
    // Parity of three signs: no small formula over single-variable atoms, so the SAT
    // search needs many conflicts and a budget of one stops it with a typed reason.
    let vars: Vec<String> = ["x", "y", "z"].iter().map(|s| s.to_string()).collect();
    let mut data = Vec::new();
    for x in -2..=2i64 {
        for y in -2..=2i64 {
            for z in -2..=2i64 {
                let negatives = [x, y, z].iter().filter(|&&v| v <= 0).count();
                data.push(Example {
                    point: vec![Value::Int(x), Value::Int(y), Value::Int(z)],
                    bug: negatives % 2 == 1,
                });
            }
        }
    }
    let config = LearnConfig {
        max_literals: 5,
        max_clauses: 2,
        pair_atoms: false,
        triple_atoms: false,
        simplex: false,
        max_conflicts: 1,
        // Sizes 4 and 5 go to SAT, whose conflicts this test counts (the exhaustive
        // search would settle them without any).
        max_exhaustive_steps: 0,
        ..LearnConfig::default()
    };
    let report = learn(&vars, &data, &config);
    assert_eq!(
        report.stop,
        StopReason::ConflictLimit { max_conflicts: 1 },
        "{report}"
    );
    assert!(report.conflicts > 1, "{report}");
}
