//! Incal's incremental mode: learn on a subset, add misclassified examples, repeat.

use super::learner::Learner;
use super::{Example, LearnConfig, LearnReport, StopReason};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt;

/// Settings of the counterexample loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CegisConfig {
    /// Examples in the first subset (drawn from both labels). Default 20.
    pub initial: usize,
    /// Misclassified examples added per round. Default 10.
    pub batch: usize,
    /// Most rounds. Default 100.
    pub max_rounds: usize,
    /// Seed of the subset draws. Default 0.
    pub seed: u64,
}

impl Default for CegisConfig {
    fn default() -> Self {
        CegisConfig {
            initial: 20,
            batch: 10,
            max_rounds: 100,
            seed: 0,
        }
    }
}

/// Outcome of [`learn_cegis`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CegisReport {
    /// The last learn call's report.
    pub last: LearnReport,
    /// Rounds run.
    pub rounds: usize,
    /// Examples the final formula was learned from.
    pub used: usize,
    /// Whether the final formula classifies every example right.
    pub consistent_with_all: bool,
}

impl fmt::Display for CegisReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.last)?;
        writeln!(
            f,
            "cegis:     {} rounds, {} examples used, {}",
            self.rounds,
            self.used,
            if self.consistent_with_all {
                "consistent with all examples"
            } else {
                "NOT consistent with all examples"
            }
        )
    }
}

/// Learns from a growing subset of `examples`: start with `initial` of them, learn,
/// add up to `batch` misclassified ones, repeat until the formula is right on all
/// examples (or the learner stops, or `max_rounds` pass). Deterministic for a seed.
pub fn learn_cegis(
    vars: &[String],
    examples: &[Example],
    config: &LearnConfig,
    cegis: &CegisConfig,
) -> CegisReport {
    let mut rng = StdRng::seed_from_u64(cegis.seed);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    order.shuffle(&mut rng);
    let mut learner = Learner::new(vars.to_vec(), config.clone());
    // First subset: alternate labels so both are represented.
    let (bugs, oks): (Vec<usize>, Vec<usize>) = order.iter().partition(|&&i| examples[i].bug);
    let mut used = vec![false; examples.len()];
    let mut taken = 0;
    let (mut bi, mut oi) = (bugs.iter(), oks.iter());
    while taken < cegis.initial {
        let mut progress = false;
        for it in [&mut bi, &mut oi] {
            if taken < cegis.initial {
                if let Some(&i) = it.next() {
                    used[i] = true;
                    taken += 1;
                    progress = true;
                }
            }
        }
        if !progress {
            break;
        }
    }
    let mut rounds = 0;
    loop {
        for (i, e) in examples.iter().enumerate() {
            if used[i] {
                // Arity errors surface as a report below; duplicates are ignored.
                let _ = learner.add_example(e.point.clone(), e.bug);
            }
        }
        rounds += 1;
        let report = learner.learn();
        let n_used = used.iter().filter(|&&u| u).count();
        let Some(f) = report
            .formula
            .clone()
            .filter(|_| report.stop == StopReason::Found)
        else {
            return CegisReport {
                last: report,
                rounds,
                used: n_used,
                consistent_with_all: false,
            };
        };
        let wrong: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| f.eval(&examples[i].point) != examples[i].bug)
            .collect();
        let fresh: Vec<usize> = wrong.iter().copied().filter(|&i| !used[i]).collect();
        if wrong.is_empty() || fresh.is_empty() || rounds >= cegis.max_rounds {
            return CegisReport {
                last: report,
                rounds,
                used: n_used,
                consistent_with_all: wrong.is_empty(),
            };
        }
        for &i in fresh.iter().take(cegis.batch.max(1)) {
            used[i] = true;
        }
    }
}
