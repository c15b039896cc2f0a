//! One test per documented limit (docs/limits.md): exceeding it gives the typed outcome or message the doc promises.

mod common;

use fixloop::lang::parser::{parse_with, ParseLimits};
use fixloop::lang::preprocess::{preprocess_with, PreprocessLimits};
use fixloop::lang::{compile, parse, Limits, Outcome};
use fixloop::oracle::{learn, Example, Formula, LearnConfig, StopReason, Value};

fn run(src: &str, stdin: &str, limits: &Limits) -> fixloop::lang::Execution {
    compile(src)
        .unwrap_or_else(|e| panic!("{e}"))
        .run(stdin.as_bytes(), limits)
}

fn small(f: impl FnOnce(&mut Limits)) -> Limits {
    let mut l = Limits::default();
    f(&mut l);
    l
}

#[test]
fn defaults_are_the_documented_ones() {
    let l = Limits::default();
    assert_eq!(
        (l.fuel, l.memory_bytes, l.call_depth, l.output_bytes),
        (10_000_000, 64 << 20, 100_000, 1 << 20)
    );
    assert_eq!(ParseLimits::default().max_depth, 256);
    assert_eq!(ParseLimits::default().max_errors, 100);
    let p = PreprocessLimits::default();
    assert_eq!(
        (p.max_expansion_work, p.max_expansion_depth, p.max_if_depth),
        (2_000_000, 64, 128)
    );
    let c = LearnConfig::default();
    assert_eq!(
        (c.max_pool, c.max_sat_pool, c.max_sat_calls, c.max_pivots),
        (600, 150, 400, 20_000)
    );
}

#[test]
fn fuel_gives_timeout() {
    let e = run(
        "int main(void) { while (1) ; }",
        "",
        &small(|l| l.fuel = 1_000),
    );
    assert_eq!(e.outcome, Outcome::Timeout);
    assert_eq!(e.outcome.to_string(), "timeout");
    assert!(e.steps <= 1_000);
}

#[test]
fn bulk_work_is_charged_to_the_fuel_by_its_size() {
    // A call that zero-initialises a local array costs fuel by the array's size, so a
    // loop of such calls reaches the step limit (not after 10^7 calls of 400 KB each).
    let program = |n: usize| {
        format!(
            "int f(int i) {{ int seen[{n}] = {{0}}; seen[i % {n}] = 1; return seen[0]; }}\n\
             int main(void) {{ long long t = 0; for (int i = 0; ; i++) t += f(i); return (int)t; }}"
        )
    };
    let limits = small(|l| l.fuel = 1_000_000);
    let e = run(&program(100_002), "", &limits);
    assert_eq!(e.outcome, Outcome::Timeout);
    assert_eq!(e.steps, 1_000_000);
    // The steps one call is charged grow with the array's size.
    let calls = |n: usize| {
        let src = program(n).replace("; ; i++", "; i < 100; i++");
        let e = run(&src, "", &Limits::default());
        assert!(matches!(e.outcome, Outcome::Exit(_)), "{:?}", e.outcome);
        e.steps
    };
    let (small_steps, large_steps) = (calls(1_000), calls(100_000));
    assert!(
        large_steps > 50 * small_steps,
        "100 calls with 400 KB arrays took {large_steps} steps, with 4 KB arrays {small_steps}"
    );
    // Library functions are charged by the bytes they touch: ten `strlen`s of a string
    // of 10^6 bytes cost at least 10^7 / 64 steps more than none.
    let strlen = |calls: usize| {
        let src = format!(
            "#include <string.h>\nchar s[1000001];\nint main(void) {{ int i; long long t = 1;\n\
             for (i = 0; i < 1000000; i++) s[i] = 'a';\nfor (i = 0; i < {calls}; i++) t += strlen(s);\n\
             return t > 0; }}"
        );
        let e = run(&src, "", &Limits::default());
        assert_eq!(e.outcome, Outcome::Exit(1));
        e.steps
    };
    let (none, ten) = (strlen(0), strlen(10));
    assert!(ten - none >= 10_000_000 / 64, "{none} {ten}");
    // A frame is charged for its objects, not for the bounds-check padding around them:
    // locals whose address is taken cost a call no more than registers do.
    let frame = |body: &str| {
        let src = format!(
            "int f(int i) {{ {body} }}\n             int main(void) {{ int t = 0, i; for (i = 0; i < 100; i++) t += f(i); return t > 0; }}"
        );
        let e = run(&src, "", &Limits::default());
        assert_eq!(e.outcome, Outcome::Exit(1));
        e.steps
    };
    assert_eq!(
        frame("int a = i, b = 1, c = 2; int *p = &a, *q = &b, *r = &c; return *p + *q + *r;"),
        frame("int a = i, b = 1, c = 2; int *p = 0, *q = 0, *r = 0; return a + b + c;")
    );
}

#[test]
fn memory_gives_memory_limit() {
    let limits = small(|l| l.memory_bytes = 1 << 20);
    // A global array larger than the budget costs only the pages the program writes
    // (as a gcc-built program's zero pages): a few writes run, filling it does not.
    let big = "int a[1000000]; int main(void) { int i; a[0] = 1; a[999999] = 2; \
               for (i = 0; i < 1000000; i += 1024) a[i] += 1; return a[999999]; }";
    assert_eq!(run(big, "", &limits).outcome, Outcome::MemoryLimit);
    let sparse =
        "int a[1000000]; int main(void) { a[0] = 1; a[999999] = 2; return a[999999] + a[5]; }";
    assert_eq!(run(sparse, "", &limits).outcome, Outcome::Exit(2));
    // Declared beyond `global_bytes`: before the first statement.
    let declared = small(|l| {
        l.memory_bytes = 1 << 20;
        l.global_bytes = 2 << 20;
    });
    let e = run(big, "", &declared);
    assert_eq!(e.outcome, Outcome::MemoryLimit);
    assert_eq!(e.outcome.to_string(), "memory limit exceeded");
    assert_eq!(e.steps, 0);
    // A variable-length array and a malloc sized by the input.
    let vla = "#include <stdio.h>\nint main(void) { int n; scanf(\"%d\", &n); int a[n]; a[0] = 1; return a[0]; }";
    assert_eq!(run(vla, "1000000", &limits).outcome, Outcome::MemoryLimit);
    assert_eq!(run(vla, "10", &limits).outcome, Outcome::Exit(1));
    let heap = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { int n; scanf(\"%d\", &n); int *p = malloc(n * sizeof(int)); return p == 0; }";
    let e = run(heap, "1000000", &limits);
    assert!(
        matches!(e.outcome, Outcome::MemoryLimit | Outcome::Exit(1)),
        "{}",
        e.outcome
    );
}

#[test]
fn call_depth_gives_call_depth() {
    let src = "int f(int n) { return n == 0 ? 0 : 1 + f(n - 1); }\nint main(void) { return f(100000000); }";
    let e = run(src, "", &small(|l| l.call_depth = 1_000));
    assert_eq!(e.outcome, Outcome::CallDepth);
    assert_eq!(e.outcome.to_string(), "call depth limit exceeded");
    // The default depth survives a recursion gcc's 8 MiB stack survives.
    let ok = "int f(int n) { return n == 0 ? 0 : 1 + f(n - 1); }\nint main(void) { return f(50000) == 50000 ? 0 : 1; }";
    assert_eq!(run(ok, "", &Limits::default()).outcome, Outcome::Exit(0));
}

#[test]
fn output_gives_output_limit() {
    let src = "#include <stdio.h>\nint main(void) { while (1) printf(\"xyz\"); }";
    let e = run(src, "", &small(|l| l.output_bytes = 100));
    assert_eq!(e.outcome, Outcome::OutputLimit);
    assert_eq!(e.outcome.to_string(), "output limit exceeded");
    assert!(e.stdout.len() <= 100);
}

#[test]
fn array_size_is_a_compile_error() {
    let e = compile("int a[1000000000]; int main(void) { return 0; }").unwrap_err();
    assert!(
        e.to_string().contains("size of array 'a' is too large"),
        "{e}"
    );
    let e = compile("int main(void) { int a[-2]; return 0; }").unwrap_err();
    assert!(e.to_string().contains("size of array"), "{e}");
}

#[test]
fn runtime_errors_are_outcomes_with_a_line() {
    let src = "#include <stdio.h>\nint main(void) {\n int a[4] = {0}, i;\n scanf(\"%d\", &i);\n a[i] = 1;\n return 10 / a[1];\n}";
    let e = run(src, "1000", &small(|l| l.bounds_slack = 0));
    assert!(
        matches!(&e.outcome, Outcome::RuntimeError { line: 5, .. }),
        "{}",
        e.outcome
    );
    let e = run(src, "0", &Limits::default());
    assert_eq!(
        e.outcome.to_string(),
        "runtime error at line 6: division by zero"
    );
}

#[test]
fn parser_nesting_is_a_diagnostic() {
    let src = format!(
        "int main(void) {{ return {}1{}; }}",
        "(".repeat(300),
        ")".repeat(300)
    );
    let diags = common::on_page_stack(move || parse(&src).1);
    assert!(
        diags.iter().any(|d| d
            .message
            .contains("nesting too deep (more than 256 levels)")),
        "{diags:?}"
    );
    let (_, diags) = parse_with(
        "int main(void) { return ((((1)))); }",
        ParseLimits {
            max_depth: 3,
            ..ParseLimits::default()
        },
    );
    assert!(diags
        .iter()
        .any(|d| d.message.contains("more than 3 levels")));
}

#[test]
fn parser_error_count_is_bounded() {
    let src = "int main(void) { ".to_string() + &"1 +;\n".repeat(500) + "}";
    let (_, diags) = parse(&src);
    assert!(diags.iter().any(|d| d.message.contains("too many errors")));
    assert!(diags.len() <= 110, "{} diagnostics", diags.len());
}

#[test]
fn preprocessor_expansion_is_bounded() {
    // Doubling macros: 2^40 tokens.
    let mut src = String::from("#define A0 x\n");
    for i in 1..=40 {
        src += &format!("#define A{i} A{} A{}\n", i - 1, i - 1);
    }
    src += "int main(void) { A40; return 0; }\n";
    let pre = preprocess_with(&src, PreprocessLimits::default());
    assert!(pre
        .diags
        .iter()
        .any(|d| d.message.contains("macro expansion too large")));
    // A chain deeper than 64 levels.
    let mut deep = String::from("#define B0 1\n");
    for i in 1..=100 {
        deep += &format!("#define B{i} (B{})\n", i - 1);
    }
    deep += "int main(void) { return B100; }\n";
    let e = compile(&deep).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
}

#[test]
fn formula_parser_nesting_and_number_length_are_bounded() {
    let vars = vec!["x".to_string()];
    let text = format!("{}x <= 1{}", "(".repeat(100), ")".repeat(100));
    let e = Formula::parse(&text, &vars).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{e}");
    assert!(Value::parse(&"7".repeat(5000)).is_none());
    assert!(Value::parse(&"7".repeat(4000)).is_some());
}

fn ex(x: i64, bug: bool) -> Example {
    Example {
        point: vec![Value::Int(x)],
        bug,
    }
}

/// Alternating labels on a line: no small formula, many boundaries.
fn alternating(n: i64) -> Vec<Example> {
    (0..n).map(|x| ex(x * 3, x % 2 == 0)).collect()
}

#[test]
fn pool_size_gives_pool_limit() {
    let cfg = LearnConfig {
        max_pool: 2,
        simplex: false,
        ..LearnConfig::default()
    };
    let r = learn(&["x".into()], &alternating(12), &cfg);
    assert_eq!(r.stop, StopReason::PoolLimit { max_pool: 2 }, "{r}");
    assert!(r.pool_size <= 2);
    assert!(r.to_string().contains("cut to 2 atoms"));
}

#[test]
fn sat_calls_give_sat_call_limit() {
    // varisat 0.2.2 has no conflict limit; one learn call is bounded by its SAT calls.
    let cfg = LearnConfig {
        max_sat_calls: 1,
        equality_atoms: false,
        // `x % 2 = 0` fits alternating labels in one literal; thresholds need many.
        remainder_atoms: false,
        simplex: false,
        ..LearnConfig::default()
    };
    let r = learn(&["x".into()], &alternating(12), &cfg);
    assert_eq!(r.stop, StopReason::SatCallLimit { max_sat_calls: 1 }, "{r}");
    assert!(r.sat_calls <= 1);
}

#[test]
fn literal_limit_gives_no_formula_within_limits() {
    let cfg = LearnConfig {
        max_literals: 2,
        equality_atoms: false,
        // `x % 2 = 0` fits alternating labels in one literal; thresholds need many.
        remainder_atoms: false,
        simplex: false,
        ..LearnConfig::default()
    };
    let r = learn(&["x".into()], &alternating(8), &cfg);
    assert!(
        matches!(
            r.stop,
            StopReason::NoFormulaWithinLimits {
                max_literals: 2,
                ..
            }
        ),
        "{r}"
    );
    assert!(r.formula.is_none());
}

#[test]
fn pivot_limit_falls_back_to_no_formula() {
    // With no pivots the simplex cannot separate anything: the learner reports that no
    // formula fits instead of running on.
    let cfg = LearnConfig {
        max_literals: 1,
        max_pivots: 0,
        equality_atoms: false,
        pair_atoms: false,
        ..LearnConfig::default()
    };
    let data: Vec<Example> = [
        (0, 0, true),
        (1, 1, true),
        (0, 1, false),
        (1, 0, false),
        (2, 2, true),
        (2, 0, false),
    ]
    .iter()
    .map(|&(a, b, bug)| Example {
        point: vec![Value::Int(a), Value::Int(b)],
        bug,
    })
    .collect();
    let r = learn(&["a".into(), "b".into()], &data, &cfg);
    assert!(!r.simplex_used, "{r}");
    assert_ne!(r.stop, StopReason::Found, "{r}");
}
