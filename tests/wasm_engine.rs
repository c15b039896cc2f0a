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
