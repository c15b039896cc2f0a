//! Exhaustive bitset search for formulas of 1 to 3 literals: proves small sizes
//! impossible far faster than SAT, so the solver only sees sizes 4 and up.

use super::formula::Form;
use super::pool::Pool;

/// The best formula found: form, groups of pool literal indices, and its tie-break key.
pub(crate) struct Found {
    pub form: Form,
    pub groups: Vec<Vec<usize>>,
    /// (groups, highest tier, complexity sum, form rank): smaller is better.
    pub key: (usize, usize, u32, u8),
}

fn and(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

fn or(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x | y).collect()
}

fn disjoint(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

fn covers(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == *y)
}

/// Rank of a form on full ties: conjunctions (DNF) first, since bug regions are usually
/// small and a conjunction describes a small region.
pub(crate) fn form_rank(form: Form) -> u8 {
    match form {
        Form::Dnf => 0,
        Form::Cnf => 1,
    }
}

/// Smallest-key formula with exactly `lits` literals (1..=3), if any.
pub(crate) fn search(pool: &Pool, ex_mask: &[u64], bug_mask: &[u64], lits: usize) -> Option<Found> {
    let neg: Vec<u64> = ex_mask.iter().zip(bug_mask).map(|(e, b)| e & !b).collect();
    let pos = bug_mask;
    let t: Vec<Vec<u64>> = pool.lits.iter().map(|l| and(&l.truth, ex_mask)).collect();
    let n = t.len();
    // A: true on every bug; B: false on every ok point.
    let a_set: Vec<usize> = (0..n).filter(|&i| covers(&t[i], pos)).collect();
    let b_set: Vec<usize> = (0..n).filter(|&i| disjoint(&t[i], &neg)).collect();
    let in_a: Vec<bool> = (0..n).map(|i| covers(&t[i], pos)).collect();
    let in_b: Vec<bool> = (0..n).map(|i| disjoint(&t[i], &neg)).collect();
    let mut best: Option<Found> = None;
    match lits {
        1 => {
            for &a in &a_set {
                if in_b[a] {
                    offer(pool, &mut best, Form::Dnf, vec![vec![a]]);
                }
            }
        }
        2 => {
            for (x, &a) in a_set.iter().enumerate() {
                for &b in &a_set[x + 1..] {
                    if disjoint(&and(&t[a], &t[b]), &neg) {
                        offer(pool, &mut best, Form::Dnf, vec![vec![a, b]]);
                    }
                }
            }
            for (x, &a) in b_set.iter().enumerate() {
                for &b in &b_set[x + 1..] {
                    if covers(&or(&t[a], &t[b]), pos) {
                        offer(pool, &mut best, Form::Cnf, vec![vec![a, b]]);
                    }
                }
            }
        }
        3 => {
            // One group: a conjunction of A-literals or a disjunction of B-literals.
            for (x, &a) in a_set.iter().enumerate() {
                for (y, &b) in a_set.iter().enumerate().skip(x + 1) {
                    let ab = and(&t[a], &t[b]);
                    for &c in &a_set[y + 1..] {
                        if disjoint(&and(&ab, &t[c]), &neg) {
                            offer(pool, &mut best, Form::Dnf, vec![vec![a, b, c]]);
                        }
                    }
                }
            }
            for (x, &a) in b_set.iter().enumerate() {
                for (y, &b) in b_set.iter().enumerate().skip(x + 1) {
                    let ab = or(&t[a], &t[b]);
                    for &c in &b_set[y + 1..] {
                        if covers(&or(&ab, &t[c]), pos) {
                            offer(pool, &mut best, Form::Cnf, vec![vec![a, b, c]]);
                        }
                    }
                }
            }
            if best.is_some() {
                return best;
            }
            // Two groups. CNF a and (b or c): a in A, b or c covers the bugs, neither alone.
            // DNF a or (b and c): a in B, b and c rejects the ok points, neither alone.
            for b in 0..n {
                for c in b + 1..n {
                    if !in_a[b] && !in_a[c] {
                        let bc = or(&t[b], &t[c]);
                        if covers(&bc, pos) {
                            let left = and(&bc, &neg);
                            for &a in &a_set {
                                if a != b && a != c && disjoint(&t[a], &left) {
                                    offer(pool, &mut best, Form::Cnf, vec![vec![a], vec![b, c]]);
                                }
                            }
                        }
                    }
                    if !in_b[b] && !in_b[c] {
                        let bc = and(&t[b], &t[c]);
                        if disjoint(&bc, &neg) {
                            let missing: Vec<u64> =
                                pos.iter().zip(&bc).map(|(p, x)| p & !x).collect();
                            for &a in &b_set {
                                if a != b && a != c && covers(&t[a], &missing) {
                                    offer(pool, &mut best, Form::Dnf, vec![vec![a], vec![b, c]]);
                                }
                            }
                        }
                    }
                }
            }
        }
        _ => {}
    }
    best
}

fn offer(pool: &Pool, best: &mut Option<Found>, form: Form, groups: Vec<Vec<usize>>) {
    let all = groups.iter().flatten();
    let key = (
        groups.len(),
        all.clone().map(|&i| pool.lits[i].tier).max().unwrap_or(0),
        all.map(|&i| pool.lits[i].atom.complexity()).sum(),
        form_rank(form),
    );
    if best.as_ref().is_none_or(|b| key < b.key) {
        *best = Some(Found { form, groups, key });
    }
}
