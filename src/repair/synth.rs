//! Linear synthesis from angelic values: the smallest integer expression or readable condition over visible variables that fits every example.
//!
//! Engine 3 of the repair: once the values a hole must take on each test are known (the
//! *angelic values*), this module finds the code to put there.
//!
//! - [`synthesize_expression`]: examples `x -> y` (visible integer variables to the
//!   required integer value) give `c0 + c1*x1 + ... + ck*xk` with integer coefficients.
//!   Variable subsets are tried by size (0, 1, 2, ... up to `max_vars`), in the caller's
//!   variable order; each subset's linear system is solved exactly (Gaussian elimination
//!   over big rationals); within the first size that has an integer solution, the one with
//!   the smallest coefficients wins (largest `|ci|`, then their sum, then `|c0|`).
//!   Under-determined systems (too few examples) have their free coefficients searched
//!   among small nonzero integers.
//! - [`synthesize_condition`]: examples `x -> bool` give a condition, learned by
//!   [`oracle::learn`](crate::oracle::learn) (readable template atoms `x <= c`, `x == y`,
//!   `x - y <= c`, ..., smallest formula first, then a simplex half-space `a.x <= b`),
//!   printed as a C expression.
//!
//! Both are bounded (variables, subsets, free-coefficient candidates, the learner's
//! limits) and say why they stopped (the repair engines' one [`Stop`]). Arithmetic is exact; the synthesised
//! code is checked on the examples with mathematical integers (C overflow is the caller's
//! test run to judge).

use super::budget::Stop;
use super::mutate::{bin, fresh, int_lit, var};
use crate::lang::ast::{BinaryOp, Expr, ExprKind, ScalarType, UnaryOp};
use crate::oracle::{self, Example, Form, Formula, LearnConfig, Rel, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::HashMap;
use std::fmt;

/// Limits and preferences of the synthesiser. The defaults suit a repair hole with a
/// handful of visible variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthConfig {
    /// Most variables in an expression. Default 3.
    pub max_vars: usize,
    /// Most variable subsets solved in one call. Default 2000.
    pub max_subsets: usize,
    /// Largest `|ci|` of a variable's coefficient accepted. Default 64.
    pub max_coefficient: i64,
    /// Under-determined systems: free coefficients are tried in `±1..=±free_range`.
    /// Default 3.
    pub free_range: i64,
    /// Most free-coefficient assignments tried in one call. Default 10 000.
    pub max_free_candidates: usize,
    /// Whether a constant (no variables) may be the answer. Default true; a repair turns
    /// it off when a constant would only hard-code the tests.
    pub allow_constant: bool,
    /// The condition learner's limits. Default: [`LearnConfig::default`] with at most 3
    /// literals, so conditions stay readable, and linear atoms only (no remainders): a
    /// synthesised condition is a half-space or a few of them.
    pub condition: LearnConfig,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            max_vars: 3,
            max_subsets: 2000,
            max_coefficient: 64,
            free_range: 3,
            max_free_candidates: 10_000,
            allow_constant: true,
            condition: LearnConfig {
                max_literals: 3,
                remainder_atoms: false,
                ..LearnConfig::default()
            },
        }
    }
}

/// A linear integer expression `constant + sum(coefficient * variable)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinearExpr {
    /// `c0`.
    pub constant: i64,
    /// `(variable index, nonzero coefficient)`, by variable index.
    pub terms: Vec<(usize, i64)>,
}

impl LinearExpr {
    /// The value at `point` in mathematical integers (`None` on `i64` overflow or a
    /// missing variable).
    pub fn eval(&self, point: &[i64]) -> Option<i64> {
        let mut acc = i128::from(self.constant);
        for &(v, c) in &self.terms {
            acc += i128::from(c) * i128::from(*point.get(v)?);
        }
        i64::try_from(acc).ok()
    }

    /// The C text, e.g. `2 * a - b + 1`, with `names[i]` for variable `i`.
    pub fn to_c(&self, names: &[String]) -> String {
        let mut out = String::new();
        for &(v, c) in &self.terms {
            push_term(&mut out, c, &var_name(names, v));
        }
        if out.is_empty() {
            return self.constant.to_string();
        }
        match self.constant {
            0 => {}
            c if c < 0 => out.push_str(&format!(" - {}", c.unsigned_abs())),
            c => out.push_str(&format!(" + {c}")),
        }
        out
    }

    /// Largest `|coefficient|` of a variable (0 for a constant).
    pub fn max_coefficient(&self) -> u64 {
        self.terms
            .iter()
            .map(|t| t.1.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    fn preference(&self) -> (u64, u64, u64) {
        (
            self.max_coefficient(),
            self.terms.iter().map(|t| t.1.unsigned_abs()).sum(),
            self.constant.unsigned_abs(),
        )
    }
}

fn var_name(names: &[String], v: usize) -> String {
    names.get(v).cloned().unwrap_or_else(|| format!("x{v}"))
}

/// Appends `± |c| * name` (or the first term with its sign) to C text.
fn push_term(out: &mut String, c: i64, name: &str) {
    let mag = c.unsigned_abs();
    if out.is_empty() {
        if c < 0 {
            out.push('-');
        }
    } else {
        out.push_str(if c < 0 { " - " } else { " + " });
    }
    if mag == 1 {
        out.push_str(name);
    } else {
        out.push_str(&format!("{mag} * {name}"));
    }
}

/// The outcome of [`synthesize_expression`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprReport {
    /// The expression, present exactly when `stop` is [`Stop::Found`].
    pub expr: Option<LinearExpr>,
    /// Why the search stopped.
    pub stop: Stop,
    /// Variable subsets solved.
    pub subsets: usize,
    /// Distinct examples used.
    pub examples: usize,
}

impl fmt::Display for ExprReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.expr {
            Some(e) => write!(f, "expression {}", e.to_c(&[]))?,
            None => write!(f, "no expression")?,
        }
        write!(
            f,
            " ({}; {} examples, {} subsets)",
            self.stop, self.examples, self.subsets
        )
    }
}

/// Finds the linear integer expression over `nvars` variables that gives `y` at every
/// example `(x, y)`, with the fewest variables, then the smallest coefficients; see the
/// module docs.
pub fn synthesize_expression(
    examples: &[(Vec<i64>, i64)],
    nvars: usize,
    config: &SynthConfig,
) -> ExprReport {
    let report = |expr, stop, subsets, examples| ExprReport {
        expr,
        stop,
        subsets,
        examples,
    };
    if examples.is_empty() {
        return report(None, Stop::NoExamples, 0, 0);
    }
    if let Some((x, _)) = examples.iter().find(|(x, _)| x.len() != nvars) {
        let m = format!("an example has {} values, expected {nvars}", x.len());
        return report(None, Stop::Invalid(m), 0, 0);
    }
    let mut seen: HashMap<&[i64], i64> = HashMap::new();
    let mut distinct: Vec<(&[i64], i64)> = Vec::new();
    for (x, y) in examples {
        match seen.insert(x, *y) {
            Some(prev) if prev != *y => {
                let stop = Stop::Inconsistent(x.clone());
                return report(None, stop, 0, seen.len());
            }
            Some(_) => {}
            None => distinct.push((x, *y)),
        }
    }
    let n_examples = distinct.len();
    let mut budget = Budget {
        subsets: 0,
        free_candidates: 0,
        exhausted: false,
    };
    let first_size = if config.allow_constant { 0 } else { 1 };
    for size in first_size..=config.max_vars.min(nvars) {
        let mut best: Option<LinearExpr> = None;
        for subset in Subsets::new(nvars, size) {
            if budget.subsets >= config.max_subsets {
                budget.exhausted = true;
                break;
            }
            budget.subsets += 1;
            for e in solve_subset(&distinct, &subset, config, &mut budget) {
                if best
                    .as_ref()
                    .is_none_or(|b| e.preference() < b.preference())
                {
                    best = Some(e);
                }
            }
        }
        if let Some(e) = best {
            return report(Some(e), Stop::Found, budget.subsets, n_examples);
        }
        if budget.exhausted {
            break;
        }
    }
    let stop = if budget.exhausted {
        Stop::SubsetLimit(budget.subsets)
    } else {
        Stop::Exhausted
    };
    report(None, stop, budget.subsets, n_examples)
}

struct Budget {
    subsets: usize,
    free_candidates: usize,
    exhausted: bool,
}

/// The `size`-element subsets of `0..n` in lexicographic order.
struct Subsets {
    n: usize,
    current: Option<Vec<usize>>,
}

impl Subsets {
    fn new(n: usize, size: usize) -> Subsets {
        Subsets {
            n,
            current: (size <= n).then(|| (0..size).collect()),
        }
    }
}

impl Iterator for Subsets {
    type Item = Vec<usize>;
    fn next(&mut self) -> Option<Vec<usize>> {
        let out = self.current.clone()?;
        let k = out.len();
        let mut next = out.clone();
        // Advance the rightmost index that can still move.
        let mut i = k;
        loop {
            if i == 0 {
                self.current = None;
                break;
            }
            i -= 1;
            if next[i] < self.n - k + i {
                next[i] += 1;
                for j in i + 1..k {
                    next[j] = next[j - 1] + 1;
                }
                self.current = Some(next);
                break;
            }
        }
        Some(out)
    }
}

type Q = BigRational;

/// Every acceptable expression over exactly the variables of `subset` (all coefficients
/// nonzero: a zero would make it an expression of a smaller subset, tried before).
fn solve_subset(
    examples: &[(&[i64], i64)],
    subset: &[usize],
    config: &SynthConfig,
    budget: &mut Budget,
) -> Vec<LinearExpr> {
    // Unknowns: c0, then one coefficient per subset variable. Augmented rows.
    let cols = subset.len() + 1;
    let mut rows: Vec<Vec<Q>> = examples
        .iter()
        .map(|(x, y)| {
            let mut r = Vec::with_capacity(cols + 1);
            r.push(Q::one());
            r.extend(subset.iter().map(|&v| Q::from_integer(BigInt::from(x[v]))));
            r.push(Q::from_integer(BigInt::from(*y)));
            r
        })
        .collect();
    let Some(pivots) = reduce(&mut rows, cols) else {
        return Vec::new();
    };
    let free: Vec<usize> = (0..cols).filter(|c| !pivots.contains(c)).collect();
    let mut found = Vec::new();
    let range: Vec<i64> = (1..=config.free_range.max(1))
        .flat_map(|c| [c, -c])
        .collect();
    let mut choice = vec![0usize; free.len()];
    loop {
        if !free.is_empty() {
            if budget.free_candidates >= config.max_free_candidates {
                budget.exhausted = true;
                return found;
            }
            budget.free_candidates += 1;
        }
        let mut solution = vec![Q::zero(); cols];
        for (&col, &i) in free.iter().zip(&choice) {
            solution[col] = Q::from_integer(BigInt::from(range[i]));
        }
        // Pivot row r: x[pivot r] = rhs - sum over free columns.
        for (r, &p) in pivots.iter().enumerate() {
            let mut v = rows[r][cols].clone();
            for &col in &free {
                v -= &rows[r][col] * &solution[col];
            }
            solution[p] = v;
        }
        if let Some(e) = integer_expression(&solution, subset, config) {
            found.push(e);
        }
        // Next free assignment (odometer).
        let mut i = 0;
        while i < choice.len() {
            choice[i] += 1;
            if choice[i] < range.len() {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
        if i == choice.len() {
            return found;
        }
    }
}

/// Gauss-Jordan elimination of the augmented matrix (`cols` unknowns, then the right-hand
/// side) to reduced row echelon form. Returns the pivot columns (row `r` has pivot
/// `pivots[r]`), or `None` when the system is inconsistent.
fn reduce(rows: &mut Vec<Vec<Q>>, cols: usize) -> Option<Vec<usize>> {
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..rows.len()).find(|&i| !rows[i][c].is_zero()) else {
            continue;
        };
        rows.swap(r, p);
        let inv = rows[r][c].recip();
        for v in rows[r].iter_mut() {
            *v *= &inv;
        }
        let pivot_row = rows[r].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i != r && !row[c].is_zero() {
                let f = row[c].clone();
                for (v, pv) in row.iter_mut().zip(&pivot_row) {
                    *v -= &f * pv;
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    // Rows without a pivot read 0 = rhs.
    if rows[r..].iter().any(|row| !row[cols].is_zero()) {
        return None;
    }
    rows.truncate(r);
    Some(pivots)
}

fn integer_expression(
    solution: &[Q],
    subset: &[usize],
    config: &SynthConfig,
) -> Option<LinearExpr> {
    let int = |q: &Q| q.is_integer().then(|| q.to_integer().to_i64()).flatten();
    let constant = int(&solution[0])?;
    let mut terms = Vec::with_capacity(subset.len());
    for (&v, q) in subset.iter().zip(&solution[1..]) {
        let c = int(q)?;
        if c == 0 || c.unsigned_abs() > config.max_coefficient.unsigned_abs() {
            return None;
        }
        terms.push((v, c));
    }
    Some(LinearExpr { constant, terms })
}

/// A synthesised condition: a formula over the visible variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    /// The learned formula (true where the condition must hold).
    pub formula: Formula,
}

impl Condition {
    /// Whether the condition holds at `point`.
    pub fn eval(&self, point: &[i64]) -> bool {
        let p: Vec<Value> = point.iter().map(|&v| Value::Int(v)).collect();
        self.formula.eval(&p)
    }

    /// The C text, e.g. `a > b && c <= 3`, using the formula's variable names.
    pub fn to_c(&self) -> String {
        formula_to_c(&self.formula)
    }
}

/// The outcome of [`synthesize_condition`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionReport {
    /// The condition, present exactly when `stop` is [`Stop::Found`].
    pub condition: Option<Condition>,
    /// Why the search stopped.
    pub stop: Stop,
    /// Examples given.
    pub examples: usize,
}

impl fmt::Display for ConditionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.condition {
            Some(c) => write!(f, "condition {}", c.to_c())?,
            None => write!(f, "no condition")?,
        }
        write!(f, " ({}; {} examples)", self.stop, self.examples)
    }
}

/// Finds a readable condition over the variables `names` that is true exactly on the
/// examples labelled `true`; see the module docs.
pub fn synthesize_condition(
    names: &[String],
    examples: &[(Vec<i64>, bool)],
    config: &SynthConfig,
) -> ConditionReport {
    let report = |condition, stop| ConditionReport {
        condition,
        stop,
        examples: examples.len(),
    };
    if examples.is_empty() {
        return report(None, Stop::NoExamples);
    }
    let data: Vec<Example> = examples
        .iter()
        .map(|(x, holds)| Example {
            point: x.iter().map(|&v| Value::Int(v)).collect(),
            bug: *holds,
        })
        .collect();
    let learned = oracle::learn(names, &data, &config.condition);
    match (learned.formula, learned.stop) {
        (Some(formula), oracle::StopReason::Found) => {
            report(Some(Condition { formula }), Stop::Found)
        }
        (_, oracle::StopReason::Contradiction { point }) => {
            let input = point.iter().filter_map(Value::as_i64).collect();
            report(None, Stop::Inconsistent(input))
        }
        (_, oracle::StopReason::Invalid(m)) => report(None, Stop::Invalid(m)),
        (_, stop) => report(None, Stop::Learner(stop.to_string())),
    }
}

/// A formula as a C expression over integer variables (`=` becomes `==`, `and` `&&`,
/// `or` `||`; rational bounds are rounded to the equivalent integer bound), written as a
/// person would: see [`formula_expr`].
pub fn formula_to_c(formula: &Formula) -> String {
    formula_expr(formula).to_string()
}

/// A formula over integer variables as a C condition, each atom in its most readable
/// form ([`atom_expr`]): `a == b && a == c`, never `a - b == 0 && a - c == 0`.
pub fn formula_expr(f: &Formula) -> Expr {
    let names = f.vars();
    let (inner, outer, empty) = match f.form() {
        Form::Cnf => (BinaryOp::LogOr, BinaryOp::LogAnd, 1),
        Form::Dnf => (BinaryOp::LogAnd, BinaryOp::LogOr, 0),
    };
    let join = |items: Vec<Expr>, op| items.into_iter().reduce(|a, b| bin(op, a, b));
    let groups: Vec<Expr> = f
        .groups()
        .iter()
        .filter_map(|g| {
            let atoms = g
                .iter()
                .map(|a| match int_atom(a) {
                    IntAtom::Always(b) => int_lit(i64::from(b), ScalarType::Int),
                    IntAtom::Compare {
                        terms,
                        modulus,
                        rel,
                        bound,
                    } => atom_expr(&terms, modulus, rel, bound, names),
                })
                .collect();
            join(atoms, inner)
        })
        .collect();
    join(groups, outer).unwrap_or_else(|| int_lit(empty, ScalarType::Int))
}

/// The comparison `sum(c * x) REL bound` (or `x % m REL bound`) as a person writes it:
/// positive terms first, the sign flipped where every coefficient is negative (`-x <= 3`
/// is `x >= -3`), and a difference of two variables as a comparison between them (`x - y
/// == 0` is `x == y`, `x - y > 2` is `x > y + 2`).
pub fn atom_expr(
    terms: &[(usize, i64)],
    modulus: Option<i64>,
    rel: Rel,
    bound: i64,
    names: &[String],
) -> Expr {
    let op = |rel: Rel| match rel {
        Rel::Le => BinaryOp::Le,
        Rel::Lt => BinaryOp::Lt,
        Rel::Ge => BinaryOp::Ge,
        Rel::Gt => BinaryOp::Gt,
        Rel::Eq => BinaryOp::Eq,
        Rel::Ne => BinaryOp::Ne,
    };
    let name = |v: usize| var(&var_name(names, v));
    if let (Some(m), [(x, _)]) = (modulus, terms) {
        let lhs = bin(BinaryOp::Rem, name(*x), int_lit(m, ScalarType::Int));
        return bin(op(rel), lhs, int_lit(bound, ScalarType::Int));
    }
    let negated = terms.iter().all(|t| t.1 < 0) && bound.checked_neg().is_some();
    let (terms, rel, bound): (Vec<(usize, i64)>, Rel, i64) = if negated {
        (
            terms.iter().map(|&(v, c)| (v, -c)).collect(),
            rel.flip(),
            -bound,
        )
    } else {
        (terms.to_vec(), rel, bound)
    };
    let mut ordered = terms.clone();
    ordered.sort_by_key(|t| t.1 < 0);
    if let [(x, 1), (y, -1)] = ordered[..] {
        let rhs = match bound {
            0 => name(y),
            b if b > 0 => bin(BinaryOp::Add, name(y), int_lit(b, ScalarType::Int)),
            b => match b.checked_neg() {
                Some(m) => bin(BinaryOp::Sub, name(y), int_lit(m, ScalarType::Int)),
                None => bin(BinaryOp::Add, name(y), int_lit(b, ScalarType::Int)),
            },
        };
        return bin(op(rel), name(x), rhs);
    }
    let lhs = sum_expr(&ordered, &|v| var(&var_name(names, v)), 0);
    bin(op(rel), lhs, int_lit(bound, ScalarType::Int))
}

/// `c0 + sum(ci * xi)` as an AST over the named variables (no `* 1`, no `+ 0`).
pub fn linear_expr(e: &LinearExpr, names: &[String]) -> Expr {
    sum_expr(&e.terms, &|v| var(&var_name(names, v)), e.constant)
}

/// `constant + sum(c * name(v))` as C, written as a person would (`2 * a - b + 1`).
pub fn sum_expr(terms: &[(usize, i64)], name: &dyn Fn(usize) -> Expr, constant: i64) -> Expr {
    let term = |v: usize, c: i64| match c.unsigned_abs() {
        1 => name(v),
        m => bin(BinaryOp::Mul, int_lit(m as i64, ScalarType::Int), name(v)),
    };
    let mut acc: Option<Expr> = None;
    for &(v, c) in terms {
        acc = Some(match acc {
            None if c == -1 => fresh(ExprKind::Unary {
                op: UnaryOp::Neg,
                operand: Box::new(name(v)),
            }),
            None if c < 0 => bin(BinaryOp::Mul, int_lit(c, ScalarType::Int), name(v)),
            None => term(v, c),
            Some(a) if c < 0 => bin(BinaryOp::Sub, a, term(v, c)),
            Some(a) => bin(BinaryOp::Add, a, term(v, c)),
        });
    }
    match acc {
        None => int_lit(constant, ScalarType::Int),
        Some(a) if constant < 0 => bin(BinaryOp::Sub, a, int_lit(-constant, ScalarType::Int)),
        Some(a) if constant > 0 => bin(BinaryOp::Add, a, int_lit(constant, ScalarType::Int)),
        Some(a) => a,
    }
}

/// A linear atom over integer variables with its bound rounded to an integer: what a
/// C condition can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntAtom {
    /// The atom is constant (e.g. `x = 5/2` on integers is never true).
    Always(bool),
    /// `sum(c * x) REL bound`, or `x % modulus REL bound` with a modulus.
    Compare {
        /// `(variable index, coefficient)`, nonzero coefficients.
        terms: Vec<(usize, i64)>,
        /// `Some(m)`: the left side is the one term's C remainder modulo `m`.
        modulus: Option<i64>,
        /// The comparison.
        rel: Rel,
        /// The integer bound.
        bound: i64,
    },
}

/// The integer form of `atom`: the left side is an integer on integer points, so a
/// fractional bound becomes the nearest integer bound with the same meaning. A bound
/// beyond `i64` makes the atom constant.
pub fn int_atom(atom: &oracle::Atom) -> IntAtom {
    let rhs = atom.rhs().to_rational();
    let (floor, ceil) = (rhs.floor().to_integer(), rhs.ceil().to_integer());
    let integral = rhs.is_integer();
    let (rel, bound): (Rel, BigInt) = match atom.rel() {
        Rel::Le => (Rel::Le, floor),
        Rel::Gt => (Rel::Gt, floor),
        Rel::Lt => (Rel::Lt, ceil),
        Rel::Ge => (Rel::Ge, ceil),
        Rel::Eq if !integral => return IntAtom::Always(false),
        Rel::Ne if !integral => return IntAtom::Always(true),
        r => (r, floor),
    };
    let terms = atom.terms().to_vec();
    let holds_at_zero = |b: &BigInt| match rel {
        Rel::Le => !b.is_negative(),
        Rel::Lt => b.is_positive(),
        Rel::Ge => !b.is_positive(),
        Rel::Gt => b.is_negative(),
        Rel::Eq => b.is_zero(),
        Rel::Ne => !b.is_zero(),
    };
    if terms.is_empty() {
        return IntAtom::Always(holds_at_zero(&bound));
    }
    match bound.to_i64() {
        Some(bound) => IntAtom::Compare {
            terms,
            modulus: atom.modulus(),
            rel,
            bound,
        },
        // A bound beyond i64 is beyond any i64 left side: the atom is decided by its
        // direction alone (equality never holds).
        None => IntAtom::Always(match rel {
            Rel::Le | Rel::Lt => bound.is_positive(),
            Rel::Ge | Rel::Gt => bound.is_negative(),
            Rel::Eq => false,
            Rel::Ne => true,
        }),
    }
}

/// The C operator of a relation.
pub fn c_operator(rel: Rel) -> &'static str {
    match rel {
        Rel::Eq => "==",
        r => r.symbol(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    fn fit(examples: &[(Vec<i64>, i64)], nvars: usize) -> ExprReport {
        synthesize_expression(examples, nvars, &SynthConfig::default())
    }

    #[test]
    fn recovers_a_two_variable_expression() {
        let target = |x: &[i64]| 2 * x[0] - x[2] + 3;
        let points = [[1, 5, 2], [4, -1, 0], [0, 0, 7], [3, 3, 3], [-2, 8, 1]];
        let ex: Vec<(Vec<i64>, i64)> = points.iter().map(|p| (p.to_vec(), target(p))).collect();
        let r = fit(&ex, 3);
        assert_eq!(r.stop, Stop::Found, "{r}");
        let e = r.expr.unwrap();
        assert_eq!(e.terms, vec![(0, 2), (2, -1)]);
        assert_eq!(e.constant, 3);
        assert_eq!(e.to_c(&names(&["a", "b", "c"])), "2 * a - c + 3");
    }

    #[test]
    fn fewer_variables_win_over_smaller_coefficients() {
        // y = 5*a fits; so does a + b + ... only with more variables.
        let ex: Vec<(Vec<i64>, i64)> = [[1, 4], [2, 8], [3, 12]]
            .iter()
            .map(|p| (p.to_vec(), 5 * p[0]))
            .collect();
        let e = fit(&ex, 2).expr.unwrap();
        assert_eq!(e.terms.len(), 1);
        assert_eq!(e.eval(&[10, 0]), Some(50));
    }

    #[test]
    fn under_determined_prefers_small_coefficients() {
        // One example: the constant 7 fits, unless constants are not allowed; then the
        // smallest single-variable expression is chosen.
        let ex = vec![(vec![2, 3], 7)];
        assert_eq!(fit(&ex, 2).expr.unwrap().to_c(&[]), "7");
        let cfg = SynthConfig {
            allow_constant: false,
            ..SynthConfig::default()
        };
        let e = synthesize_expression(&ex, 2, &cfg).expr.unwrap();
        assert_eq!(e.max_coefficient(), 1);
        assert_eq!(e.eval(&[2, 3]), Some(7));
        // a + 5 and b + 4 tie on coefficients; the smaller constant wins.
        assert_eq!(e.to_c(&names(&["a", "b"])), "b + 4");
    }

    #[test]
    fn non_integer_or_inconsistent_data_is_a_typed_stop() {
        // y = x / 2 has no integer-coefficient linear form.
        let ex: Vec<(Vec<i64>, i64)> = (0..6).map(|x| (vec![2 * x], x)).collect();
        assert_eq!(fit(&ex, 1).stop, Stop::Exhausted);
        let ex: Vec<(Vec<i64>, i64)> = (0..6).map(|x| (vec![x], x / 2)).collect();
        let r = fit(&ex, 1);
        assert_eq!(r.stop, Stop::Exhausted);
        assert!(r.expr.is_none());
        let r = fit(&[(vec![1], 1), (vec![1], 2)], 1);
        assert_eq!(r.stop, Stop::Inconsistent(vec![1]));
        assert_eq!(fit(&[], 1).stop, Stop::NoExamples);
        assert!(matches!(fit(&[(vec![1, 2], 1)], 1).stop, Stop::Invalid(_)));
    }

    #[test]
    fn subset_budget_is_a_typed_stop() {
        let ex: Vec<(Vec<i64>, i64)> = (0..8)
            .map(|i| {
                let x: Vec<i64> = (0..6).map(|j| (i * 7 + j * 3) % 11 - 5).collect();
                let y = x[3] * x[4]; // not linear
                (x, y)
            })
            .collect();
        let cfg = SynthConfig {
            max_subsets: 10,
            ..SynthConfig::default()
        };
        let r = synthesize_expression(&ex, 6, &cfg);
        assert_eq!(r.stop, Stop::SubsetLimit(10), "{r}");
    }

    #[test]
    fn condition_is_readable_c() {
        // The condition must hold exactly when a > b.
        let ex: Vec<(Vec<i64>, bool)> =
            [[3, 1], [5, 5], [0, 2], [7, -1], [-3, -3], [2, 9], [10, 4]]
                .iter()
                .map(|p| (p.to_vec(), p[0] > p[1]))
                .collect();
        let r = synthesize_condition(&names(&["a", "b"]), &ex, &SynthConfig::default());
        assert_eq!(r.stop, Stop::Found, "{r}");
        let c = r.condition.unwrap();
        assert_eq!(c.to_c(), "a > b");
        for (x, holds) in &ex {
            assert_eq!(c.eval(x), *holds);
        }
    }

    #[test]
    fn condition_with_a_constant_bound_and_a_conjunction() {
        let ex: Vec<(Vec<i64>, bool)> = (-4..8)
            .flat_map(|a| (-3..4).map(move |b| (vec![a, b], a >= 2 && b != 0)))
            .collect();
        let r = synthesize_condition(&names(&["a", "b"]), &ex, &SynthConfig::default());
        let c = r.condition.expect("a condition");
        assert_eq!(c.to_c(), "b != 0 && a >= 2");
    }

    #[test]
    fn contradictory_condition_examples() {
        let ex = vec![(vec![1, 2], true), (vec![1, 2], false)];
        let r = synthesize_condition(&names(&["a", "b"]), &ex, &SynthConfig::default());
        assert_eq!(r.stop, Stop::Inconsistent(vec![1, 2]));
    }

    #[test]
    fn fractional_bounds_print_as_integer_bounds() {
        use crate::oracle::Atom;
        let names = names(&["x", "y"]);
        let half = |n| Value::fraction(n, 2).unwrap();
        let f = |a: Atom| formula_to_c(&Formula::dnf(names.clone(), vec![vec![a]]));
        assert_eq!(f(Atom::var_const(0, Rel::Le, half(5))), "x <= 2");
        assert_eq!(f(Atom::var_const(0, Rel::Lt, half(5))), "x < 3");
        assert_eq!(f(Atom::var_const(0, Rel::Ge, half(5))), "x >= 3");
        assert_eq!(f(Atom::var_const(0, Rel::Gt, half(-5))), "x > -3");
        assert_eq!(f(Atom::var_const(0, Rel::Eq, half(5))), "0");
        assert_eq!(
            f(Atom::new(&[(0, 2), (1, -3)], Rel::Le, Value::Int(4))),
            "2 * x - 3 * y <= 4"
        );
        assert_eq!(
            f(Atom::new(&[(0, 1), (1, -1)], Rel::Le, Value::Int(-1))),
            "x <= y - 1"
        );
        assert_eq!(
            f(Atom::remainder(1, 10, Rel::Ne, Value::ZERO)),
            "y % 10 != 0"
        );
        assert_eq!(
            f(Atom::remainder(0, 3, Rel::Eq, Value::Int(-1))),
            "x % 3 == -1"
        );
        assert_eq!(formula_to_c(&Formula::truth(names.clone())), "1");
        assert_eq!(formula_to_c(&Formula::falsity(names)), "0");
    }

    #[test]
    fn subsets_are_lexicographic_and_complete() {
        let all: Vec<Vec<usize>> = Subsets::new(4, 2).collect();
        assert_eq!(
            all,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert_eq!(
            Subsets::new(3, 0).collect::<Vec<_>>(),
            vec![Vec::<usize>::new()]
        );
        assert_eq!(Subsets::new(2, 3).count(), 0);
    }
}
