//! The seam between the active loop and a bug-oracle learner: learn, predict, and look one example ahead.

use super::num::Num;

/// One labelled point for the learner: the input values followed by the output value.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// Inputs, then the output as a number.
    pub point: Vec<Num>,
    /// Labelled "bug" (true) or "ok" (false).
    pub bug: bool,
}

/// Result of a learn call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LearnStatus {
    /// A formula consistent with every example was found.
    Consistent,
    /// No formula within the learner's limits; the previous hypothesis is kept.
    Failed,
}

/// A bug-oracle learner as the active loop uses it. The real one is
/// [`super::formula::FormulaOracle`]; tests use fakes.
pub trait BugOracle {
    /// Learns a new current hypothesis from all `examples`.
    fn learn(&mut self, examples: &[Example]) -> LearnStatus;
    /// Whether the current hypothesis says `point` shows the bug.
    fn predict(&self, point: &[Num]) -> bool;
    /// Learns from `examples` plus `extra` (a hypothetical label) and predicts `query`,
    /// leaving the current hypothesis unchanged; `None` when no formula is found.
    fn predict_with(
        &mut self,
        examples: &[Example],
        extra: &Example,
        query: &[Num],
    ) -> Option<bool>;
    /// The look-one-ahead committee on `query`: for every neighbour, the prediction of
    /// the oracle learned with that neighbour labelled "ok" and labelled "bug" (in that
    /// order); `None` where no formula is found. The default asks [`Self::predict_with`]
    /// for each; a learner can share work across the whole committee.
    fn committee(
        &mut self,
        examples: &[Example],
        neighbours: &[Vec<Num>],
        query: &[Num],
    ) -> Vec<[Option<bool>; 2]> {
        neighbours
            .iter()
            .map(|n| {
                [false, true].map(|bug| {
                    let extra = Example {
                        point: n.clone(),
                        bug,
                    };
                    self.predict_with(examples, &extra, query)
                })
            })
            .collect()
    }
    /// The current hypothesis, readable.
    fn describe(&self) -> String;
    /// Caps the search work (SAT conflicts) of all later learn calls together at
    /// `budget`, counted from the oracle's start (`None`: no cap). The default ignores it
    /// (for learners without such work).
    fn set_conflict_budget(&mut self, budget: Option<u64>) {
        let _ = budget;
    }
    /// Search work (SAT conflicts) of all learn calls so far.
    fn conflicts_used(&self) -> u64 {
        0
    }
    /// Whether the budget of [`Self::set_conflict_budget`] is used up.
    fn budget_exhausted(&self) -> bool {
        false
    }
}
