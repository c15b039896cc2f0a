//! The atom pool: readable template literals with constants from the data, deduplicated
//! and dominance-pruned, each with its truth vector over the pool's points.

use super::formula::{Atom, Rel};
use super::number::Value;
use super::LearnConfig;
use num_rational::BigRational;
use num_traits::One;
use std::collections::{HashMap, HashSet};

/// A bitset over the pool's points.
pub(crate) type Bits = Vec<u64>;

pub(crate) fn bits_new(n: usize) -> Bits {
    vec![0; n.div_ceil(64).max(1)]
}

pub(crate) fn bit(b: &Bits, i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 == 1
}

fn set(b: &mut Bits, i: usize) {
    b[i / 64] |= 1 << (i % 64);
}

/// Tiers order the hypothesis space for tie-breaking between equally small formulas:
/// single-variable and variable-equality atoms first, then two-variable inequalities,
/// then three-variable ones, then general half-spaces found by the simplex.
pub(crate) const TIERS: usize = 4;

/// One candidate literal of the pool.
#[derive(Clone, Debug)]
pub(crate) struct PoolLit {
    pub atom: Atom,
    pub tier: usize,
    pub truth: Bits,
}

impl PoolLit {
    fn key(&self) -> (usize, u32) {
        (self.tier, self.atom.complexity())
    }
}

/// The candidate literals for a set of points.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pool {
    pub lits: Vec<PoolLit>,
    /// Whether literals were dropped to respect `max_pool`.
    pub truncated: bool,
    /// Words in every truth vector (the pool's points, 64 per word).
    pub words: usize,
}

/// Which labels a pool point may carry: labelled points one, hypothetical points both.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LabelSet {
    pub bug: bool,
    pub ok: bool,
}

/// The linear expressions whose thresholds are templates, with their tier.
fn expressions(nvars: usize, config: &LearnConfig) -> Vec<(Vec<(usize, i64)>, usize)> {
    let mut out = Vec::new();
    for x in 0..nvars {
        out.push((vec![(x, 1)], 0));
    }
    if config.pair_atoms {
        for x in 0..nvars {
            for y in x + 1..nvars {
                out.push((vec![(x, 1), (y, -1)], 1));
                out.push((vec![(x, 1), (y, 1)], 1));
            }
        }
    }
    if config.triple_atoms && nvars <= config.triple_atoms_max_vars {
        for z in 0..nvars {
            for x in 0..nvars {
                for y in x + 1..nvars {
                    if x != z && y != z {
                        out.push((vec![(x, 1), (y, 1), (z, -1)], 2));
                    }
                }
            }
        }
    }
    out
}

/// Builds the pool for `points` (with their possible labels) plus `extra` atoms.
pub(crate) fn build(
    points: &[&[Value]],
    labels: &[LabelSet],
    nvars: usize,
    extra: &[Atom],
    config: &LearnConfig,
) -> Pool {
    let n = points.len();
    let mut cands: Vec<(Atom, usize)> = Vec::new();
    let mut seen: HashSet<Atom> = HashSet::new();
    let mut push = |a: Atom, tier: usize, cands: &mut Vec<(Atom, usize)>| {
        if seen.insert(a.clone()) {
            cands.push((a, tier));
        }
    };

    // Equalities with constants and between variables come first: they are what a
    // person writes for categorical behaviour (`out = 2`, `a = b`).
    if config.equality_atoms {
        for x in 0..nvars {
            // Per distinct value: occurrences and possible labels.
            let mut stats: HashMap<&Value, (usize, bool, bool)> = HashMap::new();
            for (p, l) in points.iter().zip(labels) {
                if let Some(v) = p.get(x) {
                    let e = stats.entry(v).or_default();
                    e.0 += 1;
                    e.1 |= l.bug;
                    e.2 |= l.ok;
                }
            }
            let mut vals: Vec<(&Value, (usize, bool, bool))> = stats.into_iter().collect();
            vals.sort_by(|a, b| a.0.cmp(b.0));
            // Values whose labels differ from a neighbour's are where `x = c` / `x != c`
            // can say what thresholds cannot; they come first, then frequent values.
            let labels_of = |i: usize| (vals[i].1 .1, vals[i].1 .2);
            let mut ranked: Vec<(bool, usize, &Value)> = (0..vals.len())
                .map(|i| {
                    let boundary = (i > 0 && labels_of(i - 1) != labels_of(i))
                        || (i + 1 < vals.len() && labels_of(i + 1) != labels_of(i));
                    (!boundary, usize::MAX - vals[i].1 .0, vals[i].0)
                })
                .collect();
            ranked.sort();
            ranked.truncate(config.max_equality_constants);
            for (_, _, v) in ranked {
                push(Atom::var_const(x, Rel::Eq, v.clone()), 0, &mut cands);
                push(Atom::var_const(x, Rel::Ne, v.clone()), 0, &mut cands);
            }
        }
        if config.pair_atoms {
            for x in 0..nvars {
                for y in x + 1..nvars {
                    let t = [(x, 1), (y, -1)];
                    push(Atom::new(&t, Rel::Eq, Value::ZERO), 0, &mut cands);
                    push(Atom::new(&t, Rel::Ne, Value::ZERO), 0, &mut cands);
                }
            }
        }
    }

    if config.remainder_atoms {
        for (atom, tier) in remainder_atoms(points, nvars, config.max_modulus) {
            push(atom, tier, &mut cands);
        }
    }

    // Thresholds only where the labels change along the expression (boundary points):
    // moving a cut through a run of one label gives a literal that dominates.
    for (terms, tier) in expressions(nvars, config) {
        // Cuts are computed on the normal-form expression, so atoms use its terms.
        let probe = Atom::new(&terms, Rel::Le, Value::ZERO);
        let terms = probe.terms().to_vec();
        let mut vals: Vec<(Value, LabelSet)> = points
            .iter()
            .zip(labels)
            .map(|(p, l)| (lin_value(&probe, p), *l))
            .collect();
        vals.sort_by(|a, b| a.0.cmp(&b.0));
        let mut groups: Vec<(Value, LabelSet)> = Vec::new();
        for (v, l) in vals {
            match groups.last_mut() {
                Some((gv, gl)) if *gv == v => {
                    gl.bug |= l.bug;
                    gl.ok |= l.ok;
                }
                _ => groups.push((v, l)),
            }
        }
        let integral = groups.iter().all(|(v, _)| v.is_integer());
        for w in groups.windows(2) {
            let (u, lu) = (&w[0].0, w[0].1);
            let (v, lv) = (&w[1].0, w[1].1);
            // The cut's constant goes to the side that may be "ok": of two equally simple
            // cuts, the one that flags fewer values as bugs. The lower side may be ok:
            // `E <= c` with `u <= c < v`.
            if lu.ok && lv.bug {
                let c = Value::simplest_in(u, v);
                push(Atom::new(&terms, Rel::Le, c.clone()), tier, &mut cands);
                let above = if integral && c.is_integer() && c != Value::ZERO {
                    Atom::new(
                        &terms,
                        Rel::Ge,
                        Value::from_rational(c.to_rational() + BigRational::one()),
                    )
                } else {
                    Atom::new(&terms, Rel::Gt, c)
                };
                push(above, tier, &mut cands);
            }
            // The upper side may be ok: `E < c` with `u < c <= v`.
            if lu.bug && lv.ok {
                let c = Value::simplest_in_upper(u, v);
                push(Atom::new(&terms, Rel::Lt, c.clone()), tier, &mut cands);
                push(Atom::new(&terms, Rel::Ge, c), tier, &mut cands);
            }
        }
    }
    for a in extra {
        push(a.clone(), TIERS - 1, &mut cands);
        push(a.negate(), TIERS - 1, &mut cands);
    }

    // Truth vectors.
    let mut lits: Vec<PoolLit> = cands
        .into_iter()
        .map(|(atom, tier)| {
            let mut truth = bits_new(n);
            for (i, p) in points.iter().enumerate() {
                if atom.eval(p) {
                    set(&mut truth, i);
                }
            }
            PoolLit { atom, tier, truth }
        })
        .collect();

    // Masks of points that may be bugs / may be ok.
    let mut bug_mask = bits_new(n);
    let mut ok_mask = bits_new(n);
    for (i, l) in labels.iter().enumerate() {
        if l.bug {
            set(&mut bug_mask, i);
        }
        if l.ok {
            set(&mut ok_mask, i);
        }
    }

    // Stable order by readability; earlier literals win ties.
    let preferred = |l: &PoolLit| {
        config
            .preferred_var
            .is_some_and(|v| l.atom.terms().iter().any(|&(x, _)| x == v))
    };
    lits.sort_by_key(|l| (l.key(), !preferred(l)));

    // Drop literals constant over the labelled data that a constant formula covers,
    // duplicates of earlier truth vectors, and literals dominated by a simpler-or-equal
    // one: B dominates A when B is true on every possible bug where A is, and false on
    // every possible ok point where A is false. Replacing A by B keeps any CNF or DNF
    // consistent, so no smallest formula is lost.
    let mut kept: Vec<PoolLit> = Vec::new();
    let mut seen_truth: HashSet<Bits> = HashSet::new();
    'next: for lit in lits {
        let tb: Bits = lit
            .truth
            .iter()
            .zip(&bug_mask)
            .map(|(t, m)| t & m)
            .collect();
        let to: Bits = lit.truth.iter().zip(&ok_mask).map(|(t, m)| t & m).collect();
        // A literal false on every possible bug, or true on every possible ok point, is
        // useless in both forms: in a CNF clause it covers no bug (or the clause rejects
        // nothing), in a DNF term it admits no bug (or rejects nothing); dropping it (or
        // its group) gives a formula at least as good and smaller.
        if tb.iter().all(|&w| w == 0) || to == ok_mask {
            continue;
        }
        let masked: Bits = lit
            .truth
            .iter()
            .zip(bug_mask.iter().zip(&ok_mask))
            .map(|(t, (b, o))| t & (b | o))
            .collect();
        if !seen_truth.insert(masked) {
            continue;
        }
        for k in &kept {
            let b_ge = k.truth.iter().zip(&tb).all(|(kt, at)| kt & at == *at);
            if !b_ge {
                continue;
            }
            let o_le = k
                .truth
                .iter()
                .zip(&to)
                .zip(&ok_mask)
                .all(|((kt, at), m)| kt & m & !at == 0);
            if o_le {
                continue 'next;
            }
        }
        kept.push(lit);
    }
    let truncated = kept.len() > config.max_pool;
    kept.truncate(config.max_pool);
    Pool {
        lits: kept,
        truncated,
        words: bits_new(n).len(),
    }
}

/// `x % m = r` and `x % m != r` for every integer variable `x`, modulus `2..=max_modulus`
/// and remainder `r` seen at a point, when the points show at least two remainders (else
/// the atom is constant over them). Tier 1: after single-variable atoms,
/// beside the two-variable ones.
fn remainder_atoms(points: &[&[Value]], nvars: usize, max_modulus: i64) -> Vec<(Atom, usize)> {
    let mut out = Vec::new();
    for x in 0..nvars {
        let Some(values) = points
            .iter()
            .map(|p| p.get(x).map_or(Some(0), Value::as_i64))
            .collect::<Option<Vec<i64>>>()
        else {
            continue;
        };
        for m in 2..=max_modulus {
            let mut seen: Vec<i64> = values.iter().map(|v| v % m).collect();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() < 2 {
                continue;
            }
            for r in seen {
                for rel in [Rel::Eq, Rel::Ne] {
                    out.push((Atom::remainder(x, m, rel, Value::Int(r)), 1));
                }
            }
        }
    }
    out
}

/// The atom's left-hand side at `p`, with an integer fast path.
fn lin_value(atom: &Atom, p: &[Value]) -> Value {
    let mut sum: i128 = 0;
    for &(v, a) in atom.terms() {
        match p.get(v) {
            Some(Value::Int(x)) => match (*x as i128).checked_mul(a as i128) {
                Some(t) => sum += t,
                None => return atom.lhs_value(p),
            },
            Some(Value::Rat(_)) => return atom.lhs_value(p),
            None => {}
        }
    }
    match i64::try_from(sum) {
        Ok(i) => Value::Int(i),
        Err(_) => atom.lhs_value(p),
    }
}

#[cfg(test)]
mod tests {
    use crate::oracle::{learn, Example, LearnConfig, Value};

    fn learned(points: &[(i64, bool)]) -> String {
        let vars = vec!["out".to_string()];
        let data: Vec<Example> = points
            .iter()
            .map(|&(out, bug)| Example {
                point: vec![Value::Int(out)],
                bug,
            })
            .collect();
        let report = learn(&vars, &data, &LearnConfig::default());
        report.formula.expect("a formula").to_string()
    }

    #[test]
    fn ties_go_to_the_preferred_variable() {
        // Bugs are exactly where x > 0 and exactly where out < 0: two one-literal
        // formulas fit, and variable order picks the first.
        let vars = vec!["x".to_string(), "out".to_string()];
        let data: Vec<Example> = [(5, -1, true), (9, -7, true), (-3, 4, false), (-8, 2, false)]
            .iter()
            .map(|&(x, out, bug)| Example {
                point: vec![Value::Int(x), Value::Int(out)],
                bug,
            })
            .collect();
        let with = |preferred_var| {
            let config = LearnConfig {
                preferred_var,
                ..LearnConfig::default()
            };
            let report = learn(&vars, &data, &config);
            report.formula.expect("a formula").to_string()
        };
        assert_eq!(with(None), "(x > 0)");
        assert_eq!(with(Some(1)), "(out < 0)");
        assert_eq!(with(Some(0)), "(x > 0)");
    }

    #[test]
    fn remainders_explain_periodic_bugs() {
        // Bugs on every third value, as in `2*n/3` against `2*(n/3)`.
        let points: Vec<(i64, bool)> = (-10..40).map(|n| (n, n % 3 == 2)).collect();
        assert_eq!(learned(&points), "(out % 3 = 2)");
        // Round numbers are fine: the bug is off the tens.
        let points: Vec<(i64, bool)> = (1..60).map(|n| (n * 7, n * 7 % 10 != 0)).collect();
        assert_eq!(learned(&points), "(out % 10 != 0)");
        // Without remainder atoms the same labels need a long formula or none.
        let vars = vec!["out".to_string()];
        let data: Vec<Example> = (-10..40)
            .map(|n| Example {
                point: vec![Value::Int(n)],
                bug: n % 3 == 2,
            })
            .collect();
        let config = LearnConfig {
            remainder_atoms: false,
            ..LearnConfig::default()
        };
        let report = learn(&vars, &data, &config);
        assert!(report
            .formula
            .is_none_or(|f| !f.to_string().contains('%') && f.literals() > 1));
    }

    #[test]
    fn the_cut_constant_goes_to_the_ok_side() {
        // Bugs below, ok above: 0 lies in the gap and is not flagged.
        assert_eq!(
            learned(&[(-34, true), (-5, true), (3, false), (50, false)]),
            "(out < 0)"
        );
        // Bugs above, ok below: the same.
        assert_eq!(
            learned(&[(-34, false), (-5, false), (3, true), (50, true)]),
            "(out > 0)"
        );
        // An ok point at the round constant itself bounds the cut.
        assert_eq!(
            learned(&[(-34, true), (-5, true), (0, false), (50, false)]),
            "(out < 0)"
        );
        // A bug at the round constant: the cut moves into the gap above it.
        assert_eq!(
            learned(&[(-34, true), (0, true), (7, false), (50, false)]),
            "(out < 4)"
        );
    }
}
