//! The learner session: labelled examples, the pool and the incremental SAT encodings
//! shared by `learn`, hypothetical look-one-ahead learns and the committee.

use super::formula::{Atom, Form, Formula};
use super::fxhash::FxHashMap;
use super::medium::{self, Outcome};
use super::number::Value;
use super::pool::{self, LabelSet, Pool, TIERS};
use super::sat::{self, Answer, Encoding};
use super::simplex::{self, Separation};
use super::small::{self, Forms};
use super::{Example, LearnConfig, LearnReport, OracleError, StopReason};
use std::collections::HashMap;

/// Pool and encodings built for one set of points.
struct State {
    /// Global point id -> pool index.
    local: HashMap<usize, usize>,
    pool: Pool,
    /// The prefix of `pool` (simplest literals) the SAT encodings select from has this
    /// many literals.
    sat_cut: usize,
    /// `[Cnf, Dnf]` encodings (None when that form is disabled).
    enc: [Option<Encoding>; 2],
    /// Label version the pool was built for.
    version: u64,
}

/// One look-one-ahead learn of a committee: the learner's answer had `point` been
/// labelled `bug`.
#[derive(Clone, Debug)]
pub struct Hypothesis {
    /// Index of the neighbour in the slice given to [`Learner::committee`].
    pub neighbour: usize,
    /// The hypothetical label.
    pub bug: bool,
    /// The learn outcome with that extra label.
    pub report: LearnReport,
}

/// A learning session over named variables: add labelled examples, learn, ask
/// hypothetical questions. One pool and one incremental solver per normal form serve all
/// calls until the labels change.
///
/// ```
/// use fixloop::oracle::{Learner, LearnConfig, Value};
/// let mut l = Learner::new(vec!["x".into(), "y".into()], LearnConfig::default());
/// for (x, y, bug) in [(1, 1, true), (2, 2, true), (1, 2, false), (3, 1, false)] {
///     l.add_example(vec![Value::Int(x), Value::Int(y)], bug).unwrap();
/// }
/// let report = l.learn();
/// assert_eq!(report.formula.unwrap().to_string(), "(x = y)");
/// ```
pub struct Learner {
    vars: Vec<String>,
    config: LearnConfig,
    points: Vec<Vec<Value>>,
    index: FxHashMap<Vec<Value>, usize>,
    /// Labels seen per point.
    labels: Vec<LabelSet>,
    /// Points with a label, in first-labelled order.
    labelled: Vec<usize>,
    extra_atoms: Vec<Atom>,
    version: u64,
    state: Option<State>,
    cached: Option<(u64, LearnReport)>,
    /// Conflicts of every SAT query of this session (all learn calls together).
    conflicts_used: u64,
    /// Most conflicts all learn calls of this session may use together (`None`: only the
    /// per-call `max_conflicts`).
    conflict_budget: Option<u64>,
}

struct Search<'a> {
    config: &'a LearnConfig,
    sat_calls: usize,
    /// Conflicts used by this learn call's SAT queries.
    conflicts: u64,
    /// The session's budget and what was left of it when this learn call began.
    session: Option<(u64, u64)>,
}

impl Learner {
    /// A session over the given variable names (inputs then output, typically).
    pub fn new(vars: Vec<String>, config: LearnConfig) -> Learner {
        Learner {
            vars,
            config,
            points: Vec::new(),
            index: FxHashMap::default(),
            labels: Vec::new(),
            labelled: Vec::new(),
            extra_atoms: Vec::new(),
            version: 0,
            state: None,
            cached: None,
            conflicts_used: 0,
            conflict_budget: None,
        }
    }

    /// Caps the conflicts of all later SAT queries of this session together at `budget`
    /// total conflicts (counted from the session's start; `None` removes the cap). Once it
    /// is used up, learn calls that need the SAT search stop with
    /// [`StopReason::SessionConflictLimit`] (formulas the exhaustive small search finds
    /// before any SAT query are still found). The count is noticed at varisat's next proof-buffer flush, so
    /// the total may pass `budget` by one query's overrun (a few hundred conflicts).
    pub fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.conflict_budget = budget;
        // Cached failures may have been caused by the old budget.
        self.cached = None;
    }

    /// Conflicts of every SAT query of this session so far.
    pub fn conflicts_used(&self) -> u64 {
        self.conflicts_used
    }

    /// Whether the session's conflict budget (if any) is used up.
    pub fn conflict_budget_exhausted(&self) -> bool {
        self.conflict_budget
            .is_some_and(|b| self.conflicts_used >= b)
    }

    /// A session pre-filled with examples.
    pub fn with_examples(
        vars: Vec<String>,
        config: LearnConfig,
        examples: &[Example],
    ) -> Result<Learner, OracleError> {
        let mut l = Learner::new(vars, config);
        for e in examples {
            l.add_example(e.point.clone(), e.bug)?;
        }
        Ok(l)
    }

    /// The variable names.
    pub fn vars(&self) -> &[String] {
        &self.vars
    }

    /// The configuration.
    pub fn config(&self) -> &LearnConfig {
        &self.config
    }

    /// Number of distinct labelled points.
    pub fn len(&self) -> usize {
        self.labelled.len()
    }

    /// Whether no example has been added.
    pub fn is_empty(&self) -> bool {
        self.labelled.is_empty()
    }

    /// The distinct labelled examples (a point labelled both ways appears twice).
    pub fn examples(&self) -> Vec<Example> {
        let mut out = Vec::new();
        for &p in &self.labelled {
            let l = self.labels[p];
            for (has, bug) in [(l.bug, true), (l.ok, false)] {
                if has {
                    out.push(Example {
                        point: self.points[p].clone(),
                        bug,
                    });
                }
            }
        }
        out
    }

    fn intern(&mut self, point: &[Value]) -> usize {
        if let Some(&i) = self.index.get(point) {
            return i;
        }
        let i = self.points.len();
        self.points.push(point.to_vec());
        self.index.insert(point.to_vec(), i);
        self.labels.push(LabelSet {
            bug: false,
            ok: false,
        });
        i
    }

    /// Adds a labelled example (`bug` = the run shows the bug). A duplicate is ignored; a
    /// point labelled both ways makes later learns report [`StopReason::Contradiction`].
    pub fn add_example(&mut self, point: Vec<Value>, bug: bool) -> Result<(), OracleError> {
        if point.len() != self.vars.len() {
            return Err(OracleError::Arity {
                expected: self.vars.len(),
                found: point.len(),
            });
        }
        let i = self.intern(&point);
        let l = &mut self.labels[i];
        let was_labelled = l.bug || l.ok;
        let before = (l.bug, l.ok);
        if bug {
            l.bug = true;
        } else {
            l.ok = true;
        }
        if !was_labelled {
            self.labelled.push(i);
        }
        if before != (l.bug, l.ok) {
            self.version += 1;
        }
        Ok(())
    }

    /// Adds a general atom (e.g. one found by the simplex) to every future pool.
    pub fn add_atom(&mut self, atom: Atom) {
        if !self.extra_atoms.contains(&atom) {
            self.extra_atoms.push(atom);
            self.state = None;
            self.cached = None;
        }
    }

    /// Atoms added by [`Learner::add_atom`] or found by the simplex fallback.
    pub fn extra_atoms(&self) -> &[Atom] {
        &self.extra_atoms
    }

    /// The smallest formula consistent with all labelled examples (cached until the
    /// labels change).
    pub fn learn(&mut self) -> LearnReport {
        if let Some((v, r)) = &self.cached {
            if *v == self.version {
                return r.clone();
            }
        }
        let r = self.solve(None, 1, &[]);
        self.cached = Some((self.version, r.clone()));
        r
    }

    /// What [`Learner::learn`] would return had `point` also been labelled `bug`; the
    /// session is not changed (apart from reusable solver state).
    pub fn learn_with(&mut self, point: &[Value], bug: bool) -> LearnReport {
        if point.len() != self.vars.len() {
            return self.report_stop(StopReason::Invalid(
                OracleError::Arity {
                    expected: self.vars.len(),
                    found: point.len(),
                }
                .to_string(),
            ));
        }
        let base = self.learn();
        if let Some(f) = &base.formula {
            if f.eval(point) == bug && base.stop == StopReason::Found {
                // Still consistent, and no formula for more labels can be smaller.
                return LearnReport {
                    sat_calls: 0,
                    conflicts: 0,
                    ..base
                };
            }
        }
        let lower = base.formula.as_ref().map_or(1, |f| f.literals().max(1));
        let id = self.intern(point);
        self.solve(Some((id, bug)), lower, &[id])
    }

    /// The look-one-ahead committee of Learn2fix: for every neighbour, the learner's
    /// answer with that neighbour labelled bug and labelled ok (2 per neighbour, in that
    /// order). One pool (covering all neighbours) and one solver per form serve them all.
    pub fn committee(&mut self, neighbours: &[Vec<Value>]) -> Vec<Hypothesis> {
        let base = self.learn();
        let ids: Vec<Option<usize>> = neighbours
            .iter()
            .map(|p| (p.len() == self.vars.len()).then(|| self.intern(p)))
            .collect();
        let valid: Vec<usize> = ids.iter().flatten().copied().collect();
        let mut out = Vec::with_capacity(2 * neighbours.len());
        for (k, (p, id)) in neighbours.iter().zip(&ids).enumerate() {
            for bug in [true, false] {
                let report = match id {
                    None => self.report_stop(StopReason::Invalid(
                        OracleError::Arity {
                            expected: self.vars.len(),
                            found: p.len(),
                        }
                        .to_string(),
                    )),
                    Some(id) => {
                        let consistent = base.stop == StopReason::Found
                            && base.formula.as_ref().is_some_and(|f| f.eval(p) == bug);
                        if consistent {
                            LearnReport {
                                sat_calls: 0,
                                conflicts: 0,
                                ..base.clone()
                            }
                        } else {
                            let lower = base.formula.as_ref().map_or(1, |f| f.literals().max(1));
                            self.solve(Some((*id, bug)), lower, &valid)
                        }
                    }
                };
                out.push(Hypothesis {
                    neighbour: k,
                    bug,
                    report,
                });
            }
        }
        out
    }

    fn report_stop(&self, stop: StopReason) -> LearnReport {
        LearnReport::new(None, stop, self.labelled.len())
    }

    /// Makes sure the state's pool covers the labelled points and `extra` points.
    fn ensure_state(&mut self, extra: &[usize]) {
        let fresh = self.state.as_ref().is_some_and(|s| {
            s.version == self.version
                && extra.iter().all(|p| s.local.contains_key(p))
                && s.enc.iter().flatten().all(|e| !e.broken)
        });
        if fresh {
            return;
        }
        let mut ids: Vec<usize> = self.labelled.clone();
        for &p in extra {
            if !ids.contains(&p) {
                ids.push(p);
            }
        }
        let local: HashMap<usize, usize> = ids.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let refs: Vec<&[Value]> = ids.iter().map(|&p| self.points[p].as_slice()).collect();
        let labels: Vec<LabelSet> = ids
            .iter()
            .map(|&p| {
                let l = self.labels[p];
                if l.bug || l.ok {
                    l
                } else {
                    LabelSet {
                        bug: true,
                        ok: true,
                    }
                }
            })
            .collect();
        let pool = pool::build(
            &refs,
            &labels,
            self.vars.len(),
            &self.extra_atoms,
            &self.config,
        );
        let enc = [None, None];
        let sat_cut = pool.lits.len().min(self.config.max_sat_pool);
        self.state = Some(State {
            local,
            sat_cut,
            pool,
            enc,
            version: self.version,
        });
    }

    /// Learns from the labelled examples plus an optional hypothetical one, starting at
    /// `lower` literals.
    fn solve(&mut self, hyp: Option<(usize, bool)>, lower: usize, cover: &[usize]) -> LearnReport {
        // Query examples: (global id, bug).
        let mut ex: Vec<(usize, bool)> = Vec::with_capacity(self.labelled.len() + 1);
        for &p in &self.labelled {
            let l = self.labels[p];
            if l.bug && l.ok {
                return self.report_stop(StopReason::Contradiction {
                    point: self.points[p].clone(),
                });
            }
            ex.push((p, l.bug));
        }
        if let Some((p, bug)) = hyp {
            match ex.iter().find(|&&(q, _)| q == p) {
                Some(&(_, b)) if b != bug => {
                    return self.report_stop(StopReason::Contradiction {
                        point: self.points[p].clone(),
                    })
                }
                Some(_) => {}
                None => ex.push((p, bug)),
            }
        }
        let n_ex = ex.len();
        let base = |formula: Formula, stop: StopReason| LearnReport::new(Some(formula), stop, n_ex);
        if !ex.iter().any(|e| e.1) {
            return base(Formula::falsity(self.vars.clone()), StopReason::Found);
        }
        if ex.iter().all(|e| e.1) {
            return base(Formula::truth(self.vars.clone()), StopReason::Found);
        }
        self.ensure_state(cover);
        let vars = self.vars.clone();
        let config = self.config.clone();
        let Some(state) = self.state.as_mut() else {
            return self.report_stop(StopReason::Solver("no solver state".into()));
        };
        let mut missing = false;
        let local_ex: Vec<(usize, bool)> = ex
            .iter()
            .filter_map(|&(p, b)| {
                let l = state.local.get(&p).map(|&l| (l, b));
                missing |= l.is_none();
                l
            })
            .collect();
        if missing {
            return self.report_stop(StopReason::Solver("point missing from the pool".into()));
        }
        let mut search = Search {
            config: &config,
            sat_calls: 0,
            conflicts: 0,
            session: self
                .conflict_budget
                .map(|b| (b, b.saturating_sub(self.conflicts_used))),
        };
        let outcome = search.run(state, &local_ex, lower, &vars);
        self.conflicts_used += search.conflicts;
        let pool_size = state.pool.lits.len();
        let pool_truncated = state.pool.truncated || state.sat_cut < pool_size;
        let mut report = match outcome {
            Ok(Some(formula)) => base(formula, StopReason::Found),
            Ok(None) => {
                let stop = if pool_truncated {
                    StopReason::PoolLimit {
                        max_pool: config.max_pool,
                    }
                } else {
                    StopReason::NoFormulaWithinLimits {
                        max_literals: config.max_literals,
                        max_clauses: config.max_clauses,
                    }
                };
                LearnReport::new(None, stop, n_ex)
            }
            Err(stop) => self.report_stop(stop),
        };
        report.pool_size = pool_size;
        report.pool_truncated = pool_truncated;
        report.sat_calls = search.sat_calls;
        report.conflicts = search.conflicts;
        report.examples = n_ex;
        if report.formula.is_none()
            && config.simplex
            && matches!(
                report.stop,
                StopReason::NoFormulaWithinLimits { .. } | StopReason::PoolLimit { .. }
            )
        {
            let refs: Vec<&[Value]> = ex.iter().map(|&(p, _)| self.points[p].as_slice()).collect();
            let bug: Vec<bool> = ex.iter().map(|e| e.1).collect();
            if let Separation::Found(atom) = simplex::separate(
                &refs,
                &bug,
                self.vars.len(),
                config.max_pivots,
                config.snap_max_coeff,
            ) {
                let f = Formula::dnf(vars, vec![vec![atom.clone()]]);
                report.literals = 1;
                report.clauses = 1;
                report.formula = Some(f);
                report.stop = StopReason::Found;
                report.simplex_used = true;
                if !self.extra_atoms.contains(&atom) {
                    // Kept for future pools; the current solver state stays valid for the
                    // labels it was built for, and picks the atom up at the next rebuild.
                    self.extra_atoms.push(atom);
                }
            }
        }
        report
    }
}

impl Search<'_> {
    fn query(
        &mut self,
        state: &mut State,
        form: usize,
        ex: &[(usize, bool)],
        lits: usize,
        groups: usize,
        tier: usize,
    ) -> Result<Option<Vec<Vec<usize>>>, StopReason> {
        if self.sat_calls >= self.config.max_sat_calls {
            return Err(StopReason::SatCallLimit {
                max_sat_calls: self.config.max_sat_calls,
            });
        }
        self.sat_calls += 1;
        let c = self.config;
        let enabled = if form == 0 { c.cnf } else { c.dnf };
        if !enabled {
            return Ok(None);
        }
        // Built on first use: most learns are settled by the exhaustive small search.
        let kind = if form == 0 { Form::Cnf } else { Form::Dnf };
        let enc = state.enc[form].get_or_insert_with(|| {
            Encoding::new(
                kind,
                &state.pool.lits[..state.sat_cut],
                c.max_clauses.max(1),
                c.max_literals,
            )
        });
        let mut limit = StopReason::ConflictLimit {
            max_conflicts: c.max_conflicts,
        };
        let Some(mut budget) = c.max_conflicts.checked_sub(self.conflicts) else {
            return Err(limit);
        };
        if let Some((total, left)) = self.session {
            let session_limit = StopReason::SessionConflictLimit { budget: total };
            let left = left.saturating_sub(self.conflicts);
            if left == 0 {
                return Err(session_limit);
            }
            if left <= budget {
                budget = left;
                limit = session_limit;
            }
        }
        let before = enc.conflicts();
        let answer = enc.query(
            &state.pool.lits[..state.sat_cut],
            ex,
            lits,
            groups,
            tier,
            budget,
        );
        self.conflicts += enc.conflicts() - before;
        match answer {
            Answer::Sat(g) => Ok(Some(g)),
            Answer::Unsat => Ok(None),
            Answer::ConflictLimit => Err(limit),
            Answer::Error(e) => Err(StopReason::Solver(e)),
        }
    }

    /// Iterates the literal bound upward; the first SAT bound is the smallest size. Among
    /// forms and models of that size: fewest groups, then lowest tier, then simplest atoms.
    fn run(
        &mut self,
        state: &mut State,
        ex: &[(usize, bool)],
        lower: usize,
        vars: &[String],
    ) -> Result<Option<Formula>, StopReason> {
        let c = self.config;
        let forms: Vec<usize> = [c.cnf, c.dnf]
            .iter()
            .enumerate()
            .filter(|(_, &on)| on)
            .map(|(f, _)| f)
            .collect();
        let words = state.pool.words;
        let mut ex_mask = vec![0u64; words];
        let mut bug_mask = vec![0u64; words];
        for &(p, b) in ex {
            ex_mask[p / 64] |= 1 << (p % 64);
            if b {
                bug_mask[p / 64] |= 1 << (p % 64);
            }
        }
        let allowed = Forms {
            cnf: c.cnf,
            dnf: c.dnf,
            max_groups: c.max_clauses.max(1),
        };
        // Sizes 1..=3 by exhaustive bitset search (fast to prove impossible).
        if let Some(found) = small::smallest(
            &state.pool,
            &ex_mask,
            &bug_mask,
            allowed,
            lower,
            c.max_literals,
        ) {
            return Ok(Some(build(&state.pool, vars, found.form, &found.groups)));
        }
        // Sizes 4 and 5 by exhaustive search too, while each fits its step budget.
        let mut from = lower.max(4);
        while from <= c.max_literals.min(5) {
            let steps = c.max_exhaustive_steps;
            match medium::search(&state.pool, &ex_mask, &bug_mask, allowed, from, steps) {
                Outcome::Found(found) => {
                    return Ok(Some(build(&state.pool, vars, found.form, &found.groups)))
                }
                Outcome::Impossible => from += 1,
                Outcome::Budget => break,
            }
        }
        for lits in from..=c.max_literals {
            // L unit groups of one form are one group of the other form.
            let both = forms.len() == 2;
            let kcap = c.max_clauses.max(1).min(if both { lits - 1 } else { lits });
            let mut best: Option<((usize, usize, u32, u8), Formula)> = None;
            for &f in &forms {
                // Fewest groups first: small-k instances are the cheap ones.
                let mut k = 0;
                for kk in 1..=kcap {
                    if self.query(state, f, ex, lits, kk, TIERS - 1)?.is_some() {
                        k = kk;
                        break;
                    }
                }
                if k == 0 {
                    continue;
                }
                let mut found = None;
                for t in 0..TIERS {
                    if let Some(g) = self.query(state, f, ex, lits, k, t)? {
                        found = Some((t, g));
                        break;
                    }
                }
                let Some((t, mut groups)) = found else {
                    continue;
                };
                let form = if f == 0 { Form::Cnf } else { Form::Dnf };
                sat::simplify_groups(&state.pool, form, &mut groups, &ex_mask, &bug_mask);
                let cx: u32 = groups
                    .iter()
                    .flatten()
                    .map(|&a| state.pool.lits[a].atom.complexity())
                    .sum();
                let formula = build(&state.pool, vars, form, &groups);
                let key = (formula.clauses(), t, cx, small::form_rank(formula.form()));
                if best.as_ref().is_none_or(|(bk, _)| key < *bk) {
                    best = Some((key, formula));
                }
            }
            if let Some((_, f)) = best {
                return Ok(Some(f));
            }
        }
        Ok(None)
    }
}

fn build(pool: &Pool, vars: &[String], form: Form, groups: &[Vec<usize>]) -> Formula {
    let atoms = sat::groups_to_atoms(pool, groups);
    match form {
        Form::Cnf => Formula::cnf(vars.to_vec(), atoms),
        Form::Dnf => Formula::dnf(vars.to_vec(), atoms),
    }
}
