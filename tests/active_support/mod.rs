//! Test helpers for the active-loop tests: a consistent nearest-neighbour fake learner.

use fixloop::active::{BugOracle, Example, LearnStatus, Num};

/// A consistent toy learner: the label of the nearest labelled point (L1 distance; ties
/// and the all-bug start say "bug").
#[derive(Default, Clone)]
pub struct NearestLearner {
    examples: Vec<(Vec<f64>, bool)>,
}

fn f(p: &[Num]) -> Vec<f64> {
    p.iter()
        .map(|n| match *n {
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        })
        .collect()
}

fn nearest(examples: &[(Vec<f64>, bool)], p: &[f64]) -> bool {
    let mut best = (f64::INFINITY, true);
    for (q, bug) in examples {
        let d: f64 = p.iter().zip(q).map(|(a, b)| (a - b).abs()).sum();
        if d < best.0 || (d == best.0 && *bug) {
            best = (d, *bug);
        }
    }
    best.1
}

impl BugOracle for NearestLearner {
    fn learn(&mut self, examples: &[Example]) -> LearnStatus {
        self.examples = examples.iter().map(|e| (f(&e.point), e.bug)).collect();
        LearnStatus::Consistent
    }
    fn predict(&self, point: &[Num]) -> bool {
        nearest(&self.examples, &f(point))
    }
    fn predict_with(&mut self, _: &[Example], extra: &Example, query: &[Num]) -> Option<bool> {
        let mut all = self.examples.clone();
        all.push((f(&extra.point), extra.bug));
        Some(nearest(&all, &f(query)))
    }
    fn describe(&self) -> String {
        format!("nearest of {} examples", self.examples.len())
    }
}
