//! SAT encoding of "a CNF (or DNF) over pool literals, consistent with the examples, of at
//! most L literals and k groups", kept incremental with assumption literals.

use super::conflicts::{ConflictCount, ConflictMeter};
use super::formula::{Atom, Form};
use super::pool::{bit, Pool, PoolLit, BASE_TIERS, TIERS};
use std::collections::HashMap;
use std::rc::Rc;
use varisat::{ExtendFormula, Lit, Solver};

/// One incremental solver for one normal form over one pool.
///
/// Groups (clauses of a CNF, terms of a DNF) are numbered `0..max_groups`; a group is
/// usable only while its enable literal is true (and group `j+1` implies group `j`, so
/// "at most k groups" is one assumption). Each example is encoded once, guarded by its
/// own activation literal, so any subset of examples (current labels plus a hypothetical
/// one) is a set of assumptions and learned clauses carry over between calls.
pub(crate) struct Encoding {
    solver: Solver<'static>,
    form: Form,
    /// `sel[j][a]`: pool literal `a` occurs in group `j`.
    sel: Vec<Vec<Lit>>,
    en: Vec<Lit>,
    tier: Vec<Lit>,
    /// `card[c]`: at least `c + 1` selectors are true.
    card: Vec<Lit>,
    acts: HashMap<(usize, bool), Lit>,
    /// Conflicts counted from the solver's proof stream (the budget of each query).
    conflicts: Rc<ConflictCount>,
    /// Set when the solver reported an error or ran out of conflicts; the encoding must
    /// then be rebuilt (varisat cannot continue after either).
    pub broken: bool,
}

/// The result of one query.
pub(crate) enum Answer {
    /// The groups found: pool literal indices per group.
    Sat(Vec<Vec<usize>>),
    Unsat,
    /// The query's conflict budget ran out (the encoding is now broken).
    ConflictLimit,
    Error(String),
}

impl Encoding {
    /// Builds the selector structure, group enables, tiers and the cardinality counter.
    pub fn new(form: Form, pool: &[PoolLit], max_groups: usize, max_literals: usize) -> Encoding {
        let mut solver = Solver::new();
        let (meter, conflicts) = ConflictMeter::new();
        // On 32-bit targets this relies on the wrapping shift set for varisat in
        // Cargo.toml (`[profile.dev.package.varisat]`); the count is unaffected.
        solver.write_proof(meter, varisat::ProofFormat::Varisat);
        let p = pool.len();
        let en: Vec<Lit> = (0..max_groups).map(|_| solver.new_lit()).collect();
        // The avoided tiers get literals only when some literal is in one, so a pool
        // without them is encoded exactly as before they existed.
        let tiers = if pool.iter().any(|l| l.tier >= BASE_TIERS) {
            TIERS
        } else {
            BASE_TIERS
        };
        let tier: Vec<Lit> = (0..tiers).map(|_| solver.new_lit()).collect();
        let sel: Vec<Vec<Lit>> = (0..max_groups)
            .map(|_| (0..p).map(|_| solver.new_lit()).collect())
            .collect();
        for j in 0..max_groups {
            if j + 1 < max_groups {
                solver.add_clause(&[!en[j + 1], en[j]]);
            }
            for (a, lit) in pool.iter().enumerate() {
                solver.add_clause(&[!sel[j][a], en[j]]);
                solver.add_clause(&[!sel[j][a], tier[lit.tier]]);
            }
        }
        // Symmetry breaking: groups are interchangeable, so require the smallest selected
        // literal of group j to be at most that of group j + 1. `first[a]` of group j
        // means "group j selects some literal <= a".
        for j in 0..max_groups.saturating_sub(1) {
            let mut prev_f: Option<Lit> = None;
            for (&here, &next) in sel[j].iter().zip(&sel[j + 1]) {
                let f = solver.new_lit();
                let mut c = vec![!f, here];
                if let Some(pf) = prev_f {
                    c.push(pf);
                }
                solver.add_clause(&c);
                solver.add_clause(&[!next, f]);
                prev_f = Some(f);
            }
        }
        // Sequential counter (Sinz), one-sided: card[c] is forced true when at least
        // c + 1 selectors are true; assuming !card[L] bounds the size by L.
        let bound = max_literals + 1;
        let mut prev: Vec<Option<Lit>> = vec![None; bound];
        for x in sel.iter().flatten().copied() {
            let mut cur: Vec<Option<Lit>> = vec![None; bound];
            for c in 0..bound {
                let need = c == 0 || prev[c - 1].is_some();
                if !need && prev[c].is_none() {
                    continue;
                }
                let r = solver.new_lit();
                if c == 0 {
                    solver.add_clause(&[!x, r]);
                } else if let Some(pc) = prev[c - 1] {
                    solver.add_clause(&[!x, !pc, r]);
                }
                if let Some(pr) = prev[c] {
                    solver.add_clause(&[!pr, r]);
                }
                cur[c] = Some(r);
            }
            prev = cur;
        }
        let card = prev
            .into_iter()
            .map(|l| {
                l.unwrap_or_else(|| {
                    // Fewer selectors than the bound: the count can never reach it.
                    let f = solver.new_lit();
                    solver.add_clause(&[!f]);
                    f
                })
            })
            .collect();
        Encoding {
            solver,
            form,
            sel,
            en,
            tier,
            card,
            acts: HashMap::new(),
            conflicts,
            broken: false,
        }
    }

    /// The activation literal of example (pool point `pt`, label), encoding it on first use.
    fn act(&mut self, pool: &[PoolLit], pt: usize, bug: bool) -> Lit {
        if let Some(&l) = self.acts.get(&(pt, bug)) {
            return l;
        }
        let act = self.solver.new_lit();
        // CNF: a bug must make every clause true (hit each clause with a true literal);
        // an ok point must falsify some clause (witness: all its literals false).
        // DNF is the dual: an ok point must falsify a literal in every term, a bug must
        // satisfy every literal of some term.
        let (hit, value) = match (self.form, bug) {
            (Form::Cnf, true) => (true, true),
            (Form::Cnf, false) => (false, false),
            (Form::Dnf, true) => (false, true),
            (Form::Dnf, false) => (true, false),
        };
        let groups = self.sel.len();
        if hit {
            for j in 0..groups {
                let mut clause = vec![!act, !self.en[j]];
                for (a, lit) in pool.iter().enumerate() {
                    if bit(&lit.truth, pt) == value {
                        clause.push(self.sel[j][a]);
                    }
                }
                self.solver.add_clause(&clause);
            }
        } else {
            let zs: Vec<Lit> = (0..groups).map(|_| self.solver.new_lit()).collect();
            let mut some = vec![!act];
            some.extend(&zs);
            self.solver.add_clause(&some);
            for (j, &z) in zs.iter().enumerate() {
                self.solver.add_clause(&[!z, self.en[j]]);
                for (a, lit) in pool.iter().enumerate() {
                    if bit(&lit.truth, pt) != value {
                        self.solver.add_clause(&[!z, !self.sel[j][a]]);
                    }
                }
            }
        }
        self.acts.insert((pt, bug), act);
        act
    }

    /// Conflicts of all queries so far (exact between queries).
    pub fn conflicts(&self) -> u64 {
        self.conflicts.conflicts()
    }

    /// Is there a formula with at most `literals` literals, `groups` groups and atoms of
    /// tiers `<= max_tier`, consistent with `examples` (pool point, is-bug)? The solver
    /// may use `conflict_budget` conflicts (noticed at its next proof-buffer flush).
    #[allow(clippy::too_many_arguments)]
    pub fn query(
        &mut self,
        pool: &[PoolLit],
        examples: &[(usize, bool)],
        literals: usize,
        groups: usize,
        max_tier: usize,
        conflict_budget: u64,
    ) -> Answer {
        if self.broken {
            return Answer::Error("solver unusable after an earlier error".into());
        }
        let mut assume: Vec<Lit> = examples
            .iter()
            .map(|&(pt, bug)| self.act(pool, pt, bug))
            .collect();
        if groups < self.en.len() {
            assume.push(!self.en[groups]);
        }
        for t in max_tier + 1..self.tier.len() {
            assume.push(!self.tier[t]);
        }
        if literals < self.card.len() {
            assume.push(!self.card[literals]);
        }
        self.solver.assume(&assume);
        self.conflicts.allow(conflict_budget);
        match self.solver.solve() {
            Ok(true) => {
                let Some(model) = self.solver.model() else {
                    return Answer::Error("no model after SAT".into());
                };
                let mut val = vec![false; model.len() + 1];
                for l in model {
                    if l.index() < val.len() {
                        val[l.index()] = l.is_positive();
                    }
                }
                let get = |l: Lit| val.get(l.index()).copied().unwrap_or(false) == l.is_positive();
                let mut out = Vec::new();
                for j in 0..self.sel.len() {
                    if !get(self.en[j]) {
                        continue;
                    }
                    let g: Vec<usize> = (0..pool.len()).filter(|&a| get(self.sel[j][a])).collect();
                    if !g.is_empty() {
                        out.push(g);
                    }
                }
                Answer::Sat(out)
            }
            Ok(false) => Answer::Unsat,
            Err(_) if self.conflicts.tripped() => {
                self.broken = true;
                Answer::ConflictLimit
            }
            Err(e) => {
                self.broken = true;
                Answer::Error(e.to_string())
            }
        }
    }
}

/// Truth of a candidate formula (groups of pool literal indices) on every pool point.
pub(crate) fn formula_truth(pool: &Pool, form: Form, groups: &[Vec<usize>]) -> Vec<u64> {
    let words = pool.words;
    let mut acc: Vec<u64> = vec![if form == Form::Cnf { !0 } else { 0 }; words];
    for g in groups {
        let mut gv: Vec<u64> = vec![if form == Form::Cnf { 0 } else { !0 }; words];
        for &a in g {
            for (w, t) in gv.iter_mut().zip(&pool.lits[a].truth) {
                if form == Form::Cnf {
                    *w |= t;
                } else {
                    *w &= t;
                }
            }
        }
        for (w, g) in acc.iter_mut().zip(&gv) {
            if form == Form::Cnf {
                *w &= g;
            } else {
                *w |= g;
            }
        }
    }
    acc
}

/// Replaces literals by simpler pool literals (lower index = simpler) while the formula
/// stays consistent: a cheap tie-break among equally small formulas.
pub(crate) fn simplify_groups(
    pool: &Pool,
    form: Form,
    groups: &mut [Vec<usize>],
    ex_mask: &[u64],
    bug_mask: &[u64],
) {
    let consistent = |gs: &[Vec<usize>]| {
        formula_truth(pool, form, gs)
            .iter()
            .zip(ex_mask)
            .zip(bug_mask)
            .all(|((t, e), b)| t & e == *b)
    };
    for j in 0..groups.len() {
        for i in 0..groups[j].len() {
            let cur = groups[j][i];
            for cand in 0..cur {
                if groups[j].contains(&cand) {
                    continue;
                }
                groups[j][i] = cand;
                if consistent(groups) {
                    break;
                }
                groups[j][i] = cur;
            }
        }
    }
}

/// The atoms of the groups, sorted for a stable, readable order.
pub(crate) fn groups_to_atoms(pool: &Pool, groups: &[Vec<usize>]) -> Vec<Vec<Atom>> {
    let mut idx: Vec<Vec<usize>> = groups
        .iter()
        .map(|g| {
            let mut g = g.clone();
            g.sort_unstable();
            g.dedup();
            g
        })
        .collect();
    idx.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    idx.iter()
        .map(|g| g.iter().map(|&a| pool.lits[a].atom.clone()).collect())
        .collect()
}
