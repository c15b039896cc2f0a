//! Exhaustive search for formulas of exactly four literals (one group of four, 1 + 3,
//! 2 + 2 and 1 + 1 + 2, both forms), bounded by a step budget: groups are found by
//! branching on the point fewest literals can settle, pairs bucketed by what they cover.
//!
//! Both forms are one search. A DNF is groups (terms) that each reject every ok point
//! and together cover every bug; a CNF is the same over the literals' complements with
//! bugs and ok points swapped (a clause must hold on every bug, and the clauses together
//! must reject every ok point). So one side searches the truth rows as they are, the
//! other their complements.

use super::formula::Form;
use super::fxhash::FxHashMap;
use super::pool::{Pool, TIERS};
use super::small::{form_rank, Found};

/// What the search settled.
pub(crate) enum Four {
    /// The best formula of four literals: fewest groups, then lowest highest tier, then
    /// least complexity, DNF before CNF, then the simplest literals (lowest indices).
    Found(Found),
    /// No formula of four literals over the pool is consistent with the examples.
    Impossible,
    /// The step budget ran out before the search ended.
    Budget,
}

/// The best four-literal formula over `pool` consistent with the examples `ex_mask`
/// (of which `bug_mask` are bugs), given that none of one to three literals is; at most
/// `budget` steps (candidate literals looked at).
pub(crate) fn search(pool: &Pool, ex_mask: &[u64], bug_mask: &[u64], budget: u64) -> Four {
    let ok_mask: Vec<u64> = ex_mask.iter().zip(bug_mask).map(|(e, b)| e & !b).collect();
    let mut steps = Steps { used: 0, budget };
    let sides = [
        Side::new(pool, Form::Dnf, ex_mask, bug_mask, &ok_mask, false),
        Side::new(pool, Form::Cnf, ex_mask, &ok_mask, bug_mask, true),
    ];
    let mut pairs: [Option<Buckets>; 2] = [None, None];
    for groups in 1..=3 {
        let mut best = Best::default();
        for (side, pairs) in sides.iter().zip(pairs.iter_mut()) {
            let done = match groups {
                1 => side.one_group(&mut steps, &mut best),
                2 => side.two_groups(&mut steps, &mut best, pairs),
                _ => side.three_groups(&mut steps, &mut best, pairs),
            };
            if !done {
                return Four::Budget;
            }
        }
        if let Some((found, _)) = best.0 {
            return Four::Found(found);
        }
    }
    Four::Impossible
}

/// The step budget: one step per candidate literal or bucket looked at.
struct Steps {
    used: u64,
    budget: u64,
}

impl Steps {
    /// Counts one step; false once the budget is spent.
    #[inline(always)]
    fn take(&mut self) -> bool {
        self.used += 1;
        self.used <= self.budget
    }
}

/// The best candidate so far, with its sorted literals for the last tie-break.
#[derive(Default)]
struct Best(Option<(Found, Vec<usize>)>);

/// Pair groups by the points they cover: for each exact highest tier, the least complex
/// pair (and its literals).
type Buckets = Vec<(Vec<u64>, [Option<(u32, [usize; 2])>; TIERS])>;

/// One form's view of the search: groups must reject every point of `reject` and
/// together hold on every point of `cover`.
struct Side<'a> {
    pool: &'a Pool,
    form: Form,
    words: usize,
    /// Literal `i`'s truth (complemented for the CNF side) on the examples.
    rows: Vec<u64>,
    cover: Vec<u64>,
    reject: Vec<u64>,
    /// Literals that alone reject every point of `reject` (groups of one).
    units: Vec<usize>,
    /// For each point of `reject`: the literals (not units) that reject it, ascending.
    rejecters: Vec<Vec<usize>>,
}

impl<'a> Side<'a> {
    fn new(
        pool: &'a Pool,
        form: Form,
        ex_mask: &[u64],
        cover: &[u64],
        reject: &[u64],
        complement: bool,
    ) -> Side<'a> {
        let words = ex_mask.len();
        let n = pool.lits.len();
        let mut rows = Vec::with_capacity(n * words);
        for l in &pool.lits {
            let flip = if complement { !0 } else { 0 };
            rows.extend(l.truth.iter().zip(ex_mask).map(|(t, e)| (t ^ flip) & e));
        }
        let row = |i: usize| &rows[i * words..(i + 1) * words];
        let useful = |i: usize| intersects(row(i), cover);
        let units: Vec<usize> = (0..n)
            .filter(|&i| useful(i) && !intersects(row(i), reject))
            .collect();
        let mut rejecters = vec![Vec::new(); words * 64];
        for i in (0..n).filter(|&i| useful(i) && intersects(row(i), reject)) {
            for (w, (&r, &m)) in row(i).iter().zip(reject).enumerate() {
                let mut rejected = m & !r;
                while rejected != 0 {
                    rejecters[w * 64 + rejected.trailing_zeros() as usize].push(i);
                    rejected &= rejected - 1;
                }
            }
        }
        Side {
            pool,
            form,
            words,
            rows,
            cover: cover.to_vec(),
            reject: reject.to_vec(),
            units,
            rejecters,
        }
    }

    #[inline(always)]
    fn row(&self, i: usize) -> &[u64] {
        &self.rows[i * self.words..(i + 1) * self.words]
    }

    /// The cover points `lits` leave open (that no group holds on).
    fn uncovered(&self, lits: &[usize]) -> Vec<u64> {
        let mut open = self.cover.clone();
        for &l in lits {
            for (o, r) in open.iter_mut().zip(self.row(l)) {
                *o &= !r;
            }
        }
        open
    }

    /// Offers a formula of these groups.
    fn offer(&self, best: &mut Best, groups: Vec<Vec<usize>>) {
        let lits = groups.iter().flatten();
        let tier = lits.clone().map(|&i| self.pool.lits[i].tier).max();
        let cx = lits.clone().map(|&i| self.pool.lits[i].atom.complexity());
        let key = (
            groups.len(),
            tier.unwrap_or(0),
            cx.sum(),
            form_rank(self.form),
        );
        let mut sorted: Vec<usize> = lits.copied().collect();
        sorted.sort_unstable();
        let better = best
            .0
            .as_ref()
            .is_none_or(|(b, s)| (key, &sorted) < (b.key, s));
        if better {
            let found = Found {
                form: self.form,
                groups,
                key,
            };
            best.0 = Some((found, sorted));
        }
    }

    /// One group of four literals holding on every cover point.
    fn one_group(&self, steps: &mut Steps, best: &mut Best) -> bool {
        let need = self.cover.clone();
        self.groups(4, &need, steps, &mut |g, _| {
            self.offer(best, vec![g.to_vec()])
        })
    }

    /// A single literal and a group of three, or two pairs.
    fn two_groups(&self, steps: &mut Steps, best: &mut Best, pairs: &mut Option<Buckets>) -> bool {
        for &x in &self.units {
            let need = self.uncovered(&[x]);
            if need.iter().all(|&w| w == 0) {
                continue;
            }
            let done = self.groups(3, &need, steps, &mut |g, _| {
                self.offer(best, vec![vec![x], g.to_vec()])
            });
            if !done {
                return false;
            }
        }
        let Some(buckets) = self.pair_buckets(steps, pairs) else {
            return false;
        };
        for (i, (c1, t1)) in buckets.iter().enumerate() {
            for (c2, t2) in &buckets[i + 1..] {
                if !steps.take() {
                    return false;
                }
                if !covers_union(c1, c2, &self.cover) {
                    continue;
                }
                for p in t1.iter().flatten() {
                    for q in t2.iter().flatten() {
                        self.offer(best, vec![p.1.to_vec(), q.1.to_vec()]);
                    }
                }
            }
        }
        true
    }

    /// Two single literals and a pair.
    fn three_groups(
        &self,
        steps: &mut Steps,
        best: &mut Best,
        pairs: &mut Option<Buckets>,
    ) -> bool {
        let Some(buckets) = self.pair_buckets(steps, pairs) else {
            return false;
        };
        for (i, &x) in self.units.iter().enumerate() {
            for &y in &self.units[i + 1..] {
                let need = self.uncovered(&[x, y]);
                if need.iter().all(|&w| w == 0) {
                    continue;
                }
                for (c, t) in buckets.iter() {
                    if !steps.take() {
                        return false;
                    }
                    if !contains(c, &need) {
                        continue;
                    }
                    for p in t.iter().flatten() {
                        self.offer(best, vec![vec![x], vec![y], p.1.to_vec()]);
                    }
                }
            }
        }
        true
    }

    /// Every irredundant pair group, bucketed by the cover points it holds on (computed
    /// once per side); `None` when the budget ran out.
    fn pair_buckets<'b>(
        &self,
        steps: &mut Steps,
        pairs: &'b mut Option<Buckets>,
    ) -> Option<&'b Buckets> {
        if pairs.is_none() {
            let mut index: FxHashMap<Vec<u64>, usize> = FxHashMap::default();
            let mut buckets: Buckets = Vec::new();
            let done = self.groups(2, &[], steps, &mut |g, cov| {
                let (a, b) = (g[0].min(g[1]), g[0].max(g[1]));
                let at = *index.entry(cov.to_vec()).or_insert_with(|| {
                    buckets.push((cov.to_vec(), [None; TIERS]));
                    buckets.len() - 1
                });
                let lits = &self.pool.lits;
                let tier = lits[a].tier.max(lits[b].tier);
                let cx = lits[a].atom.complexity() + lits[b].atom.complexity();
                let slot = &mut buckets[at].1[tier];
                if slot.is_none_or(|s| (cx, [a, b]) < s) {
                    *slot = Some((cx, [a, b]));
                }
            });
            if !done {
                return None;
            }
            *pairs = Some(buckets);
        }
        pairs.as_ref()
    }

    /// Calls `emit` with every irredundant group of `size` literals (no unit among them)
    /// that rejects every reject point and holds on every point of `need` and on some
    /// cover point, with the cover points it holds on; a group may come more than once.
    /// False when the budget ran out.
    fn groups(
        &self,
        size: usize,
        need: &[u64],
        steps: &mut Steps,
        emit: &mut dyn FnMut(&[usize], &[u64]),
    ) -> bool {
        let w = self.words;
        // Per depth: the reject points still open and the cover points held.
        let mut open = vec![0u64; w * (size + 1)];
        let mut held = vec![0u64; w * (size + 1)];
        open[..w].copy_from_slice(&self.reject);
        held[..w].copy_from_slice(&self.cover);
        let mut chosen = [0usize; 4];
        let mut walk = Walk {
            side: self,
            size,
            need,
            steps,
            emit,
            open,
            held,
            chosen: &mut chosen,
        };
        walk.depth(0)
    }
}

/// The state of one [`Side::groups`] enumeration.
struct Walk<'s, 'e> {
    side: &'s Side<'s>,
    size: usize,
    need: &'s [u64],
    steps: &'s mut Steps,
    emit: &'e mut dyn FnMut(&[usize], &[u64]),
    open: Vec<u64>,
    held: Vec<u64>,
    chosen: &'s mut [usize; 4],
}

impl Walk<'_, '_> {
    fn depth(&mut self, d: usize) -> bool {
        let side = self.side;
        let w = side.words;
        let open = &self.open[d * w..(d + 1) * w];
        if open.iter().all(|&x| x == 0) {
            // Fewer literals already reject everything: a bigger group is redundant.
            if d == self.size && self.irredundant() {
                (self.emit)(&self.chosen[..d], &self.held[d * w..(d + 1) * w]);
            }
            return true;
        }
        if d == self.size {
            return true;
        }
        // Every group must reject the open point with the fewest rejecters.
        let mut rarest: Option<&[usize]> = None;
        for (k, &word) in open.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let list = &side.rejecters[k * 64 + bits.trailing_zeros() as usize];
                if rarest.is_none_or(|r| list.len() < r.len()) {
                    rarest = Some(list);
                }
                bits &= bits - 1;
            }
        }
        let Some(list) = rarest else {
            return true;
        };
        for &l in list {
            if !self.steps.take() {
                return false;
            }
            let row = side.row(l);
            let (lower, upper) = self.held.split_at_mut((d + 1) * w);
            let held = &lower[d * w..];
            let next = &mut upper[..w];
            let mut some = false;
            let mut enough = true;
            for k in 0..w {
                next[k] = held[k] & row[k];
                some |= next[k] != 0;
                enough &= next[k] & self.need.get(k).copied().unwrap_or(0)
                    == self.need.get(k).copied().unwrap_or(0);
            }
            if !some || !enough {
                continue;
            }
            let (lower, upper) = self.open.split_at_mut((d + 1) * w);
            for k in 0..w {
                upper[k] = lower[d * w + k] & row[k];
            }
            self.chosen[d] = l;
            if !self.depth(d + 1) {
                return false;
            }
        }
        true
    }

    /// Whether every chosen literal is needed: without it some reject point stays open.
    fn irredundant(&self) -> bool {
        let g = &self.chosen[..self.size];
        (0..g.len()).all(|skip| {
            let side = self.side;
            (0..side.words).any(|k| {
                let mut open = side.reject[k];
                for (j, &l) in g.iter().enumerate() {
                    if j != skip {
                        open &= side.row(l)[k];
                    }
                }
                open != 0
            })
        })
    }
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// `a` holds on every point of `b`.
fn contains(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == *y)
}

/// `a or b` holds on every point of `m`.
fn covers_union(a: &[u64], b: &[u64], m: &[u64]) -> bool {
    a.iter().zip(b).zip(m).all(|((x, y), z)| (x | y) & z == *z)
}
