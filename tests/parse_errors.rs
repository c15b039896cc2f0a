//! Data-driven diagnostics tests (`tests/parse/errors/*.c` with `.expect` files) and hostile inputs that must never panic.
//!
//! Each `NAME.c` is parsed and its diagnostics, one per line as `line:col: severity:
//! message`, are compared with `NAME.expect`. Run with `UPDATE_EXPECT=1` to rewrite the
//! expectation files after an intended change (then review the diff).

mod common;

use std::path::{Path, PathBuf};

use fixloop::fuzzing::mutate::INSERTS;
use fixloop::lang::ast::{ExprKind, Item, StmtKind};
use fixloop::lang::parse;
use proptest::prelude::*;
use proptest::sample::select;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse/errors")
}

/// The diagnostics of `src`, one per line.
fn render(src: &str) -> String {
    let (_, diags) = parse(src);
    diags.iter().map(|d| format!("{d}\n")).collect()
}

#[test]
fn diagnostics_match_expect_files() {
    let paths = common::c_files(&data_dir());
    assert!(paths.len() >= 8);
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| {
            let src = std::fs::read_to_string(p).expect("readable");
            let actual = render(&src);
            assert!(!actual.is_empty(), "{} has no diagnostics", p.display());
            common::check_expect(&p.with_extension("expect"), &actual).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn several_errors_in_one_program_are_all_reported() {
    let src = "int main(void) {\n    int a = 1\n    a = a +;\n    return a\n}\n";
    let out = render(src);
    assert_eq!(
        out,
        "2:14: error: expected ';' after declaration\n\
         3:12: error: expected expression before ';'\n\
         4:13: error: expected ';' after return statement\n"
    );
}

#[test]
fn unsupported_features_say_so() {
    let (_, d) = parse("union u { int x; float f; };\nint main(void) { return 0; }\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].to_string(), "1:1: error: unsupported: union types");
    assert!(d[0].is_unsupported());
}

#[test]
fn recovery_keeps_later_functions() {
    let src = "int f(void) { return 1 +; }\nint g(void) { x = ; }\nint h(void) { return 3; }\n";
    let (tu, d) = parse(src);
    assert_eq!(d.len(), 2);
    let names: Vec<&str> = tu
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Function(f) => Some(f.name.as_str()),
            Item::Decl(_) => None,
        })
        .collect();
    assert_eq!(names, ["f", "g", "h"]);
    let Item::Function(h) = &tu.items[2] else {
        panic!()
    };
    let StmtKind::Return(Some(e)) = &h.body.stmts[0].kind else {
        panic!()
    };
    assert!(matches!(e.kind, ExprKind::IntLit { value: 3, .. }));
}

/// Runs `parse` (and printing, cloning, comparing: all recursive over the tree) on the
/// page's stack; parsing hostile input must not panic or overflow it.
fn parse_on_small_stack(src: String) -> usize {
    common::on_page_stack(move || {
        let (tu, diags) = parse(&src);
        let printed = tu.to_string();
        let copy = tu.clone();
        assert!(copy == tu);
        drop(printed);
        diags.len()
    })
}

#[test]
fn hostile_inputs_never_panic() {
    let n = 20_000;
    let mut cases: Vec<String> = vec![
        format!("int main(){{ return {}1; }}", "(".repeat(n)),
        format!(
            "int main(){{ return {}1{}; }}",
            "(".repeat(n),
            ")".repeat(n)
        ),
        format!("int main(){}", "{".repeat(n)),
        format!("int main(){}{}", "{".repeat(n), "}".repeat(n)),
        format!("int x = {}1;", "-".repeat(n)),
        format!("int x = {}1;", "!".repeat(n)),
        format!("int x = 1{};", "+1".repeat(n)),
        format!("int f(){{ {}1; }}", "a=".repeat(n)),
        format!("int f(){{ {}1; }}", "a?b:".repeat(n)),
        format!("int f(){{ {}1; }}", "1,".repeat(n)),
        format!("int {}x;", "*".repeat(n)),
        format!("int x{};", "[1]".repeat(n)),
        format!("int {}x;", "(".repeat(n)),
        format!("int f(){{ {} ; }}", "if(1)".repeat(n)),
        format!("int f(){{ {} ; }}", "while(1)".repeat(n)),
        format!("int f(){{ {} ; }}", "L:".repeat(n)),
        format!("int f(){{ a{}; }}", "[0]".repeat(n)),
        format!("int f(){{ {}; }}", "f(".repeat(n)),
        format!("int f(){{ return {}1; }}", "(int)".repeat(n)),
        format!("int f(){{ return {}1; }}", "sizeof ".repeat(n)),
        format!("int f(){{ return {}x; }}", "++".repeat(n)),
        format!("int f(){{ return x{}; }}", "++".repeat(n)),
        format!("int x[] = {};", "{".repeat(n)),
        format!("int f({});", "int (".repeat(n)),
        "#if 1\n".repeat(n),
        format!("#if {}1\n#endif\n", "(".repeat(n)),
        format!("int x = {};", "9".repeat(n)),
        format!("double x = 1e{};", "9".repeat(n)),
        format!("char *s = \"{}\";", "\\x".repeat(n)),
        "/* unterminated".to_string(),
        "int main() { char *s = \"abc".to_string(),
        "int main() { char c = 'x".to_string(),
        "\0\0\0int\0 main\0()".to_string(),
        "int main() { return 0; } \u{202e}\u{feff}é𝕏 ∀ \u{0}".to_string(),
        "#define a a a\n#define b a b a\nb b b".to_string(),
        "#define f(x) f(x) f(x)\nf(f(f(f(f(f(1))))))".to_string(),
        "#define f(x,".to_string(),
        "#define f(x) x\nf(".to_string(),
        "}}}}))))]]]];;;;".to_string(),
        "typedef".to_string(),
        "int main(".to_string(),
        "".to_string(),
        "\\".to_string(),
        "#".to_string(),
        "'".to_string(),
    ];
    let mut chain = String::from("#define m0 x\n");
    for k in 1..64 {
        chain.push_str(&format!("#define m{k} m{} m{}\n", k - 1, k - 1));
    }
    chain.push_str("int main() { return m63; }\n");
    cases.push(chain);
    let mut typedefs = String::from("typedef int t0[1];\n");
    for k in 1..2000 {
        typedefs.push_str(&format!("typedef t{} t{k}[1];\n", k - 1));
    }
    cases.push(typedefs);
    for src in cases {
        let head: String = src.chars().take(40).collect();
        let n = parse_on_small_stack(src);
        assert!(n <= 102, "too many diagnostics ({n}) for {head:?}");
    }
}

#[test]
fn wide_and_empty_inputs_give_clean_errors() {
    assert_eq!(render(""), "");
    assert_eq!(render("int main() { return 0; }"), "");
    let out = render("int main() { return 0; } @");
    assert_eq!(out, "1:26: error: stray '@' in program\n");
}

/// Fragments that random programs are made of: the fuzzer's grammar-stressing tokens
/// and more for the lexer and the preprocessor.
fn soup() -> Vec<&'static str> {
    INSERTS.iter().chain(MORE_SOUP).copied().collect()
}

const MORE_SOUP: &[&str] = &[
    "enum",
    "y",
    "f",
    "+",
    "-",
    "/",
    "%",
    "<",
    ">",
    "<=",
    "==",
    "!",
    "&&",
    "||",
    "1",
    "0x1F",
    "1e9",
    "\"s\"",
    "\n#define M(a) a+1\n",
    "\n#include <stdio.h>\n",
    "M(",
    "\n#if 0\n",
    "\n#endif\n",
    "\n#else\n",
    "'",
    "\"",
    "/*",
    "*/",
    "//",
    "\\\n",
    "\0",
    "é",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,200}") {
        let _ = parse(&s);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let s = String::from_utf8_lossy(&bytes).into_owned();
        let _ = parse(&s);
    }

    #[test]
    fn token_soups_never_panic(picks in proptest::collection::vec(select(soup()), 0..120)) {
        let src = picks.join(" ");
        let (tu, diags) = parse(&src);
        // Whatever was parsed prints and reparses without panicking.
        let _ = parse(&tu.to_string());
        for d in &diags {
            prop_assert!(d.line >= 1 && d.col >= 1);
            prop_assert!(d.span.start <= d.span.end && d.span.end as usize <= src.len());
        }
    }

    #[test]
    fn soups_inside_a_function_never_panic(picks in proptest::collection::vec(select(soup()), 0..80)) {
        let src = format!("int main(void) {{\n{}\n}}\n", picks.join(" "));
        let _ = parse(&src);
    }
}

#[test]
fn error_count_is_capped() {
    let src = "int main(void) {\n".to_string() + &"    x = + ;\n".repeat(500) + "}\n";
    let (_, d) = parse(&src);
    assert_eq!(d.len(), 101);
    assert_eq!(
        d[0].to_string(),
        "2:11: error: expected expression before ';'"
    );
    assert_eq!(d[100].message, "too many errors; stopping");
}
