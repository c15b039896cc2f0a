//! The atom pool: readable template literals with constants from the data, deduplicated
//! and dominance-pruned, each with its truth vector over the pool's points.

use super::formula::{Atom, Rel};
use super::fxhash::{FxHashMap, FxHasher};
use super::number::Value;
use super::LearnConfig;
use num_rational::BigRational;
use num_traits::One;
use std::hash::{Hash, Hasher};

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

/// The base tiers order the hypothesis space for tie-breaking between equally small
/// formulas: single-variable and variable-equality atoms first, then two-variable
/// inequalities and remainders, then three-variable ones, then general half-spaces found
/// by the simplex.
pub(crate) const BASE_TIERS: usize = 4;

/// Every base tier again, above them all, for the literals a configuration avoids
/// ([`LearnConfig::avoided_var`], [`LearnConfig::avoid_remainders`]): of equally small
/// formulas, one without them wins.
pub(crate) const TIERS: usize = 2 * BASE_TIERS;

/// The tier of `atom`, offered at base tier `tier`, under `config`.
fn tier_of(atom: &Atom, tier: usize, config: &LearnConfig) -> usize {
    let avoided = config.avoided_var.is_some_and(|v| atom.coefficient(v) != 0)
        || (config.avoid_remainders && atom.modulus().is_some());
    if avoided {
        tier + BASE_TIERS
    } else {
        tier
    }
}

/// One candidate literal of the pool.
#[derive(Clone, Debug)]
pub(crate) struct PoolLit {
    pub atom: Atom,
    pub tier: usize,
    pub truth: Bits,
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
                if config.pair_sums {
                    out.push((vec![(x, 1), (y, 1)], 1));
                }
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
    let mut cands = Candidates::new(points);

    // Equalities with constants and between variables come first: they are what a
    // person writes for categorical behaviour (`out = 2`, `a = b`). Each atom of these
    // families is offered once (distinct values, relations `=` and `!=`), and no
    // threshold or remainder atom has those relations without a modulus.
    if config.equality_atoms {
        for x in 0..nvars {
            // Per distinct value: occurrences, possible labels, and the points with it.
            let mut stats: FxHashMap<&Value, ValueStats> = FxHashMap::default();
            let mut everywhere = true;
            for (i, (p, l)) in points.iter().zip(labels).enumerate() {
                match p.get(x) {
                    Some(v) => {
                        let e = stats.entry(v).or_insert_with(|| ValueStats {
                            count: 0,
                            bug: false,
                            ok: false,
                            points: bits_new(n),
                        });
                        e.count += 1;
                        e.bug |= l.bug;
                        e.ok |= l.ok;
                        set(&mut e.points, i);
                    }
                    None => everywhere = false,
                }
            }
            let mut vals: Vec<(&Value, ValueStats)> = stats.into_iter().collect();
            vals.sort_by(|a, b| a.0.cmp(b.0));
            // Values whose labels differ from a neighbour's are where `x = c` / `x != c`
            // can say what thresholds cannot; they come first, then frequent values.
            let labels_of = |i: usize| (vals[i].1.bug, vals[i].1.ok);
            let mut ranked: Vec<(bool, usize, &Value, usize)> = (0..vals.len())
                .map(|i| {
                    let boundary = (i > 0 && labels_of(i - 1) != labels_of(i))
                        || (i + 1 < vals.len() && labels_of(i + 1) != labels_of(i));
                    (!boundary, usize::MAX - vals[i].1.count, vals[i].0, i)
                })
                .collect();
            ranked.sort();
            ranked.truncate(config.max_equality_constants);
            for (_, _, v, i) in ranked {
                // A point without the variable counts it as 0: evaluate then.
                let eq = Atom::var_const(x, Rel::Eq, v.clone());
                let ne = Atom::var_const(x, Rel::Ne, v.clone());
                if everywhere {
                    cands.push_bits(eq, 0, &vals[i].1.points, false);
                    cands.push_bits(ne, 0, &vals[i].1.points, true);
                } else {
                    cands.push_new(eq, 0, None);
                    cands.push_new(ne, 0, None);
                }
            }
        }
        if config.pair_atoms {
            for x in 0..nvars {
                for y in x + 1..nvars {
                    let t = [(x, 1), (y, -1)];
                    cands.push_new(Atom::new(&t, Rel::Eq, Value::ZERO), 0, None);
                    cands.push_new(Atom::new(&t, Rel::Ne, Value::ZERO), 0, None);
                }
            }
        }
    }

    if config.remainder_atoms {
        let extra = config
            .extra_moduli
            .iter()
            .copied()
            .filter(|&m| m > config.max_modulus);
        let moduli: Vec<i64> = (2..=config.max_modulus).chain(extra).collect();
        remainder_atoms(points, nvars, &moduli, &mut cands);
    }

    // Thresholds only where the labels change along the expression (boundary points):
    // moving a cut through a run of one label gives a literal that dominates.
    for (terms, tier) in expressions(nvars, config) {
        // Cuts are computed on the normal-form expression, so atoms use its terms.
        let probe = Atom::new(&terms, Rel::Le, Value::ZERO);
        let terms = probe.terms().to_vec();
        let mut vals: Vec<(Value, LabelSet, usize)> = points
            .iter()
            .zip(labels)
            .enumerate()
            .map(|(i, (p, l))| (lin_value(&probe, p), *l, i))
            .collect();
        // Any order of equal values gives the same groups.
        if vals.iter().all(|v| v.0.as_i64().is_some()) {
            vals.sort_unstable_by_key(|v| v.0.as_i64());
        } else {
            vals.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let first = cands.atoms.len();
        // Per group of equal values: the value, its labels, and where its points end in
        // `vals`.
        let mut groups: Vec<(&Value, LabelSet, usize)> = Vec::new();
        for (k, (v, l, _)) in vals.iter().enumerate() {
            match groups.last_mut() {
                Some((gv, gl, end)) if *gv == v => {
                    gl.bug |= l.bug;
                    gl.ok |= l.ok;
                    *end = k + 1;
                }
                _ => groups.push((v, *l, k + 1)),
            }
        }
        let integral = groups.iter().all(|(v, _, _)| v.is_integer());
        // The points at or below the current group, and the others.
        let mut at_or_below_u: Bits = bits_new(n);
        let mut above_u: Bits = bits_new(n);
        let mut done = 0;
        for w in groups.windows(2) {
            let (u, lu, end) = (w[0].0, w[0].1, w[0].2);
            let (v, lv) = (w[1].0, w[1].1);
            for &(_, _, i) in &vals[done..end] {
                set(&mut at_or_below_u, i);
            }
            done = end;
            // A cut between u and v is true at or below u, or above it: its truth vector
            // is that of the group, or the complement.
            for (a, (b, all)) in above_u.iter_mut().zip(at_or_below_u.iter().zip(&cands.all)) {
                *a = !b & all;
            }
            // The cut's constant goes to the side that may be "ok": of two equally simple
            // cuts, the one that flags fewer values as bugs. The lower side may be ok:
            // `E <= c` with `u <= c < v`.
            if lu.ok && lv.bug {
                let c = Value::simplest_in(u, v);
                let in_gap = *u <= c && c < *v;
                let below = in_gap.then_some(at_or_below_u.as_slice());
                let above = in_gap.then_some(above_u.as_slice());
                cands.push_checked(Atom::new(&terms, Rel::Le, c.clone()), tier, below, first);
                let above_atom = if integral && c.is_integer() && c != Value::ZERO {
                    Atom::new(&terms, Rel::Ge, plus_one(&c))
                } else {
                    Atom::new(&terms, Rel::Gt, c)
                };
                cands.push_checked(above_atom, tier, above, first);
            }
            // The upper side may be ok: `E < c` with `u < c <= v`.
            if lu.bug && lv.ok {
                let c = Value::simplest_in_upper(u, v);
                let in_gap = *u < c && c <= *v;
                let below = in_gap.then_some(at_or_below_u.as_slice());
                let above = in_gap.then_some(above_u.as_slice());
                cands.push_checked(Atom::new(&terms, Rel::Lt, c.clone()), tier, below, first);
                cands.push_checked(Atom::new(&terms, Rel::Ge, c), tier, above, first);
            }
        }
    }
    for a in extra {
        cands.push_checked(a.clone(), BASE_TIERS - 1, None, 0);
        cands.push_checked(a.negate(), BASE_TIERS - 1, None, 0);
    }

    let words = cands.words;
    let Candidates {
        atoms: cands,
        truths,
        ..
    } = cands;

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

    // Stable order by readability; earlier literals win ties (sorting by the key and
    // then the candidate's index is the stable sort).
    let preferred = |a: &Atom| {
        config
            .preferred_var
            .is_some_and(|v| a.terms().iter().any(|&(x, _)| x == v))
    };
    // Key (tier, complexity, not preferred, index) packed into one integer, in that order.
    let mut order: Vec<u128> = cands
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            c.as_ref().map(|(a, tier)| {
                (tier_of(a, *tier, config) as u128) << 97
                    | u128::from(a.complexity()) << 65
                    | u128::from(!preferred(a)) << 64
                    | i as u128
            })
        })
        .collect();
    order.sort_unstable();

    // Drop literals constant over the labelled data that a constant formula covers,
    // duplicates of earlier truth vectors, and literals dominated by a simpler-or-equal
    // one: B dominates A when B is true on every possible bug where A is, and false on
    // every possible ok point where A is false. Replacing A by B keeps any CNF or DNF
    // consistent, so no smallest formula is lost.
    let mut cands = cands;
    let mut kept: Vec<PoolLit> = Vec::new();
    // The kept literals' truth vectors, back to back.
    let mut kept_truths: Vec<u64> = Vec::new();
    let mut seen_truth = TruthSet::new(words);
    let mut masked: Bits = vec![0; words];
    let mut tb: Bits = vec![0; words];
    let mut to: Bits = vec![0; words];
    let care: Bits = bug_mask.iter().zip(&ok_mask).map(|(b, o)| b | o).collect();
    'next: for &key in &order {
        let i = key as u64 as usize;
        let truth = &truths[i * words..(i + 1) * words];
        for w in 0..words {
            tb[w] = truth[w] & bug_mask[w];
            to[w] = truth[w] & ok_mask[w];
            masked[w] = truth[w] & care[w];
        }
        // A literal false on every possible bug, or true on every possible ok point, is
        // useless in both forms: in a CNF clause it covers no bug (or the clause rejects
        // nothing), in a DNF term it admits no bug (or rejects nothing); dropping it (or
        // its group) gives a formula at least as good and smaller.
        if tb.iter().all(|&w| w == 0) || to == ok_mask {
            continue;
        }
        if !seen_truth.insert(&masked) {
            continue;
        }
        for k in kept_truths.chunks_exact(words) {
            let dominates =
                (0..words).all(|w| k[w] & tb[w] == tb[w] && k[w] & ok_mask[w] & !to[w] == 0);
            if dominates {
                continue 'next;
            }
        }
        let Some((atom, tier)) = cands[i].take() else {
            continue;
        };
        if config.excluded_atoms.contains(&atom) || config.excluded_atoms.contains(&atom.negate()) {
            continue;
        }
        kept_truths.extend_from_slice(truth);
        kept.push(PoolLit {
            tier: tier_of(&atom, tier, config),
            atom,
            truth: truth.to_vec(),
        });
    }
    let truncated = kept.len() > config.max_pool;
    kept.truncate(config.max_pool);
    Pool {
        lits: kept,
        truncated,
        words,
    }
}

/// `c + 1` exactly.
fn plus_one(c: &Value) -> Value {
    match c.as_i64().and_then(|i| i.checked_add(1)) {
        Some(i) => Value::Int(i),
        None => Value::from_rational(c.to_rational() + BigRational::one()),
    }
}

/// One value of a variable over the pool's points.
struct ValueStats {
    /// Points with the value.
    count: usize,
    /// Whether one of them may be a bug / may be ok.
    bug: bool,
    ok: bool,
    /// Which points.
    points: Bits,
}

/// One expression's left-hand sides at the pool's points; `None`: evaluate that point
/// exactly.
struct Column {
    terms: Vec<(usize, i64)>,
    modulus: Option<i64>,
    values: Vec<Option<i128>>,
}

/// The pool's candidate atoms, each once, in the order first offered, with their truth
/// vectors (`words` words per atom, back to back).
struct Candidates<'a> {
    /// `(atom, tier)`, an option so that the pool can take the ones it keeps.
    atoms: Vec<Option<(Atom, usize)>>,
    truths: Vec<u64>,
    columns: Columns<'a>,
    words: usize,
    /// All points.
    all: Bits,
}

impl<'a> Candidates<'a> {
    fn new(points: &'a [&'a [Value]]) -> Candidates<'a> {
        let mut all = bits_new(points.len());
        for i in 0..points.len() {
            set(&mut all, i);
        }
        Candidates {
            atoms: Vec::with_capacity(1024),
            truths: Vec::with_capacity(1024 * all.len()),
            columns: Columns::new(points),
            words: all.len(),
            all,
        }
    }

    /// Adds `atom` of `tier`, not offered before, true exactly on `bits` (or, with
    /// `outside`, on the other points).
    fn push_bits(&mut self, atom: Atom, tier: usize, bits: &[u64], outside: bool) {
        if outside {
            let all = &self.all;
            self.truths
                .extend(bits.iter().zip(all).map(|(b, a)| !b & a));
        } else {
            self.truths.extend_from_slice(bits);
        }
        self.atoms.push(Some((atom, tier)));
    }

    /// Adds `atom` of `tier`, which has not been offered before; `truth` is its truth
    /// vector when the caller knows it (else it is evaluated).
    fn push_new(&mut self, atom: Atom, tier: usize, truth: Option<&[u64]>) {
        let start = self.truths.len();
        match truth {
            Some(t) => self.truths.extend_from_slice(t),
            None => {
                self.truths.resize(start + self.words, 0);
                self.columns.truth(&atom, &mut self.truths[start..]);
            }
        }
        self.atoms.push(Some((atom, tier)));
    }

    /// Offers `atom`, unless it is among the atoms from index `from` on (the only ones it
    /// can equal).
    fn push_checked(&mut self, atom: Atom, tier: usize, truth: Option<&[u64]>, from: usize) {
        if self.atoms[from..]
            .iter()
            .any(|c| c.as_ref().is_some_and(|(a, _)| *a == atom))
        {
            return;
        }
        self.push_new(atom, tier, truth);
    }
}

/// A set of truth vectors of `words` words, stored back to back (no allocation per
/// vector).
struct TruthSet {
    words: usize,
    vectors: Vec<u64>,
    /// Hash -> the first vector with that hash; later ones with the same hash (rare) in
    /// `collided`.
    first: FxHashMap<u64, usize>,
    collided: Vec<(u64, usize)>,
}

impl TruthSet {
    fn new(words: usize) -> TruthSet {
        TruthSet {
            words,
            vectors: Vec::new(),
            first: FxHashMap::default(),
            collided: Vec::new(),
        }
    }

    fn vector(&self, k: usize) -> &[u64] {
        &self.vectors[k * self.words..(k + 1) * self.words]
    }

    /// Adds `v`; whether it was new.
    fn insert(&mut self, v: &[u64]) -> bool {
        let hash = {
            let mut h = FxHasher::default();
            v.hash(&mut h);
            h.finish()
        };
        let k = self.vectors.len() / self.words;
        match self.first.get(&hash) {
            Some(&f) => {
                let seen = self.vector(f) == v
                    || self
                        .collided
                        .iter()
                        .any(|&(h, c)| h == hash && self.vector(c) == v);
                if seen {
                    return false;
                }
                self.collided.push((hash, k));
            }
            None => {
                self.first.insert(hash, k);
            }
        }
        self.vectors.extend_from_slice(v);
        true
    }
}

/// The left-hand sides of atoms at the pool's points on the exact integer path (as
/// [`Atom::eval`] computes them), one column per expression, so each candidate's truth
/// vector is a comparison per point. A point where that path does not apply (a
/// rational value, an overflow) is evaluated by [`Atom::eval`] itself.
struct Columns<'a> {
    points: &'a [&'a [Value]],
    columns: Vec<Column>,
    /// Hash of `(terms, modulus)` -> indices into `columns`.
    index: FxHashMap<u64, Vec<usize>>,
}

impl<'a> Columns<'a> {
    fn new(points: &'a [&'a [Value]]) -> Columns<'a> {
        Columns {
            points,
            columns: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// The column of `atom`'s left-hand side (C's remainder for a remainder atom).
    fn column(&mut self, atom: &Atom) -> &[Option<i128>] {
        let key = {
            let mut h = FxHasher::default();
            atom.terms().hash(&mut h);
            atom.modulus().hash(&mut h);
            h.finish()
        };
        let bucket = self.index.entry(key).or_default();
        let found = bucket.iter().copied().find(|&c| {
            let col = &self.columns[c];
            col.terms.as_slice() == atom.terms() && col.modulus == atom.modulus()
        });
        let c = match found {
            Some(c) => c,
            None => {
                self.columns.push(Column {
                    terms: atom.terms().to_vec(),
                    modulus: atom.modulus(),
                    values: self.points.iter().map(|p| lhs_fast(atom, p)).collect(),
                });
                bucket.push(self.columns.len() - 1);
                self.columns.len() - 1
            }
        };
        &self.columns[c].values
    }

    /// Sets `row`'s bits where `atom` holds.
    fn truth(&mut self, atom: &Atom, row: &mut [u64]) {
        let points = self.points;
        let rhs = atom.rhs_fraction();
        let rel = atom.rel();
        let column = self.column(atom);
        for (i, (lhs, p)) in column.iter().zip(points).enumerate() {
            let fast = match (lhs, rhs) {
                // An integer constant needs no multiplication (an i128 one is a library
                // call on wasm32).
                (Some(l), Some((num, 1))) => Some(rel.holds(l.cmp(&num))),
                (Some(l), Some((num, den))) => l.checked_mul(den).map(|l| rel.holds(l.cmp(&num))),
                _ => None,
            };
            if fast.unwrap_or_else(|| atom.eval(p)) {
                row[i / 64] |= 1 << (i % 64);
            }
        }
    }
}

/// `atom`'s left-hand side at `p` in `i128`, exactly as [`Atom::eval`]'s integer path
/// computes it (a missing variable counts as 0); `None` where that path does not apply.
fn lhs_fast(atom: &Atom, p: &[Value]) -> Option<i128> {
    let value = |v: usize| match p.get(v) {
        Some(Value::Int(x)) => Some(*x as i128),
        Some(Value::Rat(_)) => None,
        None => Some(0),
    };
    if let Some(m) = atom.modulus() {
        return Some(value(atom.terms()[0].0)? % m as i128);
    }
    let mut sum: i128 = 0;
    for &(v, a) in atom.terms() {
        sum = sum.checked_add(value(v)?.checked_mul(a as i128)?)?;
    }
    Some(sum)
}

/// Offers `x % m = r` and `x % m != r` for every integer variable `x`, modulus `m` of
/// `moduli` and remainder `r` seen at a point, when the points show at least two
/// remainders (else the atom is constant over them). A modulus above 10 is offered only
/// with remainder 0 (`y % 400 == 0`: divisibility, as people write it; a large modulus
/// has too many remainders to offer them all). Tier 1: after single-variable atoms,
/// beside the two-variable ones.
fn remainder_atoms(points: &[&[Value]], nvars: usize, moduli: &[i64], cands: &mut Candidates) {
    for x in 0..nvars {
        let Some(values) = points
            .iter()
            .map(|p| p.get(x).map_or(Some(0), Value::as_i64))
            .collect::<Option<Vec<i64>>>()
        else {
            continue;
        };
        for &m in moduli {
            let rems: Vec<i64> = values.iter().map(|v| v % m).collect();
            let mut seen = rems.clone();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() < 2 {
                continue;
            }
            for r in seen.into_iter().filter(|&r| m <= 10 || r == 0) {
                let mut eq = bits_new(points.len());
                for (i, _) in rems.iter().enumerate().filter(|(_, &q)| q == r) {
                    set(&mut eq, i);
                }
                cands.push_bits(Atom::remainder(x, m, Rel::Eq, Value::Int(r)), 1, &eq, false);
                cands.push_bits(Atom::remainder(x, m, Rel::Ne, Value::Int(r)), 1, &eq, true);
            }
        }
    }
}

/// The atom's left-hand side at `p`, with an integer fast path.
fn lin_value(atom: &Atom, p: &[Value]) -> Value {
    // i64 first (the common case; i128 arithmetic is slow on 32-bit targets).
    let mut small: Option<i64> = Some(0);
    for &(v, a) in atom.terms() {
        small = match p.get(v) {
            Some(Value::Int(x)) => small.and_then(|s| s.checked_add(x.checked_mul(a)?)),
            Some(Value::Rat(_)) => None,
            None => small,
        };
    }
    if let Some(s) = small {
        return Value::Int(s);
    }
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
    fn extra_moduli_offer_divisibility() {
        // Leap years in the Gregorian rule: y % 400 == 0 or (y % 4 == 0 and y % 100 != 0).
        let vars = vec!["y".to_string()];
        let data: Vec<Example> = (1880..2110)
            .chain([1600, 1700, 1800, 2200, 2300, 2400])
            .map(|y| Example {
                point: vec![Value::Int(y)],
                bug: y % 400 == 0 || (y % 4 == 0 && y % 100 != 0),
            })
            .collect();
        let plain = learn(&vars, &data, &LearnConfig::default());
        assert!(plain
            .formula
            .is_none_or(|f| !f.to_string().contains("% 400")));
        let config = LearnConfig {
            extra_moduli: vec![100, 400],
            ..LearnConfig::default()
        };
        let f = learn(&vars, &data, &config).formula.unwrap().to_string();
        assert!(
            f.contains("y % 400 = 0") && f.contains("y % 100 != 0"),
            "{f}"
        );
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
