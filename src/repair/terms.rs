//! Non-linear terms for expression synthesis: products, triangular numbers, quotients and remainders of the visible variables by the program's constants.
//!
//! [`synthesize_expression`] fits `c0 + c1*x1 + ...` over whatever columns it is given.
//! Given [`Term`] columns instead of the bare variables it finds `n * (n + 1) / 2`,
//! `a % 4`, `x / 10 + 1` or `a * b - c`: each term is one column, so the smallest
//! expression in terms (fewest terms, then smallest coefficients) is what a person writes
//! (`n * (n + 1) / 2`, never `n * n / 2 + n / 2`). Terms are evaluated with C's integer
//! division and remainder; a term that overflows `i64` at some example is left out.

use super::mutate::{bin, int_lit, var};
use super::synth::{sum_expr, synthesize_expression, LinearExpr, SynthConfig};
use crate::lang::ast::{BinaryOp, Expr, ScalarType};

/// One column of a non-linear fit, over variable indices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// `x`.
    Var(usize),
    /// `x * y` (`x * x` when both are the same).
    Product(usize, usize),
    /// `x * (x + 1) / 2` (`plus`) or `x * (x - 1) / 2`.
    Triangular {
        /// The variable.
        x: usize,
        /// `x + 1` rather than `x - 1`.
        plus: bool,
    },
    /// `x / c` (C's truncating division).
    Div(usize, i64),
    /// `x % c` (C's remainder).
    Rem(usize, i64),
}

impl Term {
    /// The value at `point` in C's arithmetic on 64-bit integers (`None` on overflow).
    pub fn eval(&self, point: &[i64]) -> Option<i64> {
        let at = |v: usize| point.get(v).copied();
        match *self {
            Term::Var(x) => at(x),
            Term::Product(x, y) => at(x)?.checked_mul(at(y)?),
            Term::Triangular { x, plus } => {
                let n = at(x)?;
                let m = if plus {
                    n.checked_add(1)?
                } else {
                    n.checked_sub(1)?
                };
                Some(n.checked_mul(m)? / 2)
            }
            Term::Div(x, c) => at(x)?.checked_div(c),
            Term::Rem(x, c) => at(x)?.checked_rem(c),
        }
    }

    /// The term as C over `names` (`n * (n + 1) / 2`).
    pub fn expr(&self, names: &[String]) -> Expr {
        let name = |v: usize| var(names.get(v).map_or("x", String::as_str));
        let int = |c: i64| int_lit(c, ScalarType::Int);
        match *self {
            Term::Var(x) => name(x),
            Term::Product(x, y) => bin(BinaryOp::Mul, name(x), name(y)),
            Term::Triangular { x, plus } => {
                let op = if plus { BinaryOp::Add } else { BinaryOp::Sub };
                let product = bin(BinaryOp::Mul, name(x), bin(op, name(x), int(1)));
                bin(BinaryOp::Div, product, int(2))
            }
            Term::Div(x, c) => bin(BinaryOp::Div, name(x), int(c)),
            Term::Rem(x, c) => bin(BinaryOp::Rem, name(x), int(c)),
        }
    }
}

/// Most divisors taken from the program's constants (beside 2 and 10).
const MAX_DIVISORS: usize = 6;

/// The terms over `nvars` variables: the variables themselves, then triangular numbers,
/// products and squares, then quotients and remainders by 2, 10 and the program's
/// positive `constants` up to 1000 (at most [`MAX_DIVISORS`] of them, smallest first).
pub fn terms(nvars: usize, constants: &[i64]) -> Vec<Term> {
    let mut divisors: Vec<i64> = vec![2, 10];
    let mut extra: Vec<i64> = constants
        .iter()
        .copied()
        .filter(|&c| (2..=1000).contains(&c) && c != 10)
        .collect();
    extra.sort_unstable();
    extra.dedup();
    divisors.extend(extra.into_iter().take(MAX_DIVISORS));
    divisors.sort_unstable();
    divisors.dedup();
    let mut out: Vec<Term> = (0..nvars).map(Term::Var).collect();
    for x in 0..nvars {
        out.push(Term::Triangular { x, plus: true });
        out.push(Term::Triangular { x, plus: false });
    }
    for x in 0..nvars {
        for y in x..nvars {
            out.push(Term::Product(x, y));
        }
    }
    for x in 0..nvars {
        for &c in &divisors {
            out.push(Term::Div(x, c));
            out.push(Term::Rem(x, c));
        }
    }
    out
}

/// A fitted expression over [`Term`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermExpr {
    /// The fit, whose variable `i` is `terms[i]`.
    pub linear: LinearExpr,
    /// The columns.
    pub terms: Vec<Term>,
}

impl TermExpr {
    /// The expression as C over the variables `names`, positive terms first (`n / 2 -
    /// a / 2 + 1`, not `-(a / 2) + n / 2 + 1`).
    pub fn expr(&self, names: &[String]) -> Expr {
        let term = |i: usize| self.terms[i].expr(names);
        let mut ordered = self.linear.terms.clone();
        ordered.sort_by_key(|&(_, c)| c < 0);
        sum_expr(&ordered, &term, self.linear.constant)
    }

    /// The value at `point` (`None` on overflow).
    pub fn eval(&self, point: &[i64]) -> Option<i64> {
        let columns = self
            .terms
            .iter()
            .map(|t| t.eval(point))
            .collect::<Option<Vec<i64>>>()?;
        self.linear.eval(&columns)
    }
}

/// The smallest expression in at most `max_terms` terms that gives `y` at every example
/// `(x, y)` and uses at least one term that is not a bare variable (the linear fit over
/// the bare variables is [`synthesize_expression`]'s to find). The system must be
/// over-determined by at least one example, so a fit is evidence rather than
/// interpolation. `None` when none fits within `config`'s bounds.
pub fn synthesize_with_terms(
    examples: &[(Vec<i64>, i64)],
    nvars: usize,
    constants: &[i64],
    max_terms: usize,
    config: &SynthConfig,
) -> Option<TermExpr> {
    let all = terms(nvars, constants);
    // Only terms defined (no overflow) at every example, each distinct as a column.
    let mut kept: Vec<Term> = Vec::new();
    let mut columns: Vec<Vec<i64>> = Vec::new();
    for t in all {
        let Some(col) = examples
            .iter()
            .map(|(x, _)| t.eval(x))
            .collect::<Option<Vec<i64>>>()
        else {
            continue;
        };
        if columns.contains(&col) {
            continue;
        }
        kept.push(t);
        columns.push(col);
    }
    let rows: Vec<(Vec<i64>, i64)> = examples
        .iter()
        .enumerate()
        .map(|(i, (_, y))| (columns.iter().map(|c| c[i]).collect(), *y))
        .collect();
    let mut distinct: Vec<&Vec<i64>> = rows.iter().map(|r| &r.0).collect();
    distinct.sort();
    distinct.dedup();
    let config = SynthConfig {
        max_vars: max_terms,
        allow_constant: false,
        ..config.clone()
    };
    let found = synthesize_expression(&rows, kept.len(), &config).expr?;
    let nonlinear = found
        .terms
        .iter()
        .any(|&(i, _)| !matches!(kept[i], Term::Var(_)));
    let unknowns = found.terms.len() + 1;
    (nonlinear && distinct.len() > unknowns).then_some(TermExpr {
        linear: found,
        terms: kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn finds_the_triangular_sum_as_a_person_writes_it() {
        let examples: Vec<(Vec<i64>, i64)> = (1..=6).map(|n| (vec![n], n * (n + 1) / 2)).collect();
        let e = synthesize_with_terms(&examples, 1, &[], 2, &SynthConfig::default()).unwrap();
        assert_eq!(e.expr(&names(&["n"])).to_string(), "n * (n + 1) / 2");
        assert_eq!(e.eval(&[100]), Some(5050));
    }

    #[test]
    fn finds_products_and_remainders_by_the_programs_constants() {
        let examples: Vec<(Vec<i64>, i64)> = [(3, 4), (5, 2), (7, 7), (0, 9), (2, 3)]
            .iter()
            .map(|&(a, b)| (vec![a, b], a * b + 1))
            .collect();
        let e = synthesize_with_terms(&examples, 2, &[], 2, &SynthConfig::default()).unwrap();
        assert_eq!(e.expr(&names(&["a", "b"])).to_string(), "a * b + 1");
        let examples: Vec<(Vec<i64>, i64)> = [1996, 1997, 2000, 2001, 2003, 1900]
            .iter()
            .map(|&y| (vec![y], y % 7))
            .collect();
        let e = synthesize_with_terms(&examples, 1, &[7], 2, &SynthConfig::default()).unwrap();
        assert_eq!(e.expr(&names(&["y"])).to_string(), "y % 7");
    }

    #[test]
    fn positive_terms_are_written_first() {
        let examples: Vec<(Vec<i64>, i64)> = [(2, 10), (4, 10), (6, 9), (3, 7), (8, 20), (1, 1)]
            .iter()
            .map(|&(a, n)| (vec![a, n], n / 2 - a / 2 + 1))
            .collect();
        let e = synthesize_with_terms(&examples, 2, &[], 2, &SynthConfig::default()).unwrap();
        assert_eq!(e.expr(&names(&["a", "n"])).to_string(), "n / 2 - a / 2 + 1");
    }

    #[test]
    fn a_linear_target_or_too_few_examples_gives_nothing() {
        let linear: Vec<(Vec<i64>, i64)> = (0..6).map(|n| (vec![n], 2 * n + 1)).collect();
        assert!(synthesize_with_terms(&linear, 1, &[], 2, &SynthConfig::default()).is_none());
        // Two points fit a constant plus any one term: no evidence, no answer.
        let two = vec![(vec![3], 6), (vec![4], 10)];
        assert!(synthesize_with_terms(&two, 1, &[], 2, &SynthConfig::default()).is_none());
    }

    #[test]
    fn overflowing_terms_are_left_out() {
        // `x * x` overflows at the first example; `x / 2` is still found.
        let big = i64::MAX / 2;
        let examples: Vec<(Vec<i64>, i64)> = [big, 4, 7, 9, -5]
            .iter()
            .map(|&x| (vec![x], x / 2))
            .collect();
        let e = synthesize_with_terms(&examples, 1, &[], 1, &SynthConfig::default()).unwrap();
        assert_eq!(e.expr(&names(&["x"])).to_string(), "x / 2");
        assert!(!e.terms.contains(&Term::Product(0, 0)));
    }
}
