//! Widening a type: a declaration's `int` becomes `long long`, and every printf/scanf conversion of its variables gets the `ll` length with it.
//!
//! The fix for a value that does not fit `int` (a product of two large inputs, a sum of
//! many) is rarely one expression: the declaration, the `scanf` that reads the variable
//! and the `printf` that prints it change together. [`widenings`] makes that one patch
//! per declaration written `int` ([`RepairSource::int_declarations`]): an
//! [`Edit::WidenDecl`] and, for each call whose format converts an argument that uses
//! one of its variables, the format with `ll` there (an [`Edit::ReplaceExpr`] of kind
//! [`EditKind::WidenType`], free: the patch costs one widening).

use super::budget::{Gate, Stop};
use super::cost::EditKind;
use super::mutate::{format_call, fresh, is_integer, with_lengths};
use super::patch::{Edit, Patch, RepairSource};
use super::tests::TestSuite;
use super::RepairConfig;
use crate::lang::ast::{Expr, ExprKind};
use crate::lang::compile;
use crate::lang::format::{conversions, Length};
use crate::lang::visit::for_each_expr;

/// One widening patch per declaration written `int`, in source order (see the module
/// docs).
pub fn widenings(src: &RepairSource) -> Vec<Patch> {
    let calls = format_calls(src);
    src.int_declarations()
        .into_iter()
        .map(|(decl, names)| {
            let mut edits = vec![Edit::WidenDecl { target: decl }];
            for call in &calls {
                edits.extend(widened_format(call, &names));
            }
            Patch { edits }
        })
        .collect()
}

/// The printf/scanf calls of the program's statements, in source order.
fn format_calls(src: &RepairSource) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    for &s in src.statements() {
        let Some(info) = src.stmt(s) else { continue };
        for &root in &info.own_exprs {
            let Some(e) = src.expr(root) else { continue };
            for_each_expr(e, &mut |x| {
                if let ExprKind::Call { callee, args, .. } = &x.kind {
                    if format_call(callee, args).is_some() && !out.iter().any(|c| c.id == x.id) {
                        out.push(x.clone());
                    }
                }
            });
        }
    }
    out
}

/// The edit that gives `call`'s integer conversions of arguments using `names` the `ll`
/// length, or `None` when none needs it.
fn widened_format(call: &Expr, names: &[String]) -> Option<Edit> {
    let ExprKind::Call { callee, args, .. } = &call.kind else {
        return None;
    };
    let (at, format, _) = format_call(callee, args)?;
    if format.contains(&b'*') {
        return None;
    }
    let uses = |a: &Expr| {
        let mut found = false;
        for_each_expr(a, &mut |x| {
            found |= matches!(&x.kind, ExprKind::Ident(n) if names.contains(n));
        });
        found
    };
    let chosen: Vec<(std::ops::Range<usize>, &[u8])> = conversions(format)
        .iter()
        .zip(&args[at + 1..])
        .filter(|(c, a)| is_integer(c.conv) && c.length != Length::LongLong && uses(a))
        .map(|(c, _)| (c.length_at.clone(), &b"ll"[..]))
        .collect();
    (!chosen.is_empty()).then(|| Edit::ReplaceExpr {
        target: args[at].id,
        with: fresh(ExprKind::StringLit(with_lengths(format, &chosen))),
        kind: EditKind::WidenType,
    })
}

/// The widenings that pass every test (each compiled and run on the suite through
/// `gate`), or why the gate stopped.
pub fn widen(
    src: &RepairSource,
    suite: &TestSuite,
    config: &RepairConfig,
    gate: &mut Gate,
) -> Result<Vec<Patch>, Stop> {
    let mut plausible = Vec::new();
    for patch in widenings(src) {
        if patch.cost(&config.costs) > config.budget {
            continue;
        }
        let Ok(text) = src.apply(&patch, &config.trusted_lines) else {
            continue;
        };
        let Ok(program) = compile(&text) else {
            continue;
        };
        gate.candidates(1)?;
        gate.stats.candidates_decided += 1;
        let mut passes = true;
        for &t in suite.order() {
            gate.execution()?;
            gate.stats.plain_executions += 1;
            if !suite.run(&program, t).1 {
                passes = false;
                break;
            }
        }
        if passes {
            gate.plausible(patch.cost(&config.costs));
            plausible.push(patch);
        }
    }
    Ok(plausible)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::gp_program::fixture;

    #[test]
    fn a_product_that_overflows_int_is_widened_with_its_conversions() {
        let prog = "#include <stdio.h>\nint main() {\n    int a, b;\n    int n = 2;\n    scanf(\"%d %d\", &a, &b);\n    printf(\"%d %d\\n\", a * b, n);\n    return 0;\n}\n";
        let (src, _, _) = fixture(prog, "3 4 => 12 2\n");
        let patches = widenings(&src);
        assert_eq!(patches.len(), 2, "{patches:?}");
        let text = src.apply(&patches[0], &Default::default()).unwrap();
        assert!(text.contains("long long a, b;"), "{text}");
        assert!(text.contains("scanf(\"%lld %lld\", &a, &b)"), "{text}");
        // `n` stays an int, and its conversion with it.
        assert!(text.contains("printf(\"%lld %d\\n\", a * b, n)"), "{text}");
        assert_eq!(patches[0].cost(&Default::default()), 3);
        let (_, suite, _) = fixture(&text, "100000 100000 => 10000000000 2\n");
        assert!(suite.failing().is_empty(), "{text}");
    }

    #[test]
    fn only_declarations_written_int_are_widened() {
        let prog = "#include <stdio.h>\nunsigned int u;\nstatic int s;\nconst int c = 1;\nint g[3];\nint main() {\n    long x;\n    scanf(\"%ld\", &x);\n    printf(\"%ld\\n\", x + g[0] + u + s + c);\n    return 0;\n}\n";
        let (src, _, _) = fixture(prog, "1 => 2\n");
        let names: Vec<Vec<String>> = src.int_declarations().into_iter().map(|d| d.1).collect();
        assert_eq!(names, vec![vec!["g".to_string()]]);
    }
}
