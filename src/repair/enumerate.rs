//! Engine 1: f1x-style cost-ordered enumeration with test-equivalence classes at repair holes.
//!
//! Candidates are grouped by the expression node they change (the hole). For a group,
//! the program is compiled once with that node as a hole; while a test runs, every
//! still-undecided candidate of the group is evaluated at each hole hit over the snapshot
//! of in-scope scalars ([`super::holeval`]), and candidates whose values differ from the
//! representative's split off. When the run ends, every candidate that produced the same
//! value sequence as the representative gets its verdict from that one run; the ones
//! that split off are grouped by where they did, and each group gets a run. Guards and
//! inserted assignments use a scaffold (the statement edit with a marker expression) so
//! they are decided the same way. Deletions and statement copies run one per execution.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::budget::{Gate, Stop};
use super::candidates::{assign, candidates_at, expr_stmt, Site};
use super::cost::EditKind;
use super::holeval::{kind_of, Resolved};
use super::localise::Suspicious;
use super::mutate::int_lit;
use super::patch::{Edit, Patch, RepairSource};
use super::tests::TestSuite;
use super::RepairConfig;
use crate::lang::ast::{Expr, ExprKind, ScalarType, StmtKind};
use crate::lang::bytecode::{HoleSite, HoleVar};
use crate::lang::types::Sc;
use crate::lang::{compile, Execution, HoleHandler, NodeId, Program};

/// Marker literal of scaffolds (a statement edit whose new expression is the hole).
const MARKER: u64 = 1_592_676_805;

/// Candidates sharing one hole: the program compiled with the hole and, per candidate,
/// the patch and the expression that replaces the hole's value.
pub struct HoleBatch {
    /// The program (original or scaffold) compiled with the hole.
    pub program: Program,
    /// The patches, in generation order.
    pub patches: Vec<Patch>,
    /// For each patch, the expression evaluated at the hole.
    pub at_hole: Vec<Expr>,
}

/// A group of candidates that behaved identically on one test.
#[derive(Debug, Clone)]
pub struct Class {
    /// Candidate indices (into the batch).
    pub members: Vec<usize>,
    /// The representative's run.
    pub exec: Execution,
}

/// Where a candidate parted from the representative of a run: the hole hit and its
/// value there (`None` when a hot hole stopped following it before it parted).
type Parting = (u64, Option<Result<u64, String>>);

/// The batch's candidate expressions resolved against each hole site met so far
/// ([`Resolved`]), each on its first evaluation there.
#[derive(Default)]
struct ResolvedCache {
    /// (site, the candidates resolved at it, by index). A site is identified by its
    /// address in the batch's program, which outlives the cache.
    sites: Vec<(*const HoleSite, SiteCache)>,
}

/// The candidates resolved at one site, by candidate index.
struct SiteCache(Vec<Option<Resolved>>);

impl ResolvedCache {
    /// The cache of `site` (for `n` candidates).
    fn at(&mut self, site: &HoleSite, n: usize) -> &mut SiteCache {
        let key: *const HoleSite = site;
        let i = match self.sites.iter().position(|(s, _)| std::ptr::eq(*s, key)) {
            Some(i) => i,
            None => {
                self.sites.push((key, SiteCache(vec![None; n])));
                self.sites.len() - 1
            }
        };
        &mut self.sites[i].1
    }
}

impl SiteCache {
    /// Candidate `c` resolved at `site`.
    fn get(&mut self, c: usize, exprs: &[Expr], site: &HoleSite) -> &Resolved {
        self.0[c].get_or_insert_with(|| Resolved::new(&exprs[c], site))
    }
}

/// The test-equivalence handler: follows the representative, drops candidates whose
/// value at a hole hit differs from the representative's and notes where they parted.
struct Splitter<'c> {
    exprs: &'c [Expr],
    resolved: &'c mut ResolvedCache,
    rep: usize,
    following: Vec<usize>,
    /// Hole hits so far in this run.
    hits: u64,
    /// The hits before this one give every follower the representative's value (known
    /// from an earlier run), so they are not evaluated.
    agreed_hits: u64,
    /// The candidates dropped, in order, with where they parted.
    parted: Vec<(usize, Parting)>,
    evaluations: u64,
    max_evaluations: u64,
}

impl HoleHandler for Splitter<'_> {
    fn value(&mut self, site: &HoleSite, original: u64, vars: &[u64]) -> Result<u64, String> {
        let hit = self.hits;
        self.hits += 1;
        let (exprs, rep) = (self.exprs, self.rep);
        let cache = self.resolved.at(site, exprs.len());
        let rep_value = cache.get(rep, exprs, site).eval_at_hole(original, vars);
        if hit < self.agreed_hits || self.following.len() == 1 {
            return rep_value;
        }
        let parted = &mut self.parted;
        if self.evaluations + self.following.len() as u64 > self.max_evaluations {
            // A hot hole: the others stay undecided and get runs of their own.
            self.following.retain(|&c| {
                c == rep || {
                    parted.push((c, (hit, None)));
                    false
                }
            });
        }
        let mut evaluations = 0;
        self.following.retain(|&c| {
            evaluations += 1;
            if c == rep {
                return true;
            }
            let value = cache.get(c, exprs, site).eval_at_hole(original, vars);
            value == rep_value || {
                parted.push((c, (hit, Some(value))));
                false
            }
        });
        self.evaluations += evaluations;
        rep_value
    }
}

/// Splits `undecided` candidates of `batch` into test-equivalence classes on test
/// `test`: one execution per class. A run evaluates candidates at most
/// `max_evaluations` times; past that it follows the representative alone (the rest
/// stay undecided for later runs). Stops early (returning the classes so far) when
/// `may_run` says no.
///
/// The candidates a run drops are grouped by where they parted from its representative
/// (hole hit and value): two that parted at different hits, or with different values,
/// differ from each other there too (their runs were the same up to that hit), so each
/// group's run follows only its own members, and skips evaluating them on the hits they
/// are known to agree on. Without this, a hole in a long loop where every candidate
/// parts near the end costs a run per candidate that evaluates every other one on
/// every hit.
pub fn split_classes(
    batch: &HoleBatch,
    suite: &TestSuite,
    test: usize,
    undecided: &[usize],
    max_evaluations: u64,
    may_run: &mut dyn FnMut() -> bool,
) -> Vec<Class> {
    // (members, ascending; hits on which they agree with each other).
    let mut groups = VecDeque::from([(undecided.to_vec(), 0)]);
    let mut classes = Vec::new();
    let limits = suite.limits_for(test);
    let mut resolved = ResolvedCache::default();
    while let Some((group, agreed_hits)) = groups.pop_front() {
        let Some(&rep) = group.first() else {
            continue;
        };
        if !may_run() {
            break;
        }
        let mut h = Splitter {
            exprs: &batch.at_hole,
            resolved: &mut resolved,
            rep,
            following: group,
            hits: 0,
            agreed_hits,
            parted: Vec::new(),
            evaluations: 0,
            max_evaluations,
        };
        let exec = batch
            .program
            .run_test_with_hole(&suite.tests()[test].input, &limits, &mut h);
        let mut parts: BTreeMap<Parting, Vec<usize>> = BTreeMap::new();
        for (c, parting) in h.parted {
            parts.entry(parting).or_default().push(c);
        }
        for ((hit, value), members) in parts {
            // Parted with a value: they also agree on that hit.
            let agreed = if value.is_some() { hit + 1 } else { hit };
            groups.push_back((members, agreed));
        }
        classes.push(Class {
            members: h.following,
            exec,
        });
    }
    classes
}

/// [`split_classes`] on `test` with every run drawn from `gate` (counted as a hole
/// execution) and every candidate's verdict counted: the classes, and why the gate
/// refused a run if it did.
pub fn gated_classes(
    batch: &HoleBatch,
    suite: &TestSuite,
    test: usize,
    undecided: &[usize],
    config: &RepairConfig,
    gate: &mut Gate,
) -> (Vec<Class>, Option<Stop>) {
    let mut halted = None;
    let classes = split_classes(
        batch,
        suite,
        test,
        undecided,
        config.max_hole_evaluations,
        &mut || match gate.execution() {
            Ok(()) => {
                gate.stats.hole_executions += 1;
                true
            }
            Err(why) => {
                halted = Some(why);
                false
            }
        },
    );
    gate.stats.hole_decisions += classes.iter().map(|c| c.members.len() as u64).sum::<u64>();
    (classes, halted)
}

enum Batch {
    Hole(HoleBatch),
    Plain(Patch),
}

struct Pending {
    min_cost: u32,
    rank: usize,
    seq: usize,
    batch: Batch,
}

/// Result of the enumeration.
pub struct EngineOutcome {
    /// Plausible patches in the order found.
    pub plausible: Vec<Patch>,
    /// Why it stopped.
    pub stop: Stop,
}

impl EngineOutcome {
    /// Adds a later engine's plausible patches not found already; its stop reason
    /// becomes this one's when nothing was found before.
    pub fn absorb(&mut self, later: EngineOutcome) {
        let found = self.plausible.len();
        for p in later.plausible {
            if !self.plausible.contains(&p) {
                self.plausible.push(p);
            }
        }
        if found == 0 {
            self.stop = later.stop;
        }
    }
}

fn scalar_type_of(sc: Sc) -> ScalarType {
    match sc {
        Sc::I64 => ScalarType::LongLong,
        Sc::U64 | Sc::Ptr => ScalarType::ULongLong,
        Sc::U32 => ScalarType::UInt,
        Sc::F32 => ScalarType::Float,
        Sc::F64 => ScalarType::Double,
        _ => ScalarType::Int,
    }
}

/// The candidate generator and runner of one repair.
struct Enumerator<'a> {
    src: &'a RepairSource,
    config: &'a RepairConfig,
    trusted: BTreeSet<u32>,
    constants: Vec<i64>,
    pending: Vec<Pending>,
    generated: usize,
    /// Candidates allowed (what is left of the repair's candidate budget).
    cap: usize,
    seq: usize,
}

impl<'a> Enumerator<'a> {
    /// A generator with nothing pending, allowed `cap` candidates.
    fn new(src: &'a RepairSource, config: &'a RepairConfig, cap: usize) -> Self {
        Enumerator {
            src,
            config,
            trusted: config.trusted_lines.clone(),
            constants: src.constants(),
            pending: Vec::new(),
            generated: 0,
            cap,
            seq: 0,
        }
    }

    fn admit(&mut self, patch: &Patch) -> Option<u32> {
        let cost = patch.cost(&self.config.costs);
        if cost > self.config.budget {
            return None;
        }
        if patch
            .edits
            .iter()
            .any(|e| self.src.check(e, &self.trusted).is_err())
        {
            return None;
        }
        Some(cost)
    }

    fn push(&mut self, rank: usize, batch: Batch, min_cost: u32) {
        self.seq += 1;
        self.pending.push(Pending {
            min_cost,
            rank,
            seq: self.seq,
            batch,
        });
    }

    fn room(&self) -> bool {
        self.generated < self.cap
    }

    /// Adds a hole batch from (patch, at-hole expression) pairs; candidates whose
    /// expression cannot be evaluated at the compiled site run one by one instead.
    fn add_hole_batch(&mut self, rank: usize, program: Option<Program>, cands: Vec<(Patch, Expr)>) {
        let site = program
            .as_ref()
            .and_then(|p| p.hole_sites().first().cloned());
        let mut batch = HoleBatch {
            program: match program {
                Some(p) => p,
                None => return,
            },
            patches: Vec::new(),
            at_hole: Vec::new(),
        };
        let mut min_cost = u32::MAX;
        for (patch, e) in cands {
            if !self.room() {
                break;
            }
            let Some(cost) = self.admit(&patch) else {
                continue;
            };
            self.generated += 1;
            // Only a candidate of the hole's own type: another type changes the
            // conversions around it (a `long` constant where an `int` was), which a
            // value at the hole cannot reproduce.
            let evaluable = site.as_ref().is_some_and(|s| kind_of(&e, s) == Some(s.sc));
            if evaluable {
                min_cost = min_cost.min(cost);
                batch.patches.push(patch);
                batch.at_hole.push(e);
            } else {
                self.push(rank, Batch::Plain(patch), cost);
            }
        }
        if !batch.patches.is_empty() {
            self.push(rank, Batch::Hole(batch), min_cost);
        }
    }

    /// The program with `edit` applied, compiled with its marker expression as the hole.
    fn scaffold(&self, edit: Edit) -> Option<Program> {
        let text = self
            .src
            .apply(&Patch::single(edit), &BTreeSet::new())
            .ok()?;
        let scaffold = RepairSource::new(&text).ok()?;
        let marker = scaffold
            .statements()
            .iter()
            .filter_map(|&s| scaffold.stmt(s))
            .flat_map(|s| s.own_exprs.iter().copied())
            .flat_map(|root| {
                let mut found = Vec::new();
                if let Some(e) = scaffold.expr(root) {
                    crate::lang::visit::for_each_expr(e, &mut |x| {
                        if matches!(x.kind, ExprKind::IntLit { value: MARKER, .. }) {
                            found.push(x.id);
                        }
                    });
                }
                found
            })
            .next()?;
        scaffold.compile_with_hole(marker).ok()
    }

    /// The scalar variables in scope at a statement: at the hole of its guard scaffold
    /// when it has one, else at its first own expression.
    fn scope_at(&self, guard: Option<&Program>, own: &[NodeId]) -> Vec<HoleVar> {
        guard
            .and_then(|p| p.hole_sites().first().map(|h| h.vars.clone()))
            .or_else(|| own.iter().find_map(|&id| self.src.vars_at(id)))
            .unwrap_or_default()
    }

    /// Generates every candidate at suspicious statement `stmt` (rank = its position)
    /// from [`candidates::candidates_at`]: expression edits grouped by hole, guards and
    /// inserted assignments on their scaffolds, the rest one by one. Once the candidate
    /// cap is reached nothing more is admitted, so it returns before the scaffolds and
    /// hole compilations (the costly part) of what it could not keep.
    fn generate_at(&mut self, rank: usize, stmt: NodeId) {
        if !self.room() {
            return;
        }
        let Some(info) = self.src.stmt(stmt).cloned() else {
            return;
        };
        // One guard scaffold serves the scope and the guard candidates.
        let guard = (!matches!(info.stmt.kind, StmtKind::Decl(_)))
            .then(|| {
                self.scaffold(Edit::InsertGuard {
                    target: stmt,
                    cond: int_lit(MARKER as i64, ScalarType::Int),
                })
            })
            .flatten();
        // `main`'s `argc` is always 1 here (no command-line arguments): not an input.
        let scope: Vec<HoleVar> = self
            .scope_at(guard.as_ref(), &info.own_exprs)
            .into_iter()
            .filter(|v| !(info.function == "main" && v.name == "argc"))
            .collect();
        let src = self.src;
        let all = candidates_at(src, stmt, &scope, &self.constants, self.config);
        let mut rest = all.into_iter().peekable();
        // Expression edits, one location at a time: those without a hole first, then
        // one batch per hole.
        while let Some(root) = rest.peek().and_then(|c| match c.site {
            Site::Expr { root, .. } | Site::Unevaluable { root } => Some(root),
            _ => None,
        }) {
            let mut groups: BTreeMap<NodeId, Vec<(Patch, Expr)>> = BTreeMap::new();
            while let Some(c) = rest.next_if(|c| {
                matches!(c.site, Site::Expr { root: r, .. } | Site::Unevaluable { root: r } if r == root)
            }) {
                match (c.site, c.at_hole) {
                    (Site::Expr { hole, .. }, Some(e)) => {
                        groups.entry(hole).or_default().push((Patch::single(c.edit), e))
                    }
                    _ => {
                        if self.room() {
                            let patch = Patch::single(c.edit);
                            let cost = patch.cost(&self.config.costs);
                            self.generated += 1;
                            self.push(rank, Batch::Plain(patch), cost);
                        }
                    }
                }
            }
            for (hole, cands) in groups {
                if !self.room() {
                    return;
                }
                self.add_hole_batch(rank, src.compile_with_hole(hole).ok(), cands);
            }
        }
        if !self.room() {
            return;
        }
        // Guards on the guard scaffold.
        let guards: Vec<(Patch, Expr)> = std::iter::from_fn(|| {
            rest.next_if(|c| c.site == Site::Guard)
                .and_then(|c| Some((Patch::single(c.edit), c.at_hole?)))
        })
        .collect();
        if let (Some(program), false) = (guard, guards.is_empty()) {
            self.add_hole_batch(rank, Some(program), guards);
        }
        // Inserted assignments, one scaffold per variable.
        while let Some(Site::Assigned { var, sc }) = rest.peek().map(|c| c.site.clone()) {
            let cands: Vec<(Patch, Expr)> = std::iter::from_fn(|| {
                rest.next_if(|c| matches!(&c.site, Site::Assigned { var: v, .. } if *v == var))
                    .and_then(|c| Some((Patch::single(c.edit), c.at_hole?)))
            })
            .collect();
            if !self.room() {
                return;
            }
            let placeholder = Edit::InsertBefore {
                target: stmt,
                stmt: expr_stmt(assign(&var, int_lit(MARKER as i64, scalar_type_of(sc)))),
                kind: EditKind::InsertAssignment,
            };
            if let Some(program) = self.scaffold(placeholder) {
                self.add_hole_batch(rank, Some(program), cands);
            }
        }
        // Deletion and GenProg copies, one per execution.
        for c in rest {
            if !self.room() {
                break;
            }
            let patch = Patch::single(c.edit);
            let cost = patch.cost(&self.config.costs);
            self.generated += 1;
            self.push(rank, Batch::Plain(patch), cost);
        }
    }
}

/// Every candidate engine 1 generates at statement `stmt` (within the budget, trusted
/// lines and limits of `config`), as it batches them: hole batches (decided by
/// test-equivalence) and plain patches (one execution each).
pub fn batches_at(
    src: &RepairSource,
    stmt: NodeId,
    config: &RepairConfig,
) -> (Vec<HoleBatch>, Vec<Patch>) {
    let mut en = Enumerator::new(src, config, config.max_candidates);
    en.generate_at(0, stmt);
    let mut holes = Vec::new();
    let mut plain = Vec::new();
    for p in en.pending {
        match p.batch {
            Batch::Hole(h) => holes.push(h),
            Batch::Plain(x) => plain.push(x),
        }
    }
    (holes, plain)
}

/// Runs engine 1 over the suspicious statements (most suspicious first, at most
/// [`RepairConfig::max_locations`]). Candidates are decided in order of their batch's
/// cheapest cost, then suspiciousness; every execution and candidate is drawn from `gate`.
pub fn enumerate(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> EngineOutcome {
    let cap = usize::try_from(gate.candidates_left()).unwrap_or(usize::MAX);
    let mut en = Enumerator::new(src, config, cap);
    for (rank, s) in suspicious.iter().take(config.max_locations).enumerate() {
        en.generate_at(rank, s.stmt);
    }
    let mut plausible = Vec::new();
    if let Err(why) = gate.candidates(en.generated as u64) {
        return EngineOutcome {
            plausible,
            stop: why,
        };
    }
    let mut pending = std::mem::take(&mut en.pending);
    pending.sort_by_key(|p| (p.min_cost, p.rank, p.seq));
    let mut stop = Stop::Exhausted;
    let order = suite.order().to_vec();
    'batches: for p in pending {
        if let Err(why) = gate.check() {
            stop = why;
            break;
        }
        match p.batch {
            Batch::Plain(patch) => {
                let Ok(text) = src.apply(&patch, &config.trusted_lines) else {
                    continue;
                };
                gate.stats.candidates_decided += 1;
                let Ok(program) = compile(&text) else {
                    continue;
                };
                let mut ok = true;
                for &t in &order {
                    if let Err(why) = gate.execution() {
                        stop = why;
                        break 'batches;
                    }
                    gate.stats.plain_executions += 1;
                    if !suite.run(&program, t).1 {
                        ok = false;
                        break;
                    }
                }
                if ok {
                    gate.plausible(patch.cost(&config.costs));
                    plausible.push(patch);
                }
            }
            Batch::Hole(batch) => {
                let mut alive: Vec<usize> = (0..batch.patches.len()).collect();
                for &t in &order {
                    let mut passed = Vec::new();
                    let (classes, halted) = gated_classes(&batch, suite, t, &alive, config, gate);
                    for c in &classes {
                        if suite.passes(t, &c.exec) {
                            passed.extend_from_slice(&c.members);
                        }
                    }
                    if let Some(why) = halted {
                        stop = why;
                        break 'batches;
                    }
                    gate.stats.candidates_decided += (alive.len() - passed.len()) as u64;
                    passed.sort_unstable();
                    alive = passed;
                    if alive.is_empty() {
                        break;
                    }
                }
                gate.stats.candidates_decided += alive.len() as u64;
                for i in alive {
                    gate.plausible(batch.patches[i].cost(&config.costs));
                    plausible.push(batch.patches[i].clone());
                }
            }
        }
        if plausible.len() >= config.max_plausible {
            stop = Stop::Found;
            break;
        }
    }
    EngineOutcome { plausible, stop }
}
