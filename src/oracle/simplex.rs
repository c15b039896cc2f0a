//! Exact-rational general simplex (Dutertre & de Moura) with Bland's rule and Farkas
//! explanations, and the half-space separation built on it.

use super::formula::{Atom, Rel};
use super::number::Value;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

type Q = BigRational;

/// A bound with the caller's tag for it (returned in explanations).
#[derive(Clone, Debug)]
struct Bound {
    value: Q,
    tag: usize,
}

/// Why [`Simplex::check`] stopped without a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimplexError {
    /// The bounds are contradictory. The explanation lists `(tag, multiplier)` of the
    /// bounds involved: a Farkas certificate. Summing `multiplier * (row of the bound)`
    /// over the listed bounds gives the zero linear form, while the same combination of
    /// the bound values is contradictory (upper bounds enter with positive multipliers,
    /// lower bounds with negative ones).
    Infeasible(Vec<(usize, Q)>),
    /// The pivot budget ran out (never happens with Bland's rule unless the budget is
    /// tiny; kept so the solver is bounded by a count).
    PivotLimit,
}

/// The general simplex of Dutertre and de Moura: variables are the original unknowns plus
/// one slack per row (`s_i = a_i . x`); constraints are bounds on any variable.
///
/// Invariant: non-basic variables satisfy their bounds; `check` repairs basic ones by
/// pivoting, choosing the smallest-index violated basic variable and the smallest-index
/// eligible non-basic one (Bland's rule, so it terminates).
#[derive(Clone, Debug)]
pub struct Simplex {
    /// `tableau[r][c]`: coefficient of non-basic column `c` in basic row `r`.
    tableau: Vec<Vec<Q>>,
    /// Variable of each row / column.
    basic: Vec<usize>,
    nonbasic: Vec<usize>,
    /// For each variable: `Ok(row)` if basic, `Err(col)` if not.
    place: Vec<Result<usize, usize>>,
    value: Vec<Q>,
    lower: Vec<Option<Bound>>,
    upper: Vec<Option<Bound>>,
    /// Pivots performed so far.
    pub pivots: usize,
}

impl Simplex {
    /// A simplex over `n` unbounded original variables `0..n`.
    pub fn new(n: usize) -> Simplex {
        Simplex {
            tableau: Vec::new(),
            basic: Vec::new(),
            nonbasic: (0..n).collect(),
            place: (0..n).map(Err).collect(),
            value: vec![Q::zero(); n],
            lower: vec![None; n],
            upper: vec![None; n],
            pivots: 0,
        }
    }

    /// Adds the slack variable `s = sum(coeffs[j] * x_j)` over original variables and
    /// returns its index. Must be called before any pivot.
    pub fn add_row(&mut self, coeffs: &[Q]) -> usize {
        let var = self.place.len();
        let mut row = vec![Q::zero(); self.nonbasic.len()];
        let mut v = Q::zero();
        for (j, a) in coeffs.iter().enumerate() {
            if let Some(Err(col)) = self.place.get(j) {
                row[*col] += a;
                v += a * &self.value[j];
            }
        }
        self.tableau.push(row);
        self.basic.push(var);
        self.place.push(Ok(self.basic.len() - 1));
        self.value.push(v);
        self.lower.push(None);
        self.upper.push(None);
        var
    }

    /// Asserts `var <= value` (tagged); returns the explanation if it clashes with the
    /// lower bound.
    pub fn assert_upper(&mut self, var: usize, value: Q, tag: usize) -> Result<(), SimplexError> {
        if let Some(l) = &self.lower[var] {
            if l.value > value {
                return Err(SimplexError::Infeasible(vec![
                    (tag, Q::one()),
                    (l.tag, -Q::one()),
                ]));
            }
        }
        if self.upper[var].as_ref().is_some_and(|u| u.value <= value) {
            return Ok(());
        }
        self.upper[var] = Some(Bound {
            value: value.clone(),
            tag,
        });
        if let Err(_col) = self.place[var] {
            if self.value[var] > value {
                self.update(var, value);
            }
        }
        Ok(())
    }

    /// Asserts `var >= value` (tagged); returns the explanation if it clashes with the
    /// upper bound.
    pub fn assert_lower(&mut self, var: usize, value: Q, tag: usize) -> Result<(), SimplexError> {
        if let Some(u) = &self.upper[var] {
            if u.value < value {
                return Err(SimplexError::Infeasible(vec![
                    (u.tag, Q::one()),
                    (tag, -Q::one()),
                ]));
            }
        }
        if self.lower[var].as_ref().is_some_and(|l| l.value >= value) {
            return Ok(());
        }
        self.lower[var] = Some(Bound {
            value: value.clone(),
            tag,
        });
        if let Err(_col) = self.place[var] {
            if self.value[var] < value {
                self.update(var, value);
            }
        }
        Ok(())
    }

    /// Sets non-basic `var` to `v`, updating the basic variables.
    fn update(&mut self, var: usize, v: Q) {
        let Err(col) = self.place[var] else { return };
        let delta = &v - &self.value[var];
        for (r, row) in self.tableau.iter().enumerate() {
            if !row[col].is_zero() {
                let b = self.basic[r];
                self.value[b] += &row[col] * &delta;
            }
        }
        self.value[var] = v;
    }

    fn pivot(&mut self, r: usize, c: usize) {
        let a = self.tableau[r][c].clone();
        let inv = Q::one() / &a;
        // New row r expresses the old non-basic variable in terms of the old basic one.
        let mut new_row: Vec<Q> = self.tableau[r].iter().map(|x| -(x * &inv)).collect();
        new_row[c] = inv;
        for (i, row) in self.tableau.iter_mut().enumerate() {
            if i == r || row[c].is_zero() {
                continue;
            }
            let f = row[c].clone();
            for (k, x) in row.iter_mut().enumerate() {
                if k == c {
                    *x = &f * &new_row[c];
                } else if !new_row[k].is_zero() {
                    *x += &f * &new_row[k];
                }
            }
        }
        self.tableau[r] = new_row;
        let (b, n) = (self.basic[r], self.nonbasic[c]);
        self.basic[r] = n;
        self.nonbasic[c] = b;
        self.place[n] = Ok(r);
        self.place[b] = Err(c);
        self.pivots += 1;
    }

    /// Finds an assignment within all bounds, or explains why there is none.
    pub fn check(&mut self, max_pivots: usize) -> Result<(), SimplexError> {
        loop {
            // Smallest-index basic variable out of bounds.
            let mut viol: Option<(usize, usize, bool)> = None; // (var, row, below_lower)
            for (r, &b) in self.basic.iter().enumerate() {
                let below = self.lower[b]
                    .as_ref()
                    .is_some_and(|l| self.value[b] < l.value);
                let above = self.upper[b]
                    .as_ref()
                    .is_some_and(|u| self.value[b] > u.value);
                if (below || above) && viol.is_none_or(|(v, _, _)| b < v) {
                    viol = Some((b, r, below));
                }
            }
            let Some((b, r, below)) = viol else {
                return Ok(());
            };
            if self.pivots >= max_pivots {
                return Err(SimplexError::PivotLimit);
            }
            // Smallest-index non-basic variable that can move b towards its bound.
            let mut pick: Option<(usize, usize)> = None; // (var, col)
            for (c, &n) in self.nonbasic.iter().enumerate() {
                let a = &self.tableau[r][c];
                if a.is_zero() {
                    continue;
                }
                let can_inc = self.upper[n]
                    .as_ref()
                    .is_none_or(|u| self.value[n] < u.value);
                let can_dec = self.lower[n]
                    .as_ref()
                    .is_none_or(|l| self.value[n] > l.value);
                let ok = if below {
                    (a.is_positive() && can_inc) || (a.is_negative() && can_dec)
                } else {
                    (a.is_negative() && can_inc) || (a.is_positive() && can_dec)
                };
                if ok && pick.is_none_or(|(v, _)| n < v) {
                    pick = Some((n, c));
                }
            }
            let Some((n, c)) = pick else {
                return Err(SimplexError::Infeasible(self.explain(r, b, below)));
            };
            let target = if below {
                self.lower[b].as_ref().map(|l| l.value.clone())
            } else {
                self.upper[b].as_ref().map(|u| u.value.clone())
            }
            .unwrap_or_else(Q::zero);
            // pivotAndUpdate(b, n, target)
            let theta = (&target - &self.value[b]) / &self.tableau[r][c];
            self.value[b] = target;
            self.value[n] += &theta;
            for (i, row) in self.tableau.iter().enumerate() {
                if i != r && !row[c].is_zero() {
                    let bi = self.basic[i];
                    self.value[bi] += &row[c] * &theta;
                }
            }
            self.pivot(r, c);
        }
    }

    /// Farkas certificate for a row whose basic variable cannot be repaired.
    fn explain(&self, r: usize, b: usize, below: bool) -> Vec<(usize, Q)> {
        // Row: b = sum a_c n_c, i.e. sum a_c n_c - b = 0. If b < l_b and every n_c is
        // stuck at the bound that maximises the sum, then l_b <= b = sum <= bounds: a
        // contradiction using b's bound and those bounds.
        let mut out = Vec::new();
        let sign = if below { Q::one() } else { -Q::one() };
        if below {
            if let Some(l) = &self.lower[b] {
                out.push((l.tag, -Q::one()));
            }
        } else if let Some(u) = &self.upper[b] {
            out.push((u.tag, Q::one()));
        }
        for (c, &n) in self.nonbasic.iter().enumerate() {
            let a = &self.tableau[r][c] * &sign;
            if a.is_zero() {
                continue;
            }
            if a.is_positive() {
                if let Some(u) = &self.upper[n] {
                    out.push((u.tag, a));
                }
            } else if let Some(l) = &self.lower[n] {
                out.push((l.tag, a));
            }
        }
        out
    }

    /// The current value of a variable.
    pub fn value(&self, var: usize) -> &Q {
        &self.value[var]
    }
}

/// Outcome of [`separate`].
#[derive(Clone, Debug)]
pub enum Separation {
    /// An atom true on every bug point and false on every ok point.
    Found(Atom),
    /// No half-space separates the labels (certified by the simplex).
    Inseparable,
    /// The pivot budget ran out, or coefficients do not fit `i64`.
    GaveUp,
}

fn q(v: &Value) -> Q {
    v.to_rational()
}

/// Tries the variable subsets by size (so readable, sparse half-spaces come first) and
/// returns the first separating atom `w.x <= c`, with coefficients snapped to small
/// integers when that stays consistent.
pub fn separate(
    points: &[&[Value]],
    bug: &[bool],
    nvars: usize,
    max_pivots: usize,
    max_coeff: i64,
) -> Separation {
    if nvars == 0 || points.is_empty() {
        return Separation::Inseparable;
    }
    let mut subsets: Vec<Vec<usize>> = Vec::new();
    if nvars <= 8 {
        for mask in 1u32..(1 << nvars) {
            subsets.push((0..nvars).filter(|i| mask >> i & 1 == 1).collect());
        }
        subsets.sort_by_key(Vec::len);
    } else {
        subsets.push((0..nvars).collect());
    }
    let mut gave_up = false;
    let mut pivots_left = max_pivots;
    for vars in subsets {
        match separate_on(points, bug, &vars, pivots_left, max_coeff) {
            (Some(a), _) => return Separation::Found(a),
            (None, used) => {
                if used.is_none() {
                    gave_up = true;
                }
                pivots_left = pivots_left.saturating_sub(used.unwrap_or(pivots_left));
                if pivots_left == 0 {
                    return Separation::GaveUp;
                }
            }
        }
    }
    if gave_up {
        Separation::GaveUp
    } else {
        Separation::Inseparable
    }
}

/// Separation using only `vars`: LP `w.p - c <= 0` on bugs, `w.p - c >= 1` on ok points.
/// Returns the atom, or the pivots used (`None` when it gave up).
fn separate_on(
    points: &[&[Value]],
    bug: &[bool],
    vars: &[usize],
    max_pivots: usize,
    max_coeff: i64,
) -> (Option<Atom>, Option<usize>) {
    let m = vars.len();
    let mut s = Simplex::new(m + 1);
    for (i, p) in points.iter().enumerate() {
        let mut row: Vec<Q> = vars
            .iter()
            .map(|&v| p.get(v).map_or_else(Q::zero, q))
            .collect();
        row.push(-Q::one());
        let slack = s.add_row(&row);
        let r = if bug[i] {
            s.assert_upper(slack, Q::zero(), i)
        } else {
            s.assert_lower(slack, Q::one(), i)
        };
        if r.is_err() {
            return (None, Some(0));
        }
    }
    match s.check(max_pivots) {
        Ok(()) => {}
        Err(SimplexError::Infeasible(_)) => return (None, Some(s.pivots)),
        Err(SimplexError::PivotLimit) => return (None, None),
    }
    let w: Vec<Q> = (0..m).map(|j| s.value(j).clone()).collect();
    if w.iter().all(Zero::is_zero) {
        return (None, Some(s.pivots));
    }
    let used = Some(s.pivots);
    // Snap: scale so the largest |w_j| is k, round, and keep the first k that separates.
    let wmax = w.iter().map(|x| x.abs()).max().unwrap_or_else(Q::one);
    for k in 1..=max_coeff.max(1) {
        let ints: Option<Vec<i64>> = w
            .iter()
            .map(|x| {
                (x * Q::from_integer(BigInt::from(k)) / &wmax)
                    .round()
                    .to_integer()
                    .to_i64()
            })
            .collect();
        if let Some(ints) = ints {
            if let Some(a) = atom_if_separates(points, bug, vars, &ints) {
                return (Some(a), used);
            }
        }
    }
    // Exact: clear denominators.
    let mut l = BigInt::one();
    for x in &w {
        l = l.lcm(x.denom());
    }
    let ints: Option<Vec<i64>> = w
        .iter()
        .map(|x| (x * Q::from_integer(l.clone())).to_integer().to_i64())
        .collect();
    match ints.and_then(|ints| atom_if_separates(points, bug, vars, &ints)) {
        Some(a) => (Some(a), used),
        None => (None, None),
    }
}

fn atom_if_separates(points: &[&[Value]], bug: &[bool], vars: &[usize], w: &[i64]) -> Option<Atom> {
    if w.iter().all(|&x| x == 0) {
        return None;
    }
    let terms: Vec<(usize, i64)> = vars.iter().copied().zip(w.iter().copied()).collect();
    let probe = Atom::new(&terms, Rel::Le, Value::ZERO);
    let mut max_bug: Option<Value> = None;
    let mut min_ok: Option<Value> = None;
    for (p, &b) in points.iter().zip(bug) {
        let raw: Q = terms
            .iter()
            .map(|&(v, a)| p.get(v).map_or_else(Q::zero, q) * Q::from_integer(a.into()))
            .sum();
        let val = Value::from_rational(raw);
        if b {
            if max_bug.as_ref().is_none_or(|m| val > *m) {
                max_bug = Some(val);
            }
        } else if min_ok.as_ref().is_none_or(|m| val < *m) {
            min_ok = Some(val);
        }
    }
    let (lo, hi) = match (max_bug, min_ok) {
        (Some(lo), Some(hi)) if lo < hi => (lo, hi),
        (Some(lo), None) => (lo.clone(), lo),
        (None, Some(hi)) => (Value::from_rational(hi.to_rational() - Q::one()), hi),
        _ => return None,
    };
    let c = if lo < hi {
        Value::simplest_in(&lo, &hi)
    } else {
        lo
    };
    // Atom::new may rescale and flip the relation; the meaning is unchanged.
    let atom = Atom::new(&terms, Rel::Le, c);
    let _ = probe;
    let ok = points.iter().zip(bug).all(|(p, &b)| atom.eval(p) == b);
    ok.then_some(atom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qi(i: i64) -> Q {
        Q::from_integer(i.into())
    }

    #[test]
    fn feasible_system_gets_a_model() {
        // x + y <= 4, x - y >= 1, y >= 1  -> e.g. x = 2.5, y = 1
        let mut s = Simplex::new(2);
        let a = s.add_row(&[qi(1), qi(1)]);
        let b = s.add_row(&[qi(1), qi(-1)]);
        s.assert_upper(a, qi(4), 0).unwrap();
        s.assert_lower(b, qi(1), 1).unwrap();
        s.assert_lower(1, qi(1), 2).unwrap();
        s.check(100).unwrap();
        let (x, y) = (s.value(0).clone(), s.value(1).clone());
        assert!(&x + &y <= qi(4) && &x - &y >= qi(1) && y >= qi(1));
    }

    #[test]
    fn infeasible_system_gets_a_farkas_certificate() {
        // x + y <= 1, x >= 1, y >= 1: infeasible.
        let mut s = Simplex::new(2);
        let a = s.add_row(&[qi(1), qi(1)]);
        s.assert_upper(a, qi(1), 0).unwrap();
        s.assert_lower(0, qi(1), 1).unwrap();
        s.assert_lower(1, qi(1), 2).unwrap();
        let Err(SimplexError::Infeasible(expl)) = s.check(100) else {
            panic!("expected infeasible");
        };
        // rows: tag0: x + y (upper 1), tag1: x (lower 1), tag2: y (lower 1)
        let rows = [[qi(1), qi(1)], [qi(1), qi(0)], [qi(0), qi(1)]];
        let bounds = [qi(1), qi(1), qi(1)];
        let mut form = [qi(0), qi(0)];
        let mut rhs = qi(0);
        for (tag, m) in &expl {
            for k in 0..2 {
                form[k] += m * &rows[*tag][k];
            }
            rhs += m * &bounds[*tag];
        }
        // sum m_i * row_i = 0 and sum m_i * bound_i < 0 (upper positive, lower negative).
        assert!(form.iter().all(Zero::is_zero), "{expl:?}");
        assert!(rhs < qi(0), "{expl:?}");
    }

    #[test]
    fn separates_a_diagonal() {
        let pts: Vec<Vec<Value>> = (0..6)
            .flat_map(|x| (0..6).map(move |y| vec![Value::Int(x), Value::Int(y)]))
            .collect();
        let refs: Vec<&[Value]> = pts.iter().map(|p| p.as_slice()).collect();
        let bug: Vec<bool> = pts
            .iter()
            .map(|p| p[0].to_f64() + 2.0 * p[1].to_f64() <= 5.0)
            .collect();
        match separate(&refs, &bug, 2, 10_000, 10) {
            Separation::Found(a) => {
                assert!(refs.iter().zip(&bug).all(|(p, &b)| a.eval(p) == b));
                assert_eq!(a.terms().len(), 2);
            }
            other => panic!("{other:?}"),
        }
        // XOR is not separable.
        let x: Vec<Vec<Value>> = vec![
            vec![0.into(), 0.into()],
            vec![1.into(), 1.into()],
            vec![0.into(), 1.into()],
            vec![1.into(), 0.into()],
        ];
        let refs: Vec<&[Value]> = x.iter().map(|p| p.as_slice()).collect();
        assert!(matches!(
            separate(&refs, &[true, true, false, false], 2, 10_000, 10),
            Separation::Inseparable
        ));
    }
}
