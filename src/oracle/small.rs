//! Exhaustive bitset search for formulas of 1 to 3 literals: proves small sizes
//! impossible far faster than SAT (sizes 4 and 5 are `medium`'s, 6 and up the solver's).

use super::formula::Form;
use super::pool::Pool;

/// The best formula found: form, groups of pool literal indices, and its tie-break key.
pub(crate) struct Found {
    pub form: Form,
    pub groups: Vec<Vec<usize>>,
    /// (groups, highest tier, complexity sum, form rank): smaller is better.
    pub key: (usize, usize, u32, u8),
}

impl Found {
    /// `groups` (pool literal indices) in `form`, with its tie-break key.
    pub(crate) fn new(pool: &Pool, form: Form, groups: Vec<Vec<usize>>) -> Found {
        let all = groups.iter().flatten();
        let key = (
            groups.len(),
            all.clone().map(|&i| pool.lits[i].tier).max().unwrap_or(0),
            all.map(|&i| pool.lits[i].atom.complexity()).sum(),
            form_rank(form),
        );
        Found { form, groups, key }
    }
}

/// Which formulas the configuration allows: the forms tried and the most groups.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Forms {
    pub cnf: bool,
    pub dnf: bool,
    pub max_groups: usize,
}

impl Forms {
    /// The allowed formula equal to `groups` in `form`, if any: as it is, or - a single
    /// group of a form not tried - the other form's groups of one literal each.
    pub(crate) fn allowed(
        &self,
        form: Form,
        groups: Vec<Vec<usize>>,
    ) -> Option<(Form, Vec<Vec<usize>>)> {
        let on = |f: Form| match f {
            Form::Cnf => self.cnf,
            Form::Dnf => self.dnf,
        };
        if on(form) && groups.len() <= self.max_groups {
            return Some((form, groups));
        }
        let other = match form {
            Form::Cnf => Form::Dnf,
            Form::Dnf => Form::Cnf,
        };
        match groups.as_slice() {
            [one] if on(other) && one.len() <= self.max_groups => {
                Some((other, one.iter().map(|&l| vec![l]).collect()))
            }
            _ => None,
        }
    }
}

/// Rank of a form on full ties: conjunctions (DNF) first, since bug regions are usually
/// small and a conjunction describes a small region.
pub(crate) fn form_rank(form: Form) -> u8 {
    match form {
        Form::Dnf => 0,
        Form::Cnf => 1,
    }
}

/// The smallest formula of `lower..=upper` literals (within 1..=3), if any: the first
/// size with one, searched exhaustively.
pub(crate) fn smallest(
    pool: &Pool,
    ex_mask: &[u64],
    bug_mask: &[u64],
    forms: Forms,
    lower: usize,
    upper: usize,
) -> Option<Found> {
    if lower.max(1) > upper.min(3) {
        return None;
    }
    // Bit vectors of one or two words (up to 128 points: the active loop's case) get
    // their own instance, whose word loops the compiler unrolls; any other length, one
    // with the length read at run time.
    match ex_mask.len() {
        1 => SmallSearch::<1>::new(pool, ex_mask, bug_mask, forms).first(lower, upper),
        2 => SmallSearch::<2>::new(pool, ex_mask, bug_mask, forms).first(lower, upper),
        _ => SmallSearch::<0>::new(pool, ex_mask, bug_mask, forms).first(lower, upper),
    }
}

/// The pool's truth vectors restricted to the examples, with the literals true on every
/// bug (set A) and false on every ok example (set B): built once per learn call, then
/// searched for each size. `W` is the number of words per vector when known at compile
/// time (0: read `words`).
struct SmallSearch<'a, const W: usize> {
    pool: &'a Pool,
    forms: Forms,
    words: usize,
    /// Literal `i`'s truth on the examples: words `i * words ..`.
    t: Vec<u64>,
    pos: Vec<u64>,
    neg: Vec<u64>,
    a_set: Vec<usize>,
    b_set: Vec<usize>,
    in_a: Vec<bool>,
    in_b: Vec<bool>,
}

impl<'a, const W: usize> SmallSearch<'a, W> {
    /// The search over `pool` for the examples `ex_mask`, of which `bug_mask` are bugs.
    fn new(pool: &'a Pool, ex_mask: &[u64], bug_mask: &[u64], forms: Forms) -> SmallSearch<'a, W> {
        let words = ex_mask.len();
        let neg: Vec<u64> = ex_mask.iter().zip(bug_mask).map(|(e, b)| e & !b).collect();
        let pos = bug_mask.to_vec();
        let mut t = Vec::with_capacity(pool.lits.len() * words);
        for l in &pool.lits {
            t.extend(l.truth.iter().zip(ex_mask).map(|(x, e)| x & e));
        }
        let n = pool.lits.len();
        let row = |i: usize| &t[i * words..(i + 1) * words];
        // A: true on every bug; B: false on every ok point.
        let in_a: Vec<bool> = (0..n).map(|i| covers(row(i), &pos)).collect();
        let in_b: Vec<bool> = (0..n).map(|i| disjoint(row(i), &neg)).collect();
        let a_set: Vec<usize> = (0..n).filter(|&i| in_a[i]).collect();
        let b_set: Vec<usize> = (0..n).filter(|&i| in_b[i]).collect();
        SmallSearch {
            pool,
            forms,
            words,
            t,
            pos,
            neg,
            a_set,
            b_set,
            in_a,
            in_b,
        }
    }

    /// Words per vector.
    #[inline(always)]
    fn words(&self) -> usize {
        if W > 0 {
            W
        } else {
            self.words
        }
    }

    #[inline(always)]
    fn row(&self, i: usize) -> &[u64] {
        let w = self.words();
        &self.t[i * w..(i + 1) * w]
    }

    /// The formula of the first size in `lower..=upper` (within 1..=3) that has one.
    fn first(&self, lower: usize, upper: usize) -> Option<Found> {
        (lower.max(1)..=upper.min(3)).find_map(|lits| self.search(lits))
    }

    /// Smallest-key formula with exactly `lits` literals (1..=3), if any.
    fn search(&self, lits: usize) -> Option<Found> {
        let pool = self.pool;
        let forms = &self.forms;
        let (pos, neg) = (self.pos.as_slice(), self.neg.as_slice());
        let (a_set, b_set) = (&self.a_set, &self.b_set);
        let t = |i: usize| self.row(i);
        let mut best: Option<Found> = None;
        let mut ab = vec![0u64; self.words()];
        match lits {
            1 => {
                for &a in a_set {
                    if self.in_b[a] {
                        offer(pool, forms, &mut best, Form::Dnf, vec![vec![a]]);
                    }
                }
            }
            2 => {
                for (x, &a) in a_set.iter().enumerate() {
                    for &b in &a_set[x + 1..] {
                        if and_disjoint(t(a), t(b), neg) {
                            offer(pool, forms, &mut best, Form::Dnf, vec![vec![a, b]]);
                        }
                    }
                }
                for (x, &a) in b_set.iter().enumerate() {
                    for &b in &b_set[x + 1..] {
                        if or_covers(t(a), t(b), pos) {
                            offer(pool, forms, &mut best, Form::Cnf, vec![vec![a, b]]);
                        }
                    }
                }
            }
            3 => {
                // One group: a conjunction of A-literals or a disjunction of B-literals.
                for (x, &a) in a_set.iter().enumerate() {
                    for (y, &b) in a_set.iter().enumerate().skip(x + 1) {
                        and_into(&mut ab, t(a), t(b));
                        for &c in &a_set[y + 1..] {
                            if and_disjoint(&ab, t(c), neg) {
                                offer(pool, forms, &mut best, Form::Dnf, vec![vec![a, b, c]]);
                            }
                        }
                    }
                }
                for (x, &a) in b_set.iter().enumerate() {
                    for (y, &b) in b_set.iter().enumerate().skip(x + 1) {
                        or_into(&mut ab, t(a), t(b));
                        for &c in &b_set[y + 1..] {
                            if or_covers(&ab, t(c), pos) {
                                offer(pool, forms, &mut best, Form::Cnf, vec![vec![a, b, c]]);
                            }
                        }
                    }
                }
                if best.is_some() || self.forms.max_groups < 2 {
                    return best;
                }
                self.two_groups(&mut best);
            }
            _ => {}
        }
        best
    }

    /// Three literals in two groups. CNF `a and (b or c)`: a in A, b or c covers the
    /// bugs, neither alone. DNF `a or (b and c)`: a in B, b and c rejects the ok points,
    /// neither alone. A CNF and a DNF never tie (the form is part of the key), so the two
    /// forms are searched one after the other, each in the order (b, c, a).
    fn two_groups(&self, best: &mut Option<Found>) {
        let pool = self.pool;
        let forms = &self.forms;
        let n = pool.lits.len();
        let (pos, neg) = (self.pos.as_slice(), self.neg.as_slice());
        let t = |i: usize| self.row(i);
        let mut rest = vec![0u64; self.words()];
        // CNF: for each b, some bug b misses must be covered by c; c runs only over the
        // literals true on the rarest such bug (in increasing order, as a full scan would).
        let not_a: Vec<usize> = (0..n).filter(|&i| !self.in_a[i]).collect();
        let true_at = self.lists(&not_a, pos, true);
        for &b in &not_a {
            let Some(list) = rarest(&true_at, pos, t(b), true) else {
                continue;
            };
            for &c in &list[list.partition_point(|&c| c <= b)..] {
                if !or_covers(t(b), t(c), pos) {
                    continue;
                }
                // The ok points `b or c` lets through: `a` must reject them all.
                for (r, ((x, y), z)) in rest.iter_mut().zip(t(b).iter().zip(t(c)).zip(neg)) {
                    *r = (x | y) & z;
                }
                for &a in &self.a_set {
                    if a != b && a != c && disjoint(t(a), &rest) {
                        offer(pool, forms, best, Form::Cnf, vec![vec![a], vec![b, c]]);
                    }
                }
            }
        }
        // DNF: for each b, some ok point b lets through must be rejected by c; c runs only
        // over the literals false on the rarest such point.
        let not_b: Vec<usize> = (0..n).filter(|&i| !self.in_b[i]).collect();
        let false_at = self.lists(&not_b, neg, false);
        for &b in &not_b {
            let Some(list) = rarest(&false_at, neg, t(b), false) else {
                continue;
            };
            for &c in &list[list.partition_point(|&c| c <= b)..] {
                if !and_disjoint(t(b), t(c), neg) {
                    continue;
                }
                // The bugs `b and c` misses: `a` must cover them all.
                for (r, ((x, y), p)) in rest.iter_mut().zip(t(b).iter().zip(t(c)).zip(pos)) {
                    *r = p & !(x & y);
                }
                for &a in &self.b_set {
                    if a != b && a != c && covers(t(a), &rest) {
                        offer(pool, forms, best, Form::Dnf, vec![vec![a], vec![b, c]]);
                    }
                }
            }
        }
    }

    /// For every point in `mask`: the literals of `lits` (ascending) whose truth there is
    /// `value`; indexed by point, empty outside `mask`.
    fn lists(&self, lits: &[usize], mask: &[u64], value: bool) -> Vec<Vec<usize>> {
        let points = self.words() * 64;
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); points];
        for (i, list) in out.iter_mut().enumerate() {
            if mask[i / 64] >> (i % 64) & 1 == 0 {
                continue;
            }
            list.extend(
                lits.iter()
                    .copied()
                    .filter(|&l| (self.row(l)[i / 64] >> (i % 64) & 1 == 1) == value),
            );
        }
        out
    }
}

/// Of the points of `mask` where `truth` is not `value` (the ones a partner literal
/// must fix), the shortest list of partners; `None` when there is no such point.
fn rarest<'l>(
    lists: &'l [Vec<usize>],
    mask: &[u64],
    truth: &[u64],
    value: bool,
) -> Option<&'l [usize]> {
    let mut best: Option<&[usize]> = None;
    for (w, (&m, &t)) in mask.iter().zip(truth).enumerate() {
        let mut open = if value { m & !t } else { m & t };
        while open != 0 {
            let i = w * 64 + open.trailing_zeros() as usize;
            open &= open - 1;
            let list = lists[i].as_slice();
            if best.is_none_or(|b| list.len() < b.len()) {
                best = Some(list);
            }
        }
    }
    best
}

#[inline(always)]
fn disjoint(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

#[inline(always)]
fn covers(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == *y)
}

/// `a and b` is disjoint from `m`.
#[inline(always)]
fn and_disjoint(a: &[u64], b: &[u64], m: &[u64]) -> bool {
    a.iter().zip(b).zip(m).all(|((x, y), z)| x & y & z == 0)
}

/// `a or b` covers `m`.
#[inline(always)]
fn or_covers(a: &[u64], b: &[u64], m: &[u64]) -> bool {
    a.iter().zip(b).zip(m).all(|((x, y), z)| (x | y) & z == *z)
}

#[inline(always)]
fn and_into(out: &mut [u64], a: &[u64], b: &[u64]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x & y;
    }
}

#[inline(always)]
fn or_into(out: &mut [u64], a: &[u64], b: &[u64]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x | y;
    }
}

fn offer(
    pool: &Pool,
    forms: &Forms,
    best: &mut Option<Found>,
    form: Form,
    groups: Vec<Vec<usize>>,
) {
    let Some((form, groups)) = forms.allowed(form, groups) else {
        return;
    };
    let found = Found::new(pool, form, groups);
    if best.as_ref().is_none_or(|b| found.key < b.key) {
        *best = Some(found);
    }
}
