//! Linear and remainder atoms and CNF/DNF formulas over them: exact evaluation and
//! readable printing.

use super::number::Value;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::Zero;
use std::fmt;

/// The comparison of a linear atom `a.x REL c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `=`
    Eq,
    /// `!=`
    Ne,
}

impl Rel {
    /// The relation that holds exactly when this one does not.
    pub fn negate(self) -> Rel {
        match self {
            Rel::Le => Rel::Gt,
            Rel::Lt => Rel::Ge,
            Rel::Ge => Rel::Lt,
            Rel::Gt => Rel::Le,
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
        }
    }

    /// The relation after multiplying both sides by -1.
    pub fn flip(self) -> Rel {
        match self {
            Rel::Le => Rel::Ge,
            Rel::Lt => Rel::Gt,
            Rel::Ge => Rel::Le,
            Rel::Gt => Rel::Lt,
            Rel::Eq => Rel::Eq,
            Rel::Ne => Rel::Ne,
        }
    }

    /// The printed symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Le => "<=",
            Rel::Lt => "<",
            Rel::Ge => ">=",
            Rel::Gt => ">",
            Rel::Eq => "=",
            Rel::Ne => "!=",
        }
    }

    /// Whether the relation holds between a left-hand side and a right-hand side that
    /// compare as `ord`.
    pub(crate) fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Rel::Le => ord != Greater,
            Rel::Lt => ord == Less,
            Rel::Ge => ord != Less,
            Rel::Gt => ord == Greater,
            Rel::Eq => ord == Equal,
            Rel::Ne => ord != Equal,
        }
    }
}

/// A linear constraint `sum(a_i * x_i) REL c` with integer coefficients and a rational
/// constant, or a remainder constraint `x % m REL c` on one variable.
///
/// The remainder is C's (truncated toward zero, so `-7 % 3 = -1`), so a printed atom
/// means the same as the C expression; a non-integer `x` has no remainder and satisfies
/// only `!=`.
///
/// Normal form (established by [`Atom::new`]): terms sorted by variable, no zero
/// coefficients, coefficients with gcd 1, first coefficient positive (the relation is
/// flipped to keep the meaning). Two atoms with the same meaning in normal form are
/// equal, and printing then parsing gives the same atom back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    terms: Vec<(usize, i64)>,
    rel: Rel,
    rhs: Value,
    /// `rhs` as `num/den` in `i128` when it fits: the fast evaluation path.
    rhs_fast: Option<(i128, i128)>,
    /// `Some(m)`: the atom is `x % m REL rhs` for its single term `(x, 1)`.
    modulus: Option<i64>,
}

impl Atom {
    /// Builds an atom in normal form from `(variable index, coefficient)` terms.
    /// Coefficients are kept within `±(2^63 - 1)` (an `i64::MIN` becomes `-(2^63 - 1)`).
    pub fn new(terms: &[(usize, i64)], rel: Rel, rhs: Value) -> Atom {
        let mut t: Vec<(usize, i64)> = terms.iter().map(|&(v, a)| (v, a.max(-i64::MAX))).collect();
        t.sort_by_key(|&(v, _)| v);
        // Merge the terms of each variable in place (the sort is stable, as before).
        let mut len = 0;
        for i in 0..t.len() {
            let (v, a) = t[i];
            if len > 0 && t[len - 1].0 == v {
                t[len - 1].1 = t[len - 1].1.saturating_add(a).max(-i64::MAX);
            } else {
                t[len] = (v, a);
                len += 1;
            }
        }
        t.truncate(len);
        t.retain(|&(_, a)| a != 0);
        let mut rel = rel;
        let mut rhs = rhs;
        let g = t.iter().fold(0i64, |g, &(_, a)| {
            g.gcd(&a.checked_abs().unwrap_or(i64::MAX))
        });
        let neg = t.first().is_some_and(|&(_, a)| a < 0);
        if g > 1 || neg {
            let s = if neg { -g.max(1) } else { g };
            for (_, a) in t.iter_mut() {
                *a /= s;
            }
            rhs = Value::from_rational(rhs.to_rational() / BigRational::from_integer(s.into()));
            if neg {
                rel = rel.flip();
            }
        }
        let rhs_fast = match &rhs {
            Value::Int(i) => Some((*i as i128, 1)),
            Value::Rat(_) => rhs.as_i128_fraction(),
        };
        Atom {
            terms: t,
            rel,
            rhs,
            rhs_fast,
            modulus: None,
        }
    }

    /// `x % m REL c` (C's remainder) for a modulus `m >= 1` (a smaller one becomes 1).
    pub fn remainder(x: usize, m: i64, rel: Rel, c: Value) -> Atom {
        Atom {
            terms: vec![(x, 1)],
            rel,
            rhs_fast: c.as_i128_fraction(),
            rhs: c,
            modulus: Some(m.max(1)),
        }
    }

    /// The right-hand side as `num / den` (`den > 0`) in `i128` when it fits: what the
    /// exact evaluation compares with on its integer path.
    pub(crate) fn rhs_fraction(&self) -> Option<(i128, i128)> {
        self.rhs_fast
    }

    /// The modulus of a remainder atom `x % m REL c`, `None` for a linear one.
    pub fn modulus(&self) -> Option<i64> {
        self.modulus
    }

    /// `x REL c` for one variable.
    pub fn var_const(x: usize, rel: Rel, c: Value) -> Atom {
        Atom::new(&[(x, 1)], rel, c)
    }

    /// The `(variable, coefficient)` terms, sorted by variable.
    pub fn terms(&self) -> &[(usize, i64)] {
        &self.terms
    }

    /// The coefficient of variable `x` (0 when absent): for plotting atoms on two axes.
    pub fn coefficient(&self, x: usize) -> i64 {
        self.terms
            .iter()
            .find(|&&(v, _)| v == x)
            .map_or(0, |&(_, a)| a)
    }

    /// The relation.
    pub fn rel(&self) -> Rel {
        self.rel
    }

    /// The constant on the right-hand side.
    pub fn rhs(&self) -> &Value {
        &self.rhs
    }

    /// The atom that holds exactly where this one does not.
    pub fn negate(&self) -> Atom {
        Atom {
            terms: self.terms.clone(),
            rel: self.rel.negate(),
            rhs: self.rhs.clone(),
            rhs_fast: self.rhs_fast,
            modulus: self.modulus,
        }
    }

    /// The largest variable index used plus one (0 for a constant atom).
    pub fn arity(&self) -> usize {
        self.terms.last().map_or(0, |&(v, _)| v + 1)
    }

    /// A description-length rank used to break ties between equally small formulas
    /// (lower is simpler): each variable costs 2, a nonzero constant 3 (it was fitted to
    /// the data), non-unit coefficients 4. So `a = b` (4) beats `a != 4` (5), which beats
    /// `a - b <= 3` (7). A modulus is a fitted constant too: `x % 2 = 0` costs 5,
    /// `x % 3 = 2` 8.
    pub fn complexity(&self) -> u32 {
        let vars = self.terms.len() as u32;
        let units = self.terms.iter().all(|&(_, a)| a == 1 || a == -1);
        let constant = self.rhs != Value::ZERO;
        let modulus = self.modulus.is_some();
        2 * vars
            + if constant { 3 } else { 0 }
            + if units { 0 } else { 4 }
            + if modulus { 3 } else { 0 }
    }

    /// Evaluates the atom exactly at `point` (a missing variable counts as 0).
    pub fn eval(&self, point: &[Value]) -> bool {
        if let Some(r) = self.eval_fast(point) {
            return r;
        }
        if let Some(m) = self.modulus {
            return self.eval_remainder(point, m);
        }
        let mut sum = BigRational::zero();
        for &(v, a) in &self.terms {
            if let Some(x) = point.get(v) {
                sum += x.to_rational() * BigRational::from_integer(BigInt::from(a));
            }
        }
        self.rel.holds(sum.cmp(&self.rhs.to_rational()))
    }

    fn eval_fast(&self, point: &[Value]) -> Option<bool> {
        let (num, den) = self.rhs_fast?;
        if let Some(m) = self.modulus {
            let x = match point.get(self.terms[0].0) {
                Some(Value::Int(x)) => *x as i128,
                Some(Value::Rat(_)) => return None,
                None => 0,
            };
            let lhs = (x % m as i128).checked_mul(den)?;
            return Some(self.rel.holds(lhs.cmp(&num)));
        }
        let mut sum: i128 = 0;
        for &(v, a) in &self.terms {
            let x = match point.get(v) {
                Some(Value::Int(x)) => *x as i128,
                Some(Value::Rat(_)) => return None,
                None => 0,
            };
            sum = sum.checked_add(x.checked_mul(a as i128)?)?;
        }
        let lhs = sum.checked_mul(den)?;
        Some(self.rel.holds(lhs.cmp(&num)))
    }

    /// C's remainder of the atom's variable modulo `m` at `point`, exactly; `None` when
    /// the value is not an integer (it has no remainder).
    fn remainder_at(&self, point: &[Value], m: i64) -> Option<BigInt> {
        let x = point
            .get(self.terms[0].0)
            .map_or_else(BigRational::zero, Value::to_rational);
        x.is_integer().then(|| x.to_integer() % BigInt::from(m))
    }

    /// `x % m REL c` at a point whose `x` is not an `i64`.
    fn eval_remainder(&self, point: &[Value], m: i64) -> bool {
        match self.remainder_at(point, m) {
            Some(r) => self
                .rel
                .holds(BigRational::from_integer(r).cmp(&self.rhs.to_rational())),
            None => self.rel == Rel::Ne,
        }
    }

    /// The value of the atom's left-hand side at `point`, exactly (for a remainder atom
    /// on a non-integer, which has no remainder, the value itself).
    pub fn lhs_value(&self, point: &[Value]) -> Value {
        if let Some(m) = self.modulus {
            return match self.remainder_at(point, m) {
                Some(r) => Value::from_rational(BigRational::from_integer(r)),
                None => point[self.terms[0].0].clone(),
            };
        }
        let mut sum = BigRational::zero();
        for &(v, a) in &self.terms {
            if let Some(x) = point.get(v) {
                sum += x.to_rational() * BigRational::from_integer(BigInt::from(a));
            }
        }
        Value::from_rational(sum)
    }

    /// Prints the atom with the given variable names (`x{i}` for unnamed ones).
    pub fn display<'a>(&'a self, names: &'a [String]) -> AtomDisplay<'a> {
        AtomDisplay { atom: self, names }
    }
}

/// [`Atom`] printed with variable names; see [`Atom::display`].
pub struct AtomDisplay<'a> {
    atom: &'a Atom,
    names: &'a [String],
}

fn var_name(names: &[String], v: usize) -> String {
    names
        .get(v)
        .cloned()
        .unwrap_or_else(|| format!("x{}", v + 1))
}

impl fmt::Display for AtomDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.atom;
        let t = &a.terms;
        if let Some(m) = a.modulus {
            let x = var_name(self.names, t[0].0);
            return write!(f, "{x} % {m} {} {}", a.rel.symbol(), a.rhs);
        }
        if t.len() == 2 && t[0].1 == 1 && t[1].1 == -1 && a.rhs == Value::ZERO {
            return write!(
                f,
                "{} {} {}",
                var_name(self.names, t[0].0),
                a.rel.symbol(),
                var_name(self.names, t[1].0)
            );
        }
        if t.is_empty() {
            write!(f, "0")?;
        }
        for (i, &(v, c)) in t.iter().enumerate() {
            let name = var_name(self.names, v);
            let mag = c.unsigned_abs();
            if i == 0 {
                if c < 0 {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {} ", if c < 0 { "-" } else { "+" })?;
            }
            if mag == 1 {
                write!(f, "{name}")?;
            } else {
                write!(f, "{mag}*{name}")?;
            }
        }
        write!(f, " {} {}", a.rel.symbol(), a.rhs)
    }
}

/// Whether a formula is a conjunction of clauses or a disjunction of terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// Conjunctive normal form: `(l or l) and (l)`; no clauses means `true`.
    Cnf,
    /// Disjunctive normal form: `(l) and (l)  or  (l)`; no terms means `false`.
    Dnf,
}

/// A learned bug oracle: a CNF or DNF over linear atoms, with its variable names.
///
/// Canonical shapes (kept by every constructor, so parse(print(f)) == f): a pure
/// conjunction (including a single literal) is a one-term DNF; a pure disjunction of
/// two or more literals is a one-clause CNF; `true` is the empty CNF and `false` the
/// empty DNF.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Formula {
    vars: Vec<String>,
    form: Form,
    groups: Vec<Vec<Atom>>,
}

impl Formula {
    /// A CNF (`groups` are clauses), canonicalised.
    pub fn cnf(vars: Vec<String>, clauses: Vec<Vec<Atom>>) -> Formula {
        Formula::build(vars, Form::Cnf, clauses)
    }

    /// A DNF (`groups` are terms), canonicalised.
    pub fn dnf(vars: Vec<String>, terms: Vec<Vec<Atom>>) -> Formula {
        Formula::build(vars, Form::Dnf, terms)
    }

    /// The constant `true`.
    pub fn truth(vars: Vec<String>) -> Formula {
        Formula::build(vars, Form::Cnf, Vec::new())
    }

    /// The constant `false`.
    pub fn falsity(vars: Vec<String>) -> Formula {
        Formula::build(vars, Form::Dnf, Vec::new())
    }

    fn build(vars: Vec<String>, form: Form, mut groups: Vec<Vec<Atom>>) -> Formula {
        // An empty clause makes a CNF false; an empty term makes a DNF true.
        if groups.iter().any(|g| g.is_empty()) {
            let form = match form {
                Form::Cnf => Form::Dnf,
                Form::Dnf => Form::Cnf,
            };
            return Formula {
                vars,
                form,
                groups: Vec::new(),
            };
        }
        for g in groups.iter_mut() {
            let mut seen = Vec::with_capacity(g.len());
            for a in g.drain(..) {
                if !seen.contains(&a) {
                    seen.push(a);
                }
            }
            *g = seen;
        }
        let mut uniq: Vec<Vec<Atom>> = Vec::with_capacity(groups.len());
        for g in groups {
            if !uniq.contains(&g) {
                uniq.push(g);
            }
        }
        let groups = uniq;
        let all_units = groups.iter().all(|g| g.len() == 1);
        match form {
            Form::Cnf if !groups.is_empty() && all_units => Formula {
                vars,
                form: Form::Dnf,
                groups: vec![groups.into_iter().flatten().collect()],
            },
            Form::Dnf if groups.len() >= 2 && all_units => Formula {
                vars,
                form: Form::Cnf,
                groups: vec![groups.into_iter().flatten().collect()],
            },
            _ => Formula { vars, form, groups },
        }
    }

    /// The variable names, in point order.
    pub fn vars(&self) -> &[String] {
        &self.vars
    }

    /// CNF or DNF.
    pub fn form(&self) -> Form {
        self.form
    }

    /// The clauses (CNF) or terms (DNF).
    pub fn groups(&self) -> &[Vec<Atom>] {
        &self.groups
    }

    /// Every atom occurrence, in printing order.
    pub fn atoms(&self) -> impl Iterator<Item = &Atom> {
        self.groups.iter().flatten()
    }

    /// The size: number of literal occurrences.
    pub fn literals(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }

    /// Number of clauses (CNF) or terms (DNF).
    pub fn clauses(&self) -> usize {
        self.groups.len()
    }

    /// Whether the formula is the constant `true` or `false`.
    pub fn is_constant(&self) -> bool {
        self.groups.is_empty()
    }

    /// Evaluates the formula exactly at `point` (values in [`Formula::vars`] order; a
    /// missing value counts as 0). Integer points take an `i128` fast path.
    pub fn eval(&self, point: &[Value]) -> bool {
        match self.form {
            Form::Cnf => self.groups.iter().all(|c| c.iter().any(|a| a.eval(point))),
            Form::Dnf => self.groups.iter().any(|t| t.iter().all(|a| a.eval(point))),
        }
    }

    /// The negation, by De Morgan (CNF becomes DNF and vice versa), canonicalised.
    pub fn negate(&self) -> Formula {
        let groups = self
            .groups
            .iter()
            .map(|g| g.iter().map(Atom::negate).collect())
            .collect();
        match self.form {
            Form::Cnf => Formula::dnf(self.vars.clone(), groups),
            Form::Dnf => Formula::cnf(self.vars.clone(), groups),
        }
    }
}

impl fmt::Display for Formula {
    /// `(a = b) and (b = c)  or  (c = 1)` for DNF, `(a = b or c = 1) and (a != 1)` for CNF.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.groups.is_empty() {
            return write!(
                f,
                "{}",
                if self.form == Form::Cnf {
                    "true"
                } else {
                    "false"
                }
            );
        }
        let n = &self.vars;
        match self.form {
            Form::Dnf => {
                for (i, t) in self.groups.iter().enumerate() {
                    if i > 0 {
                        write!(f, "  or  ")?;
                    }
                    for (j, a) in t.iter().enumerate() {
                        if j > 0 {
                            write!(f, " and ")?;
                        }
                        write!(f, "({})", a.display(n))?;
                    }
                }
            }
            Form::Cnf => {
                for (i, c) in self.groups.iter().enumerate() {
                    if i > 0 {
                        write!(f, " and ")?;
                    }
                    write!(f, "(")?;
                    for (j, a) in c.iter().enumerate() {
                        if j > 0 {
                            write!(f, " or ")?;
                        }
                        write!(f, "{}", a.display(n))?;
                    }
                    write!(f, ")")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::oracle::triangle::vars as names;

    #[test]
    fn atoms_normalise_and_print() {
        let n = names();
        let a = Atom::new(&[(1, -1), (0, 1)], Rel::Eq, Value::ZERO);
        assert_eq!(a.display(&n).to_string(), "a = b");
        let b = Atom::new(&[(1, 1), (0, -1)], Rel::Eq, Value::ZERO);
        assert_eq!(a, b);
        let c = Atom::new(&[(0, -2), (2, 4)], Rel::Le, Value::Int(6));
        assert_eq!(c.display(&n).to_string(), "a - 2*c >= -3");
        assert!(c.eval(&[Value::Int(1), Value::Int(0), Value::Int(2)]));
        assert!(!c.eval(&[Value::Int(0), Value::Int(0), Value::Int(2)]));
    }

    #[test]
    fn remainder_atoms_follow_c() {
        let n = names();
        let r = Atom::remainder(0, 3, Rel::Eq, Value::Int(-1));
        assert_eq!(r.display(&n).to_string(), "a % 3 = -1");
        // C truncates toward zero: -7 % 3 = -1, 7 % 3 = 1.
        assert!(r.eval(&[Value::Int(-7)]));
        assert!(!r.eval(&[Value::Int(7)]));
        assert!(!r.eval(&[Value::Int(2)]));
        // Beyond i64 and non-integers take the exact path.
        let big = Value::parse("100000000000000000000").unwrap();
        let even = Atom::remainder(0, 2, Rel::Eq, Value::ZERO);
        let half = Value::fraction(5, 2).unwrap();
        for (x, is_even) in [(big, true), (half, false)] {
            let point = [x];
            assert_eq!(even.eval(&point), is_even);
            assert_eq!(even.negate().eval(&point), !is_even);
        }
        assert_eq!(even.lhs_value(&[Value::Int(-9)]), Value::Int(-1));
        // A remainder atom is not the linear atom over the same term.
        assert_ne!(even, Atom::var_const(0, Rel::Eq, Value::ZERO));
        assert!(even.complexity() > Atom::var_const(0, Rel::Eq, Value::ZERO).complexity());
    }

    #[test]
    fn formula_prints_like_the_brief() {
        let n = names();
        let eq = |x, y| Atom::new(&[(x, 1), (y, -1)], Rel::Eq, Value::ZERO);
        let f = Formula::dnf(
            n.clone(),
            vec![
                vec![
                    eq(0, 1),
                    eq(1, 2),
                    Atom::var_const(0, Rel::Ne, Value::Int(1)),
                    Atom::var_const(3, Rel::Eq, Value::Int(2)),
                ],
                vec![eq(0, 1), Atom::var_const(2, Rel::Eq, Value::Int(1))],
            ],
        );
        assert_eq!(
            f.to_string(),
            "(a = b) and (b = c) and (a != 1) and (out = 2)  or  (a = b) and (c = 1)"
        );
        let g = f.negate();
        assert_eq!(g.form(), Form::Cnf);
        let p = [Value::Int(3), Value::Int(3), Value::Int(3), Value::Int(2)];
        assert!(f.eval(&p));
        assert!(!g.eval(&p));
    }
}
