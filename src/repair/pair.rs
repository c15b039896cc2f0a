//! Two edits: a first edit that passes some of the failing tests and breaks no passing one, then a second one enumerated on the program it makes; the pair is reported as one patch of the original.
//!
//! A fix of two independent mistakes (a wrong bound and a wrong output, say) passes no
//! test the original fails with either edit alone, or only some of them, so single-edit
//! enumeration never sees it as plausible. Here, at the most suspicious statements,
//! every candidate edit of [`super::enumerate`]'s vocabulary is run by test-equivalence
//! first on the tests the original passes (a first edit must keep them all) and then on
//! the failing ones; the candidates that pass some failing tests but not all become
//! first edits, those that make most expected outputs right first. For each, the
//! patched program is localised again on the tests it still fails and enumerated with
//! what is left of the cost budget; the second edit's nodes are mapped back to the
//! original program by their text's place, and each pair is checked on every test as
//! one patch of the original. `all` runs this engine only when no other found a
//! plausible patch.

use super::budget::{Gate, Stop};
use super::enumerate::{batches_at, enumerate, gated_classes, EngineOutcome};
use super::localise::{localise, Suspicious};
use super::patch::{Edit, Patch, RepairSource};
use super::tests::TestSuite;
use super::RepairConfig;
use crate::lang::ast::{Expr, Span};
use crate::lang::visit::{walk_expr_mut, walk_stmt_mut, VisitorMut};
use crate::lang::{compile, NodeId, Program};

/// Limits of the two-edit engine. All are counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairConfig {
    /// Suspicious statements whose edits may be first edits. Default 5.
    pub first_locations: usize,
    /// First edits tried, best first. Default 6.
    pub max_first: usize,
    /// Suspicious statements of the once-patched program where the second edit is
    /// enumerated. Default 8.
    pub second_locations: usize,
}

impl Default for PairConfig {
    fn default() -> Self {
        PairConfig {
            first_locations: 5,
            max_first: 6,
            second_locations: 8,
        }
    }
}

/// A first edit: the patch, which failing tests it passes, its cost.
struct First {
    patch: Patch,
    fixed: Fixed,
    cost: u32,
}

/// Failing tests a first edit passes: those with an expected output (the person typed
/// or chose it, so passing one is real progress; a "bug" test only asks for a change,
/// which edits that change every output give), then all of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Fixed {
    outputs: usize,
    tests: usize,
}

impl Fixed {
    /// Counts failing test `t` as passed.
    fn add(&mut self, suite: &TestSuite, t: usize) {
        self.tests += 1;
        self.outputs += usize::from(matches!(
            suite.tests()[t].expect,
            super::Expectation::Output(_)
        ));
    }

    /// Some failing tests passed but not all (all would make the edit plausible alone).
    fn partial(&self, failing: usize) -> bool {
        self.tests > 0 && self.tests < failing
    }
}

/// Runs the two-edit engine; see the module docs. Needs two failing tests at least (with
/// one, a first edit that passes some of them is already plausible).
pub fn pairs(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> EngineOutcome {
    let mut outcome = EngineOutcome {
        plausible: Vec::new(),
        stop: Stop::Exhausted,
    };
    if suite.failing().len() < 2 {
        return outcome;
    }
    let firsts = match first_edits(src, suite, suspicious, config, gate) {
        Ok(f) => f,
        Err(why) => {
            outcome.stop = why;
            return outcome;
        }
    };
    for first in firsts {
        if outcome.plausible.len() >= config.max_plausible {
            outcome.stop = Stop::Found;
            break;
        }
        let (found, stopped) = second_edits(src, suite, &first, config, gate);
        for p in found {
            if !outcome.plausible.contains(&p) {
                outcome.plausible.push(p);
            }
        }
        if let Some(why) = stopped {
            outcome.stop = why;
            break;
        }
    }
    if outcome.stop == Stop::Exhausted && !outcome.plausible.is_empty() {
        outcome.stop = Stop::Found;
    }
    outcome
}

/// The first edits at the most suspicious statements, ranked by [`Fixed`] (expected
/// outputs made right, then failing tests passed), then cheapest; at most
/// [`PairConfig::max_first`], two per statement.
fn first_edits(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> Result<Vec<First>, Stop> {
    let failing = suite.failing();
    let passing: Vec<usize> = suite
        .order()
        .iter()
        .copied()
        .filter(|t| !failing.contains(t))
        .collect();
    // A first edit leaves room for a second one of the cheapest kind.
    let room = config.budget.saturating_sub(config.costs.cheapest());
    let mut found: Vec<First> = Vec::new();
    for s in suspicious.iter().take(config.pair.first_locations) {
        let (holes, plain) = batches_at(src, s.stmt, config);
        let n = holes.iter().map(|h| h.patches.len()).sum::<usize>() + plain.len();
        // Short of candidates, the first edits found so far are tried (and the gate is
        // left open for the engines after this one).
        if n as u64 > gate.candidates_left() {
            break;
        }
        gate.candidates(n as u64)?;
        for batch in &holes {
            // Per candidate: alive (no passing test broken) and failing tests passed.
            let mut fixed = vec![Fixed::default(); batch.patches.len()];
            let mut alive: Vec<usize> = (0..batch.patches.len())
                .filter(|&i| batch.patches[i].cost(&config.costs) <= room)
                .collect();
            for &t in passing.iter().chain(&failing) {
                if alive.is_empty() {
                    break;
                }
                let (classes, halted) = gated_classes(batch, suite, t, &alive, config, gate);
                if let Some(why) = halted {
                    return Err(why);
                }
                let must_pass = !failing.contains(&t);
                let mut kept = Vec::new();
                for c in &classes {
                    let passes = suite.passes(t, &c.exec);
                    if passes && !must_pass {
                        c.members.iter().for_each(|&m| fixed[m].add(suite, t));
                    }
                    if passes || !must_pass {
                        kept.extend_from_slice(&c.members);
                    }
                }
                kept.sort_unstable();
                alive = kept;
            }
            for i in alive {
                if fixed[i].partial(failing.len()) {
                    let patch = batch.patches[i].clone();
                    let cost = patch.cost(&config.costs);
                    found.push(First {
                        patch,
                        fixed: fixed[i],
                        cost,
                    });
                }
            }
        }
        for patch in plain {
            let cost = patch.cost(&config.costs);
            if cost > room {
                continue;
            }
            if let Some(fixed) = plain_fixes(src, suite, &patch, &passing, &failing, config, gate)?
            {
                found.push(First { patch, fixed, cost });
            }
        }
    }
    found.sort_by_key(|f| (std::cmp::Reverse(f.fixed), f.cost));
    // At most two first edits per statement: the best of one place do not crowd out
    // every other place.
    let mut per_stmt: Vec<(NodeId, usize)> = Vec::new();
    found.retain(|f| {
        let target = f.patch.edits[0].target();
        let stmt = src.owner_of(target).unwrap_or(target);
        match per_stmt.iter_mut().find(|(s, _)| *s == stmt) {
            Some((_, n)) if *n >= 2 => false,
            Some((_, n)) => {
                *n += 1;
                true
            }
            None => {
                per_stmt.push((stmt, 1));
                true
            }
        }
    });
    found.truncate(config.pair.max_first);
    Ok(found)
}

/// Which failing tests `patch` passes when it breaks no passing one and passes some but
/// not all failing ones (`None` otherwise).
fn plain_fixes(
    src: &RepairSource,
    suite: &TestSuite,
    patch: &Patch,
    passing: &[usize],
    failing: &[usize],
    config: &RepairConfig,
    gate: &mut Gate,
) -> Result<Option<Fixed>, Stop> {
    let Some(program) = compiled(src, patch, config) else {
        return Ok(None);
    };
    if !passes_all(&program, suite, passing, gate)? {
        return Ok(None);
    }
    let mut fixed = Fixed::default();
    for &t in failing {
        if run(&program, suite, t, gate)? {
            fixed.add(suite, t);
        }
    }
    Ok(fixed.partial(failing.len()).then_some(fixed))
}

/// The plausible pairs that start with `first`: the second edit enumerated on the
/// patched program, mapped back to the original and checked there on every test; and
/// why the gate refused, if it did (the pairs found before it refused are kept).
fn second_edits(
    src: &RepairSource,
    suite: &TestSuite,
    first: &First,
    config: &RepairConfig,
    gate: &mut Gate,
) -> (Vec<Patch>, Option<Stop>) {
    let mut pairs = Vec::new();
    let Ok(text) = src.apply(&first.patch, &config.trusted_lines) else {
        return (pairs, None);
    };
    let Ok(patched) = RepairSource::new(&text) else {
        return (pairs, None);
    };
    let Ok(program) = patched.compile() else {
        return (pairs, None);
    };
    let (suspicious, runs) = localise(&program, suite, config.weighting);
    gate.stats.localisation_executions += runs;
    // The trusted lines are the original's: a pair is held to them when it is checked
    // on the original below.
    let second = RepairConfig {
        budget: config.budget.saturating_sub(first.cost),
        max_locations: config.pair.second_locations,
        ..config.clone()
    };
    let outcome = enumerate(&patched, suite, &suspicious, &second, gate);
    let shift = TextShift::between(src.text(), &text);
    for p in outcome.plausible {
        let Some(edit) = p
            .edits
            .first()
            .and_then(|e| shift.map_edit(src, &patched, e))
        else {
            continue;
        };
        let pair = Patch {
            edits: vec![first.patch.edits[0].clone(), edit],
        };
        let Some(paired) = compiled(src, &pair, config) else {
            continue;
        };
        // A mapping that went wrong cannot pass here.
        match passes_all(&paired, suite, suite.order(), gate) {
            Ok(true) => pairs.push(pair),
            Ok(false) => {}
            Err(why) => return (pairs, Some(why)),
        }
    }
    let stopped = matches!(
        outcome.stop,
        Stop::Stopped | Stop::ExecutionBudget | Stop::CandidateBudget
    );
    (pairs, stopped.then_some(outcome.stop))
}

/// The original with `patch` applied, compiled (`None` when it does not apply or compile).
fn compiled(src: &RepairSource, patch: &Patch, config: &RepairConfig) -> Option<Program> {
    compile(&src.apply(patch, &config.trusted_lines).ok()?).ok()
}

/// Whether `program` passes every test of `tests`, run in order until one fails.
fn passes_all(
    program: &Program,
    suite: &TestSuite,
    tests: &[usize],
    gate: &mut Gate,
) -> Result<bool, Stop> {
    for &t in tests {
        if !run(program, suite, t, gate)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `program` passes test `t`, the run drawn from `gate`.
fn run(program: &Program, suite: &TestSuite, t: usize, gate: &mut Gate) -> Result<bool, Stop> {
    gate.execution()?;
    gate.stats.plain_executions += 1;
    Ok(suite.run(program, t).1)
}

/// Where a text edit moved the rest of the text: before `start` nothing moved; from
/// `old_end` (in the original) on, everything moved by `new_end - old_end`; what lies
/// between is new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TextShift {
    start: usize,
    old_end: usize,
    new_end: usize,
}

impl TextShift {
    /// The one changed stretch between `old` and `new` (common prefix and suffix).
    fn between(old: &str, new: &str) -> TextShift {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let room = a.len().min(b.len()) - start;
        let tail = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(room)
            .take_while(|(x, y)| x == y)
            .count();
        TextShift {
            start,
            old_end: a.len() - tail,
            new_end: b.len() - tail,
        }
    }

    /// The original text's span of the new text's `span` (`None` when it touches what
    /// changed).
    fn old_span(&self, span: Span) -> Option<(u32, u32)> {
        let (s, e) = (span.start as usize, span.end as usize);
        if e <= self.start {
            Some((span.start, span.end))
        } else if s >= self.new_end {
            let back = |x: usize| u32::try_from(x - self.new_end + self.old_end).ok();
            Some((back(s)?, back(e)?))
        } else {
            None
        }
    }

    /// `edit` of the `patched` program as an edit of the original `src`: its target and
    /// every node it copies taken to the original's node at the same text (copied nodes
    /// without one keep theirs and are printed anew).
    fn map_edit(&self, src: &RepairSource, patched: &RepairSource, edit: &Edit) -> Option<Edit> {
        let target = edit.target();
        let span = match edit {
            Edit::ReplaceExpr { .. } => patched.expr(target)?.span,
            Edit::WidenDecl { .. } => return None,
            _ => patched.stmt(target)?.stmt.span,
        };
        let (start, end) = self.old_span(span)?;
        let mut mapped = edit.clone();
        let mut nodes = Renode { shift: self, src };
        match &mut mapped {
            Edit::ReplaceExpr { target, with, .. } => {
                *target = src.expr_at(start, end, patched.expr(*target)?)?;
                nodes.visit_expr(with);
            }
            Edit::InsertGuard { target, cond } => {
                *target = src.stmt_at(start, end)?;
                nodes.visit_expr(cond);
            }
            Edit::InsertBefore { target, stmt, .. } | Edit::ReplaceStmt { target, with: stmt } => {
                *target = src.stmt_at(start, end)?;
                walk_stmt_mut(&mut nodes, stmt);
            }
            Edit::DeleteStmt { target } => *target = src.stmt_at(start, end)?,
            Edit::WidenDecl { .. } => return None,
        }
        Some(mapped)
    }
}

/// Gives the copied nodes of a mapped edit the original's ids and spans.
struct Renode<'a> {
    shift: &'a TextShift,
    src: &'a RepairSource,
}

impl VisitorMut for Renode<'_> {
    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        if e.span.macro_inner || e.span.end <= e.span.start {
            return;
        }
        let Some((start, end)) = self.shift.old_span(e.span) else {
            return;
        };
        if let Some(orig) = self
            .src
            .expr_at(start, end, e)
            .and_then(|id| self.src.expr(id))
        {
            e.id = orig.id;
            e.span = orig.span;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::{repair, Engine, RepairConfig};

    #[test]
    fn a_text_shift_maps_what_lies_outside_the_change() {
        let shift = TextShift::between("a < b + c;", "a <= b + c;");
        assert_eq!(
            shift,
            TextShift {
                start: 3,
                old_end: 3,
                new_end: 4
            }
        );
        let at = |start, end| Span {
            start,
            end,
            ..Span::default()
        };
        assert_eq!(shift.old_span(at(0, 1)), Some((0, 1)), "before the change");
        assert_eq!(
            shift.old_span(at(5, 10)),
            Some((4, 9)),
            "after it, moved back"
        );
        assert_eq!(shift.old_span(at(0, 10)), None, "across it");
    }

    /// Two mistakes, each failing tests of its own: the sum and the product.
    const TWO_MISTAKES: &str = "#include <stdio.h>
int main(void) {
    int a, b;
    scanf(\"%d %d\", &a, &b);
    int s = a - b;
    int p = a + b;
    printf(\"%d %d\\n\", s, p);
    return 0;
}
";

    const TESTS: &str = "1 2 => 3 2\n3 4 => 7 12\n0 0 => 0 0\n2 2 => 4 4\n5 0 => 5 0\n6 1 => 7 6";

    #[test]
    fn two_mistakes_need_two_edits_and_get_them() {
        let tests = crate::repair::tests::parse_tests(TESTS).unwrap();
        let one = RepairConfig {
            engine: Engine::Enumerate,
            ..RepairConfig::default()
        };
        let single = repair(TWO_MISTAKES, &tests, None, &one);
        assert!(single.patches.is_empty(), "one edit cannot fix it");
        let two = RepairConfig {
            engine: Engine::Pair,
            ..RepairConfig::default()
        };
        let report = repair(TWO_MISTAKES, &tests, None, &two);
        let top = report.patches.first().expect("a pair");
        assert_eq!(top.patch.edits.len(), 2, "{}", top.patched_source);
        assert!(
            top.patched_source.contains("int s = a + b;"),
            "{}",
            top.patched_source
        );
        assert!(
            top.patched_source.contains("int p = a * b;"),
            "{}",
            top.patched_source
        );
    }
}
