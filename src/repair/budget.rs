//! The per-run budget every repair engine draws from: test executions and candidates, the progress hook, and the one typed reason any engine stops.
//!
//! One [`Gate`] serves a whole repair (all engines of `--engine all` share it): an engine
//! asks it before each test execution and for each candidate it decides, so the
//! budgets hold exactly and a stop request from the progress hook is seen before the
//! next execution. Once it refuses, it keeps refusing with the same [`Stop`].

use std::fmt;

use super::{Control, Progress, RepairConfig, RepairStats};

/// Why a repair engine stopped, or why the gate refused: one shape for the gate and every
/// engine - enumeration, LRA synthesis and its synthesiser, GenProg and its genetic
/// search - after egg's `StopReason`: what was found, or which bound was hit. The
/// repair's own [`StopReason`](super::StopReason), which the page and the saved
/// sessions show as text, is read from it in one place (`StopReason::of`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// What was searched for was found: enough plausible patches (GenProg: a variant
    /// that passes every test; the synthesiser: code that fits every example).
    Found,
    /// Everything within the engine's own limits was tried without success: every
    /// candidate decided, every location tried, no operator could edit the program, no
    /// expression of at most `SynthConfig::max_vars` variables fits.
    Exhausted,
    /// [`RepairConfig::max_test_executions`] executions were used.
    ExecutionBudget,
    /// [`RepairConfig::max_candidates`] candidates were used.
    CandidateBudget,
    /// GenProg's generation limit was reached.
    GenerationLimit(usize),
    /// GenProg's evaluation budget was used up.
    EvaluationLimit(usize),
    /// The synthesiser's subset or free-coefficient budget ran out, after this many
    /// variable subsets.
    SubsetLimit(usize),
    /// The progress hook asked to stop.
    Stopped,
    /// The synthesiser had no examples to fit.
    NoExamples,
    /// Two examples with these variable values require different results: nothing fits.
    Inconsistent(Vec<i64>),
    /// The synthesiser's condition learner stopped without a formula (its reason).
    Learner(String),
    /// Invalid input or settings: examples of different lengths, more variables than
    /// names, GenProg's operator-selection settings.
    Invalid(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Found => write!(f, "found"),
            Stop::Exhausted => write!(f, "everything within the limits tried"),
            Stop::ExecutionBudget => write!(f, "test-execution budget used up"),
            Stop::CandidateBudget => write!(f, "candidate budget used up"),
            Stop::GenerationLimit(n) => write!(f, "generation limit ({n}) reached"),
            Stop::EvaluationLimit(n) => write!(f, "evaluation budget ({n}) used up"),
            Stop::SubsetLimit(n) => write!(f, "budget exhausted after {n} variable subsets"),
            Stop::Stopped => write!(f, "stopped"),
            Stop::NoExamples => write!(f, "no examples"),
            Stop::Inconsistent(input) => {
                write!(f, "inconsistent: {input:?} needs two different results")
            }
            Stop::Learner(why) => write!(f, "condition learner: {why}"),
            Stop::Invalid(m) => write!(f, "invalid: {m}"),
        }
    }
}

/// The budget of one repair: counts into [`RepairStats`] and asks the progress hook.
pub struct Gate<'a> {
    max_executions: u64,
    max_candidates: u64,
    /// The repair's counters (engines add their own details, e.g. hole executions).
    pub stats: &'a mut RepairStats,
    progress: &'a mut dyn FnMut(&Progress) -> Control,
    plausible: usize,
    best_cost: Option<u32>,
    stop: Option<Stop>,
}

impl<'a> Gate<'a> {
    /// A gate with `config`'s execution and candidate budgets.
    pub fn new(
        config: &RepairConfig,
        stats: &'a mut RepairStats,
        progress: &'a mut dyn FnMut(&Progress) -> Control,
    ) -> Gate<'a> {
        Gate {
            max_executions: config.max_test_executions,
            max_candidates: config.max_candidates as u64,
            stats,
            progress,
            plausible: 0,
            best_cost: None,
            stop: None,
        }
    }

    fn halt(&mut self, why: Stop) -> Result<(), Stop> {
        self.stop = Some(why.clone());
        Err(why)
    }

    /// What the progress hook sees now.
    pub fn snapshot(&self) -> Progress {
        self.stats.progress(self.plausible, self.best_cost)
    }

    /// Asks the progress hook whether to go on (without using any budget).
    pub fn check(&mut self) -> Result<(), Stop> {
        if let Some(s) = &self.stop {
            return Err(s.clone());
        }
        let now = self.snapshot();
        if (self.progress)(&now) == Control::Stop {
            return self.halt(Stop::Stopped);
        }
        Ok(())
    }

    /// Asks for one test execution; counts it when granted.
    pub fn execution(&mut self) -> Result<(), Stop> {
        if let Some(s) = &self.stop {
            return Err(s.clone());
        }
        if self.stats.test_executions >= self.max_executions {
            return self.halt(Stop::ExecutionBudget);
        }
        self.check()?;
        self.stats.test_executions += 1;
        Ok(())
    }

    /// Candidates still allowed.
    pub fn candidates_left(&self) -> u64 {
        self.max_candidates.saturating_sub(self.stats.candidates)
    }

    /// Asks for `n` more candidates (all or none); counts them when granted.
    pub fn candidates(&mut self, n: u64) -> Result<(), Stop> {
        if let Some(s) = &self.stop {
            return Err(s.clone());
        }
        if n > self.candidates_left() {
            return self.halt(Stop::CandidateBudget);
        }
        self.stats.candidates += n;
        Ok(())
    }

    /// Records a plausible patch of cost `cost` (for the hook and `first_plausible_at`).
    pub fn plausible(&mut self, cost: u32) {
        self.plausible += 1;
        self.best_cost = Some(self.best_cost.map_or(cost, |b| b.min(cost)));
        self.stats
            .first_plausible_at
            .get_or_insert(self.stats.test_executions);
    }

    /// Why the gate refused, once it has.
    pub fn stopped(&self) -> Option<Stop> {
        self.stop.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_hold_exactly_and_refusals_stick() {
        let config = RepairConfig {
            max_test_executions: 3,
            max_candidates: 5,
            ..RepairConfig::default()
        };
        let mut stats = RepairStats::default();
        let mut hook = |_: &Progress| Control::Continue;
        {
            let mut gate = Gate::new(&config, &mut stats, &mut hook);
            assert_eq!(gate.candidates(4), Ok(()));
            assert_eq!(gate.candidates(2), Err(Stop::CandidateBudget));
            assert_eq!(gate.execution(), Err(Stop::CandidateBudget));
        }
        assert_eq!((stats.candidates, stats.test_executions), (4, 0));
        let mut stats = RepairStats::default();
        let mut gate = Gate::new(&config, &mut stats, &mut hook);
        for _ in 0..3 {
            assert_eq!(gate.execution(), Ok(()));
        }
        assert_eq!(gate.execution(), Err(Stop::ExecutionBudget));
        assert_eq!(stats.test_executions, 3);
    }

    #[test]
    fn the_hook_stops_before_the_next_execution() {
        let config = RepairConfig::default();
        let mut stats = RepairStats::default();
        let mut hook = |p: &Progress| {
            if p.test_executions >= 2 {
                Control::Stop
            } else {
                Control::Continue
            }
        };
        let mut gate = Gate::new(&config, &mut stats, &mut hook);
        assert_eq!(gate.execution(), Ok(()));
        assert_eq!(gate.execution(), Ok(()));
        assert_eq!(gate.execution(), Err(Stop::Stopped));
        assert_eq!(gate.check(), Err(Stop::Stopped));
        assert_eq!(stats.test_executions, 2);
    }
}
