//! Exhaustive search for formulas of four or five literals, every shape of both forms,
//! bounded by a step budget: groups found by branching on the point fewest literals can
//! settle, small groups bucketed by the points they hold on.
//!
//! Both forms are one search. A DNF is groups (terms) that each reject every ok point
//! and together hold on every bug; a CNF is the same over the literals' complements with
//! bugs and ok points swapped (a clause must hold on every bug, and the clauses together
//! must reject every ok point). So one side searches the truth rows as they are, the
//! other their complements.
//!
//! Only smallest formulas are sought (no formula of fewer literals exists), so every
//! group is irredundant: a group holding a literal that alone rejects everything (a
//! unit) would be beaten by that unit, and a literal whose removal keeps the group
//! rejecting everything would be beaten by the smaller group.

use super::formula::Form;
use super::fxhash::FxHashMap;
use super::pool::{Pool, TIERS};
use super::small::{Forms, Found};

/// What the search settled.
pub(crate) enum Outcome {
    /// The best formula of the size: fewest groups, then lowest highest tier, then least
    /// complexity, DNF before CNF, then the simplest literals (lowest indices).
    Found(Found),
    /// No formula of the size over the pool is consistent with the examples.
    Impossible,
    /// The step budget ran out before the search ended.
    Budget,
}

/// The shapes of a formula of `lits` literals with `groups` groups, as sizes in
/// ascending order (one-literal groups only, `groups == lits`, is one group of the other
/// form: searched only when that form is not tried).
fn shapes(lits: usize, groups: usize) -> &'static [&'static [usize]] {
    match (lits, groups) {
        (4, 1) => &[&[4]],
        (4, 2) => &[&[1, 3], &[2, 2]],
        (4, 3) => &[&[1, 1, 2]],
        (4, 4) => &[&[1, 1, 1, 1]],
        (5, 1) => &[&[5]],
        (5, 2) => &[&[1, 4], &[2, 3]],
        (5, 3) => &[&[1, 1, 3], &[1, 2, 2]],
        (5, 4) => &[&[1, 1, 1, 2]],
        (5, 5) => &[&[1, 1, 1, 1, 1]],
        _ => &[],
    }
}

/// The best formula of exactly `lits` (4 or 5) literals over `pool` consistent with the
/// examples `ex_mask` (of which `bug_mask` are bugs), given that none has fewer literals;
/// at most `budget` steps (candidate literals and buckets looked at).
pub(crate) fn search(
    pool: &Pool,
    ex_mask: &[u64],
    bug_mask: &[u64],
    forms: Forms,
    lits: usize,
    budget: u64,
) -> Outcome {
    let ok_mask: Vec<u64> = ex_mask.iter().zip(bug_mask).map(|(e, b)| e & !b).collect();
    let mut steps = Steps { used: 0, budget };
    let mut sides = Vec::new();
    if forms.dnf {
        sides.push(Side::new(
            pool,
            Form::Dnf,
            ex_mask,
            bug_mask,
            &ok_mask,
            false,
        ));
    }
    if forms.cnf {
        sides.push(Side::new(
            pool,
            Form::Cnf,
            ex_mask,
            &ok_mask,
            bug_mask,
            true,
        ));
    }
    let most = if sides.len() == 2 { lits - 1 } else { lits };
    for groups in 1..=most.min(forms.max_groups) {
        let mut best = Best::default();
        for side in sides.iter_mut() {
            for shape in shapes(lits, groups) {
                if !side.shape(shape, &mut steps, &mut best) {
                    return Outcome::Budget;
                }
            }
        }
        if let Some((found, _)) = best.0 {
            return Outcome::Found(found);
        }
    }
    Outcome::Impossible
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

/// Groups of one size that hold on the same points: for each highest tier `t`, the least
/// complex group whose literals are all of tier `t` or lower.
struct Bucket {
    held: Vec<u64>,
    upto: [Option<(u32, Vec<usize>)>; TIERS],
}

/// Receives two groups (literal indices) found together, with the side they are of.
type PairEmit<'e> = dyn FnMut(&Side, Vec<usize>, Vec<usize>) + 'e;

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
    /// Groups of two and three literals by the points they hold on (built on first use).
    tables: [Option<Vec<Bucket>>; 2],
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
        let flip = if complement { !0 } else { 0 };
        let mut rows = Vec::with_capacity(n * words);
        for l in &pool.lits {
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
            tables: [None, None],
        }
    }

    #[inline(always)]
    fn row(&self, i: usize) -> &[u64] {
        &self.rows[i * self.words..(i + 1) * self.words]
    }

    fn tier(&self, i: usize) -> usize {
        self.pool.lits[i].tier
    }

    fn complexity(&self, i: usize) -> u32 {
        self.pool.lits[i].atom.complexity()
    }

    /// Offers a formula of these groups.
    fn offer(&self, best: &mut Best, groups: Vec<Vec<usize>>) {
        let mut sorted: Vec<usize> = groups.iter().flatten().copied().collect();
        sorted.sort_unstable();
        let found = Found::new(self.pool, self.form, groups);
        let better = best
            .0
            .as_ref()
            .is_none_or(|(b, s)| (found.key, &sorted) < (b.key, s));
        if better {
            best.0 = Some((found, sorted));
        }
    }

    /// Searches the formulas of one shape (group sizes, ascending). False when the
    /// budget ran out.
    fn shape(&mut self, shape: &[usize], steps: &mut Steps, best: &mut Best) -> bool {
        let singles = shape.iter().take_while(|&&s| s == 1).count();
        let rest = &shape[singles..];
        let units = self.units.clone();
        let mut chosen = Vec::with_capacity(singles);
        self.unit_choices(
            &units,
            singles,
            &mut chosen,
            steps,
            &mut |side, chosen, steps| {
                let need = side.uncovered(chosen);
                let unit_groups = || chosen.iter().map(|&u| vec![u]).collect::<Vec<_>>();
                if need.iter().all(|&w| w == 0) {
                    // The units alone suffice: this shape's formula if it has no other
                    // group, else a smaller formula's.
                    if rest.is_empty() {
                        side.offer(best, unit_groups());
                    }
                    return true;
                }
                match rest {
                    // One group of more literals: found directly, held on the points left.
                    [size] => {
                        let side_ref: &Side = side;
                        side_ref.groups(*size, &need, steps, &mut |g, _| {
                            let mut groups = unit_groups();
                            groups.push(g.to_vec());
                            side_ref.offer(best, groups);
                        })
                    }
                    // Two groups of two or three: from the bucket tables.
                    [a, b] => side.table_pairs(*a, *b, &need, steps, &mut |side, x, y| {
                        let mut groups = unit_groups();
                        groups.push(x);
                        groups.push(y);
                        side.offer(best, groups);
                    }),
                    _ => true,
                }
            },
        )
    }

    /// Calls `then` with every ascending choice of `count` distinct units (extending
    /// `chosen`). False when the budget ran out.
    fn unit_choices(
        &mut self,
        units: &[usize],
        count: usize,
        chosen: &mut Vec<usize>,
        steps: &mut Steps,
        then: &mut dyn FnMut(&mut Side<'a>, &[usize], &mut Steps) -> bool,
    ) -> bool {
        if count == 0 {
            return then(self, chosen, steps);
        }
        for (k, &u) in units.iter().enumerate() {
            if !steps.take() {
                return false;
            }
            chosen.push(u);
            let done = self.unit_choices(&units[k + 1..], count - 1, chosen, steps, then);
            chosen.pop();
            if !done {
                return false;
            }
        }
        true
    }

    /// The cover points no literal of `lits` holds on.
    fn uncovered(&self, lits: &[usize]) -> Vec<u64> {
        let mut open = self.cover.clone();
        for &l in lits {
            for (o, r) in open.iter_mut().zip(self.row(l)) {
                *o &= !r;
            }
        }
        open
    }

    /// Every pair of groups, of `a` and `b` literals (2 or 3, `a <= b`), that together
    /// hold on every point of `need`, each pair of buckets once with its best groups.
    /// False when the budget ran out.
    fn table_pairs(
        &mut self,
        a: usize,
        b: usize,
        need: &[u64],
        steps: &mut Steps,
        emit: &mut PairEmit,
    ) -> bool {
        if !self.build_table(a, steps) || !self.build_table(b, steps) {
            return false;
        }
        let (Some(ta), Some(tb)) = (&self.tables[a - 2], &self.tables[b - 2]) else {
            return false;
        };
        // For each point: the buckets of `tb` holding on it, ascending.
        let mut holding: Vec<Vec<usize>> = vec![Vec::new(); self.words * 64];
        for (j, y) in tb.iter().enumerate() {
            for (w, (&h, &n)) in y.held.iter().zip(need).enumerate() {
                let mut bits = h & n;
                while bits != 0 {
                    holding[w * 64 + bits.trailing_zeros() as usize].push(j);
                    bits &= bits - 1;
                }
            }
        }
        let mut left = vec![0u64; self.words];
        for (i, x) in ta.iter().enumerate() {
            for ((l, &n), &h) in left.iter_mut().zip(need).zip(&x.held) {
                *l = n & !h;
            }
            // The partner must hold on every point `x` leaves: it is among the buckets
            // holding on the one of those points the fewest hold on.
            let mut rarest: Option<&[usize]> = None;
            for (w, &word) in left.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let list = &holding[w * 64 + bits.trailing_zeros() as usize];
                    if rarest.is_none_or(|r| list.len() < r.len()) {
                        rarest = Some(list);
                    }
                    bits &= bits - 1;
                }
            }
            // `x` alone holds on everything left: with the units, a smaller formula.
            let Some(partners) = rarest else {
                continue;
            };
            // Equal sizes: each unordered pair of buckets once.
            let from = if a == b { i + 1 } else { 0 };
            for &j in &partners[partners.partition_point(|&j| j < from)..] {
                if !steps.take() {
                    return false;
                }
                let y = &tb[j];
                if !covers_union(&x.held, &y.held, need) {
                    continue;
                }
                // The lowest highest tier both have, then the least complexity there.
                let pick = (0..TIERS).find_map(|t| match (&x.upto[t], &y.upto[t]) {
                    (Some(p), Some(q)) => Some((p, q)),
                    _ => None,
                });
                if let Some((p, q)) = pick {
                    emit(self, p.1.clone(), q.1.clone());
                }
            }
        }
        true
    }

    /// Builds the bucket table of groups of `size` (2 or 3) literals. False when the
    /// budget ran out.
    fn build_table(&mut self, size: usize, steps: &mut Steps) -> bool {
        if self.tables[size - 2].is_some() {
            return true;
        }
        let mut index: FxHashMap<Vec<u64>, usize> = FxHashMap::default();
        let mut buckets: Vec<Bucket> = Vec::new();
        let side: &Side = self;
        let done = side.groups(size, &[], steps, &mut |g, held| {
            let at = *index.entry(held.to_vec()).or_insert_with(|| {
                buckets.push(Bucket {
                    held: held.to_vec(),
                    upto: Default::default(),
                });
                buckets.len() - 1
            });
            let mut lits = g.to_vec();
            lits.sort_unstable();
            let tier = lits.iter().map(|&i| side.tier(i)).max().unwrap_or(0);
            let cx: u32 = lits.iter().map(|&i| side.complexity(i)).sum();
            for slot in &mut buckets[at].upto[tier..] {
                if slot.as_ref().is_none_or(|s| (cx, &lits) < (s.0, &s.1)) {
                    *slot = Some((cx, lits.clone()));
                }
            }
        });
        if !done {
            return false;
        }
        self.tables[size - 2] = Some(buckets);
        true
    }

    /// Calls `emit` with every irredundant group of `size` literals (no unit among them)
    /// that rejects every reject point and holds on every point of `need` and on some
    /// cover point, with the cover points it holds on, each group once. False when the
    /// budget ran out.
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
        let mut walk = Walk {
            side: self,
            size,
            need,
            steps,
            emit,
            open,
            held,
            chosen: vec![0; size],
            banned: vec![false; self.pool.lits.len()],
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
    chosen: Vec<usize>,
    /// Literals a deeper level may not take: an earlier branch of a shallower level
    /// already enumerated every group holding them, so each group comes once.
    banned: Vec<bool>,
}

impl Walk<'_, '_> {
    fn depth(&mut self, d: usize) -> bool {
        let side = self.side;
        let w = side.words;
        let open = &self.open[d * w..(d + 1) * w];
        if open.iter().all(|&x| x == 0) {
            // Fewer literals already reject everything: a bigger group is redundant.
            if d == self.size && self.irredundant() {
                (self.emit)(&self.chosen, &self.held[d * w..(d + 1) * w]);
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
        let mut mine = Vec::new();
        let done = self.branches(d, list, &mut mine);
        // Later branches of a shallower level may take these again.
        for l in mine {
            self.banned[l] = false;
        }
        done
    }

    /// The branches of depth `d`: each literal of `list` (those rejecting the rarest open
    /// point) not banned by a shallower level, banning it for the later branches (noted
    /// in `mine`).
    fn branches(&mut self, d: usize, list: &[usize], mine: &mut Vec<usize>) -> bool {
        let side = self.side;
        let w = side.words;
        for &l in list {
            if !self.steps.take() {
                return false;
            }
            if self.banned[l] {
                continue;
            }
            self.banned[l] = true;
            mine.push(l);
            let row = side.row(l);
            let (lower, upper) = self.held.split_at_mut((d + 1) * w);
            let held = &lower[d * w..];
            let next = &mut upper[..w];
            let mut some = false;
            let mut enough = true;
            for k in 0..w {
                next[k] = held[k] & row[k];
                some |= next[k] != 0;
                let need = self.need.get(k).copied().unwrap_or(0);
                enough &= next[k] & need == need;
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
        let side = self.side;
        let g = &self.chosen;
        (0..g.len()).all(|skip| {
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

/// `a or b` holds on every point of `m`.
fn covers_union(a: &[u64], b: &[u64], m: &[u64]) -> bool {
    a.iter().zip(b).zip(m).all(|((x, y), z)| (x | y) & z == *z)
}
