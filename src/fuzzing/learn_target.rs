//! Fuzz target `learn`: the oracle learner (one-shot and incremental sessions) on random, contradictory, duplicated and extreme labelled data; results must be exactly consistent and within their budgets.

use super::formula_target::value;
use super::{Target, Violation};
use crate::oracle::{
    learn, Example, Formula, LearnConfig, LearnReport, Learner, StopReason, Value,
};
use rand::rngs::StdRng;
use rand::RngExt;

pub(super) const TARGET: Target = Target {
    name: "learn",
    about: "oracle learner on random, contradictory, duplicate and extreme (i64 ends, big rationals) labelled points",
    generate,
    check,
};

/// Tight limits for most executions, so a million of them fit in an afternoon; one in
/// eight uses the defaults the product uses.
fn small_config() -> LearnConfig {
    LearnConfig {
        max_literals: 4,
        max_clauses: 3,
        max_pool: 200,
        max_sat_pool: 40,
        max_sat_calls: 20,
        max_pivots: 2_000,
        ..LearnConfig::default()
    }
}

fn generate(rng: &mut StdRng, _corpus: &[String]) -> Vec<u8> {
    let config = if rng.random_range(0..8) == 0 {
        "default"
    } else {
        "small"
    };
    let mode = if rng.random_range(0..2) == 0 {
        "learn"
    } else {
        "session"
    };
    let nvars = rng.random_range(0..=3usize);
    let extreme = rng.random_range(0..3) == 0;
    let mut points: Vec<Vec<Value>> = Vec::new();
    for _ in 0..rng.random_range(0..=10) {
        if !points.is_empty() && rng.random_range(0..5) == 0 {
            let p = points[rng.random_range(0..points.len())].clone();
            points.push(p);
            continue;
        }
        points.push(
            (0..nvars)
                .map(|_| {
                    if extreme && rng.random_range(0..2) == 0 {
                        value(rng)
                    } else {
                        Value::Int(rng.random_range(-10..=10))
                    }
                })
                .collect(),
        );
    }
    // Labels: random, or by a hidden threshold (learnable), sometimes flipped (contradictions).
    let threshold = rng.random_range(-10..=10);
    let random_labels = rng.random_range(0..2) == 0;
    let mut lines = vec![format!("{config} {mode} {nvars}")];
    for p in &points {
        let mut bug = if random_labels {
            rng.random_range(0..2) == 0
        } else {
            p.first()
                .is_some_and(|v| v.to_rational() <= Value::Int(threshold).to_rational())
        };
        if rng.random_range(0..25) == 0 {
            bug = !bug;
        }
        let vals: Vec<String> = p.iter().map(Value::to_string).collect();
        lines.push(format!("{} {}", u8::from(bug), vals.join(" ")));
    }
    lines.join("\n").into_bytes()
}

/// Checks one report against the labels it was learned from.
fn check_report(
    r: &LearnReport,
    vars: &[String],
    labels: &[Example],
    cfg: &LearnConfig,
) -> Result<(), Violation> {
    let budget = |m: String| Err(Violation::Budget(m));
    let broken = |m: String| Err(Violation::Invariant(m));
    if r.formula.is_some() != (r.stop == StopReason::Found) {
        return broken(format!(
            "formula present {} but stop '{}'",
            r.formula.is_some(),
            r.stop
        ));
    }
    if r.sat_calls > cfg.max_sat_calls {
        return budget(format!(
            "{} SAT calls, limit {}",
            r.sat_calls, cfg.max_sat_calls
        ));
    }
    if r.pool_size > cfg.max_pool {
        return budget(format!(
            "pool of {} atoms, limit {}",
            r.pool_size, cfg.max_pool
        ));
    }
    let contradiction = |p: &[Value]| {
        labels.iter().any(|e| e.point == p && e.bug)
            && labels.iter().any(|e| e.point == p && !e.bug)
    };
    match (&r.stop, &r.formula) {
        (StopReason::Found, Some(f)) => {
            if let Some(e) = labels.iter().find(|e| f.eval(&e.point) != e.bug) {
                return broken(format!(
                    "'{f}' found but wrong on {:?} (bug={})",
                    e.point, e.bug
                ));
            }
            if !r.simplex_used
                && (f.literals() > cfg.max_literals || f.clauses() > cfg.max_clauses.max(1))
            {
                return budget(format!(
                    "'{f}' exceeds {} literals / {} clauses",
                    cfg.max_literals, cfg.max_clauses
                ));
            }
            if r.literals != f.literals() {
                return broken(format!(
                    "report says {} literals, formula has {}",
                    r.literals,
                    f.literals()
                ));
            }
            match Formula::parse(&f.to_string(), vars) {
                Ok(g) if g == *f => {}
                other => return broken(format!("learned '{f}' does not round-trip: {other:?}")),
            }
        }
        (StopReason::Contradiction { point }, _) if !contradiction(point) => {
            return broken(format!(
                "contradiction reported at {point:?}, which has one label"
            ));
        }
        _ => {}
    }
    if r.stop != StopReason::Found && !matches!(r.stop, StopReason::Contradiction { .. }) {
        if let Some(e) = labels.iter().find(|e| contradiction(&e.point)) {
            return broken(format!(
                "labels contradict at {:?} but stop is '{}'",
                e.point, r.stop
            ));
        }
    }
    Ok(())
}

fn check(input: &[u8]) -> Result<(), Violation> {
    let text = String::from_utf8_lossy(input);
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    let cfg = if head.first() == Some(&"default") {
        LearnConfig::default()
    } else {
        small_config()
    };
    let session = head.get(1) == Some(&"session");
    let nvars: usize = head.get(2).and_then(|n| n.parse().ok()).unwrap_or(1).min(8);
    let vars: Vec<String> = (0..nvars).map(|i| format!("x{i}")).collect();
    let mut examples = Vec::new();
    for line in lines {
        let mut w = line.split_whitespace();
        let bug = w.next() == Some("1");
        let point: Option<Vec<Value>> = w.map(Value::parse).collect();
        match point {
            Some(point) if point.len() == nvars => examples.push(Example { point, bug }),
            _ => {}
        }
    }
    if !session {
        let r = learn(&vars, &examples, &cfg);
        return check_report(&r, &vars, &examples, &cfg);
    }
    // An incremental session: half up front, the rest one by one, then hypothetical labels.
    let half = examples.len() / 2;
    let mut l = Learner::with_examples(vars.clone(), cfg.clone(), &examples[..half])
        .map_err(|e| Violation::Invariant(format!("valid examples rejected: {e}")))?;
    check_report(&l.learn(), &vars, &examples[..half], &cfg)?;
    for e in &examples[half..] {
        l.add_example(e.point.clone(), e.bug)
            .map_err(|e| Violation::Invariant(format!("valid example rejected: {e}")))?;
    }
    check_report(&l.learn(), &vars, &examples, &cfg)?;
    let neighbours: Vec<Vec<Value>> = examples
        .iter()
        .take(2)
        .map(|e| {
            e.point
                .iter()
                .map(|v| Value::from_rational(v.to_rational() + Value::Int(1).to_rational()))
                .collect()
        })
        .collect();
    if let Some(p) = neighbours.first() {
        let r = l.learn_with(p, true);
        let mut with = examples.clone();
        with.push(Example {
            point: p.clone(),
            bug: true,
        });
        check_report(&r, &vars, &with, &cfg)?;
    }
    for h in l.committee(&neighbours) {
        let mut with = examples.clone();
        with.push(Example {
            point: neighbours[h.neighbour].clone(),
            bug: h.bug,
        });
        check_report(&h.report, &vars, &with, &cfg)?;
    }
    // A wrong-arity point is a typed answer, not a panic.
    let bad = l.learn_with(&vec![Value::ZERO; nvars + 1], false);
    if !matches!(bad.stop, StopReason::Invalid(_)) {
        return Err(Violation::Invariant(format!(
            "wrong arity gave '{}'",
            bad.stop
        )));
    }
    Ok(())
}
