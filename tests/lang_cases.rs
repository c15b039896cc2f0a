//! Data-driven language tests: `tests/lang/cases/NAME.c` with optional `NAME.in` (stdin) and
//! `NAME.out` (expected stdout, then a line `=== <outcome>`). `UPDATE_EXPECT=1 cargo test`
//! rewrites the expected files. A first line `// limits: fuel=N memory=N depth=N output=N slack=N`
//! sets limits; `// input: 1 2 3` runs through `Program::run_test` with those numbers.

mod common;

use fixloop::lang::{compile, Limits, Num};
use std::path::{Path, PathBuf};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lang/cases")
}

fn limits_for(source: &str) -> Limits {
    let mut l = Limits::default();
    for line in source.lines().take(3) {
        if let Some(rest) = line.strip_prefix("// limits:") {
            for kv in rest.split_whitespace() {
                let (k, v) = kv.split_once('=').expect("key=value");
                let n: u64 = v.parse().expect("number");
                match k {
                    "fuel" => l.fuel = n,
                    "memory" => l.memory_bytes = n as usize,
                    "depth" => l.call_depth = n as u32,
                    "output" => l.output_bytes = n as usize,
                    "slack" => l.bounds_slack = n as u32,
                    _ => panic!("unknown limit {k}"),
                }
            }
        }
    }
    l
}

/// Runs one case and returns the actual `.out` text.
fn actual(path: &Path) -> String {
    let source = std::fs::read_to_string(path).expect("read case");
    let stdin = std::fs::read(path.with_extension("in")).unwrap_or_default();
    let program = match compile(&source) {
        Ok(p) => p,
        Err(e) => return format!("=== compile error\n{e}\n"),
    };
    let limits = limits_for(&source);
    let input = source
        .lines()
        .take(3)
        .find_map(|l| l.strip_prefix("// input:"))
        .map(|s| Num::parse_list(s).expect("numbers"));
    let exec = match input {
        Some(nums) => program.run_test(&nums, &limits),
        None => program.run(&stdin, &limits),
    };
    format!(
        "{}\n=== {}\n",
        String::from_utf8_lossy(&exec.stdout),
        exec.outcome
    )
}

#[test]
fn lang_cases() {
    let files = common::c_files(&cases_dir());
    assert!(!files.is_empty());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| common::check_expect(&f.with_extension("out"), &actual(f)).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn coverage_shapes_and_numbers() {
    use fixloop::lang::{NumKind, Outcome, Shape};
    let p = compile(
        "int classify(int a, int b, int c) {\n  if (a == b)\n    return 1;\n  return 0;\n}\n",
    )
    .expect("compiles");
    assert_eq!(
        p.shape(),
        &Shape::Function {
            name: "classify".into(),
            params: vec![
                ("a".into(), NumKind::Int),
                ("b".into(), NumKind::Int),
                ("c".into(), NumKind::Int)
            ],
            ret: NumKind::Int,
        }
    );
    let limits = Limits {
        record_coverage: true,
        ..Limits::default()
    };
    let e = p.call(&[Num::Int(2), Num::Int(3), Num::Int(4)], &limits);
    assert_eq!(e.stdout, b"0\n");
    assert_eq!(e.outcome, Outcome::Exit(0));
    let lines: Vec<u32> = e
        .coverage
        .expect("coverage")
        .iter()
        .map(|&i| p.statement_lines()[i as usize].1)
        .collect();
    assert_eq!(lines, vec![2, 4]);
    let e = p.run_test(&Num::parse_list("5 5 1").expect("nums"), &Limits::default());
    assert_eq!(e.stdout, b"1\n");
    assert!(e.coverage.is_none());
    assert_eq!(
        Num::parse_list("1 -2 2.5").expect("nums"),
        vec![Num::Int(1), Num::Int(-2), Num::Float(2.5)]
    );
    assert_eq!(Num::Float(0.1).to_string(), "0.1");
    assert_eq!(Num::Float(1e300).to_string(), "1e+300");
    let m = compile("#include <stdio.h>\nint main(){int a,b;scanf(\"%d%d\",&a,&b);printf(\"%d\\n\",a+b);return 0;}")
        .expect("compiles");
    assert_eq!(m.shape(), &Shape::Main);
    assert_eq!(
        m.run_test(&[Num::Int(2), Num::Int(40)], &Limits::default())
            .stdout,
        b"42\n"
    );
    let err = compile("int main() { int x = ; return y; }").expect_err("errors");
    assert!(!err.diagnostics.is_empty(), "{err}");
    assert!(err.to_string().contains("error"), "{err}");
}

/// The structure cases print back as C that parses to the same text and runs alike
/// (definitions, typedef'd and anonymous structures, member access).
#[test]
fn structure_cases_print_back_and_run_alike() {
    use fixloop::lang::parse;
    for name in ["structs", "structs_by_value"] {
        let path = cases_dir().join(format!("{name}.c"));
        let src = std::fs::read_to_string(&path).expect("read case");
        let (tu, diags) = parse(&src);
        assert!(diags.iter().all(|d| !d.is_error()), "{name}: {diags:?}");
        let printed = tu.to_string();
        let (tu2, diags2) = parse(&printed);
        assert!(
            diags2.iter().all(|d| !d.is_error()),
            "{name}: {diags2:?}\n{printed}"
        );
        assert_eq!(tu2.to_string(), printed, "{name} is not a fixpoint");
        let stdin = std::fs::read(path.with_extension("in")).unwrap_or_default();
        let a = compile(&src)
            .expect("compiles")
            .run(&stdin, &Limits::default());
        let b = compile(&printed)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"))
            .run(&stdin, &Limits::default());
        assert_eq!(a.stdout, b.stdout, "{name}\n{printed}");
    }
}
