//! Whether a patch special-cases inputs: the equality tests with constants it adds (`n == -30 || n == -20`), which a patch fitted to a few tests often has and a real fix rarely.
//!
//! A search over a handful of tests can pass them by listing their inputs one by one.
//! Such a patch may be right on every input anyone asked about and wrong on the next
//! one, so the page does not call it the fix. [`special_cases`] compares the equality
//! tests against constants (`x == c`, `x != c`, either side) of the program before and
//! after the patch: the patch special-cases inputs when it adds two or more of them, or
//! one whose constant is a number of a labelled input.

use crate::lang::ast::{BinaryOp, Expr, ExprKind, Item, UnaryOp};
use crate::lang::visit::for_each_expr_in_stmt;
use crate::lang::{parse, Num};

/// The constant value of `e` when it is a literal, possibly negated.
fn constant(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntLit { value, .. } => Some(i128::from(*value)),
        ExprKind::CharLit(c) => Some(i128::from(*c)),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => constant(operand).map(|v| -v),
        _ => None,
    }
}

/// The constants of every `x == c` / `x != c` comparison (against a non-constant) in
/// `source`, one entry per comparison; `None` when it does not parse.
fn equality_constants(source: &str) -> Option<Vec<i128>> {
    let (unit, diagnostics) = parse(source);
    if !diagnostics.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut note = |e: &Expr| {
        if let ExprKind::Binary {
            op: BinaryOp::Eq | BinaryOp::Ne,
            lhs,
            rhs,
        } = &e.kind
        {
            match (constant(lhs), constant(rhs)) {
                (Some(c), None) | (None, Some(c)) => out.push(c),
                _ => {}
            }
        }
    };
    for item in &unit.items {
        if let Item::Function(f) = item {
            for s in &f.body.stmts {
                for_each_expr_in_stmt(s, &mut note);
            }
        }
    }
    Some(out)
}

/// Whether `patched` special-cases inputs against `original`: it adds two or more
/// equality tests with constants, or one whose constant is a number of one of `inputs`
/// (the labelled inputs). `false` when either does not parse.
pub fn special_cases(original: &str, patched: &str, inputs: &[Vec<Num>]) -> bool {
    let (Some(before), Some(mut after)) =
        (equality_constants(original), equality_constants(patched))
    else {
        return false;
    };
    for c in before {
        if let Some(i) = after.iter().position(|&a| a == c) {
            after.swap_remove(i);
        }
    }
    let labelled = |c: i128| {
        inputs
            .iter()
            .flatten()
            .any(|n| matches!(n, Num::Int(v) if i128::from(*v) == c))
    };
    after.len() >= 2 || after.iter().any(|&c| labelled(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUGGY: &str = "int f(int n) {\n    if (n < 0 && -n / 10 < 10)\n        return 0;\n    if (n == 20)\n        return 15;\n    return n;\n}\n";

    fn ints(v: &[i64]) -> Vec<Vec<Num>> {
        v.iter().map(|&x| vec![Num::Int(x)]).collect()
    }

    #[test]
    fn a_patch_listing_inputs_special_cases_them() {
        let listing = BUGGY.replace("n < 0 && -n / 10 < 10", "n == -30 || n == -20 || n == -10");
        assert!(special_cases(BUGGY, &listing, &ints(&[-15])));
        // One added test of a labelled input's value is a special case too; of another
        // value it is not.
        let one = BUGGY.replace("n < 0 && -n / 10 < 10", "n < 0 && -n / 10 < 10 || n == 477");
        assert!(special_cases(BUGGY, &one, &ints(&[477, 3])));
        assert!(!special_cases(BUGGY, &one, &ints(&[476])));
    }

    #[test]
    fn moved_thresholds_and_existing_equalities_are_not_special_cases() {
        let moved = BUGGY.replace("-n / 10 < 10", "-n / 10 <= 10");
        assert!(!special_cases(BUGGY, &moved, &ints(&[-100])));
        // `n == 20` was there before the patch; changing its constant adds none.
        let changed = BUGGY.replace("n == 20", "n == 21");
        assert!(!special_cases(BUGGY, &changed, &ints(&[-5])));
        assert!(!special_cases(BUGGY, "int f(", &ints(&[1])));
    }
}
