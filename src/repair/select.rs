//! Mutation-operator selection for the genetic engine: uniform, probability matching, adaptive pursuit, epsilon-greedy and UCB.
//!
//! This is the learner of Hanna, Blot and Petke, "Reinforcement Learning for Mutation
//! Operator Selection in Automated Program Repair" (the RL paper of `DESIGN.md`): before
//! each mutation the genetic engine asks an [`OperatorSelector`] which of its `N`
//! operators to apply, and afterwards feeds back the child's fitness. The selector keeps a
//! quality estimate `Q_i` per operator (the *credit assignment*: plain average of the
//! rewards, or recency-weighted `Q_i += alpha * (r - Q_i)`), and turns it into a choice
//! (the *strategy*):
//!
//! - [`Strategy::Uniform`] - every operator with probability `1/N` (GenProg's baseline);
//! - [`Strategy::ProbabilityMatching`] - `P_i = Pmin + (1 - N*Pmin) * Q_i / sum Q`;
//! - [`Strategy::AdaptivePursuit`] - the best operator's probability is pulled toward
//!   `Pmax = 1 - (N-1)*Pmin`, the others toward `Pmin`, at rate `beta`;
//! - [`Strategy::EpsilonGreedy`] - with probability `epsilon` a uniform choice, otherwise
//!   the operator of highest quality;
//! - [`Strategy::Ucb`] - UCB1: every operator once, then the highest
//!   `Q_i + c * sqrt(ln t / n_i)`.
//!
//! The reward is the child's fitness ([`Reward::Raw`]) or its improvement over the parent,
//! clamped at zero ([`Reward::ParentRelative`]). Fitness is expected in `[0, 1]`.
//!
//! Floats are fine here: they steer a random search, they never decide whether a patch is
//! correct. Randomness comes only from the caller's seeded [`StdRng`], so a run replays.

use rand::rngs::StdRng;
use rand::RngExt;
use std::fmt;
use std::str::FromStr;

/// How the next operator is chosen from the quality estimates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Uniform random choice: the baseline.
    Uniform,
    /// Probability matching (Goldberg; Thierens 2005).
    ProbabilityMatching,
    /// Adaptive pursuit (Thierens 2005).
    AdaptivePursuit,
    /// Epsilon-greedy multi-armed bandit.
    EpsilonGreedy,
    /// UCB1 multi-armed bandit (Auer, Cesa-Bianchi and Fischer 2002).
    Ucb,
}

impl Strategy {
    /// Every strategy, the baseline first.
    pub const ALL: [Strategy; 5] = [
        Strategy::Uniform,
        Strategy::ProbabilityMatching,
        Strategy::AdaptivePursuit,
        Strategy::EpsilonGreedy,
        Strategy::Ucb,
    ];

    /// The short name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Uniform => "uniform",
            Strategy::ProbabilityMatching => "pm",
            Strategy::AdaptivePursuit => "ap",
            Strategy::EpsilonGreedy => "eps-greedy",
            Strategy::Ucb => "ucb",
        }
    }
}

/// How rewards are folded into an operator's quality estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Credit {
    /// The mean of every reward the operator earned (a stationary process).
    Average,
    /// Exponential recency weighting: `Q += alpha * (r - Q)`.
    RecencyWeighted,
}

impl Credit {
    /// Both credit assignments, average first.
    pub const ALL: [Credit; 2] = [Credit::Average, Credit::RecencyWeighted];

    /// The short name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Credit::Average => "avg",
            Credit::RecencyWeighted => "recency",
        }
    }
}

/// What an application of an operator earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reward {
    /// The child's fitness.
    Raw,
    /// The child's fitness minus its parent's, clamped at zero.
    ParentRelative,
}

impl Reward {
    /// Both reward types, raw first.
    pub const ALL: [Reward; 2] = [Reward::Raw, Reward::ParentRelative];

    /// The short name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Reward::Raw => "raw",
            Reward::ParentRelative => "parent",
        }
    }
}

macro_rules! name_round_trip {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $t {
            type Err = SelectError;
            fn from_str(s: &str) -> Result<Self, SelectError> {
                <$t>::ALL
                    .into_iter()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| SelectError::UnknownName(s.to_string()))
            }
        }
    )*};
}
name_round_trip!(Strategy, Credit, Reward);

/// Settings of the operator selector. Defaults follow the RL paper (and Thierens 2005,
/// where it takes them from).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelectionConfig {
    /// The strategy. Default [`Strategy::EpsilonGreedy`], the paper's best.
    pub strategy: Strategy,
    /// The credit assignment. Default [`Credit::Average`], the paper's best.
    pub credit: Credit,
    /// The reward. Default [`Reward::Raw`].
    pub reward: Reward,
    /// Least probability of any operator under PM and AP; `None` means `1/(2N)` for `N`
    /// operators. Default `None`.
    pub p_min: Option<f64>,
    /// Adaptive pursuit's probability learning rate. Default 0.8.
    pub beta: f64,
    /// Adaptation rate of the quality estimates under recency-weighted credit
    /// (`Q += alpha * (r - Q)`), used by every strategy. Default 0.8 (Thierens' setting
    /// for PM and AP).
    pub alpha: f64,
    /// Epsilon-greedy's exploration probability. Default 0.2.
    pub epsilon: f64,
    /// UCB's exploration constant `c` in `Q_i + c * sqrt(ln t / n_i)`. Default `sqrt(2)`,
    /// which is exactly UCB1 for rewards in `[0, 1]`.
    pub ucb_c: f64,
}

impl Default for SelectionConfig {
    fn default() -> Self {
        SelectionConfig {
            strategy: Strategy::EpsilonGreedy,
            credit: Credit::Average,
            reward: Reward::Raw,
            p_min: None,
            beta: 0.8,
            alpha: 0.8,
            epsilon: 0.2,
            ucb_c: std::f64::consts::SQRT_2,
        }
    }
}

impl SelectionConfig {
    /// The default settings with another strategy, credit and reward.
    pub fn with(strategy: Strategy, credit: Credit, reward: Reward) -> SelectionConfig {
        SelectionConfig {
            strategy,
            credit,
            reward,
            ..SelectionConfig::default()
        }
    }
}

/// Bad selector settings.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SelectError {
    /// There must be at least one operator.
    #[error("operator selection needs at least one operator")]
    NoOperators,
    /// A rate or probability outside its range.
    #[error("{name} = {value} is outside {range}")]
    OutOfRange {
        /// The setting.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The allowed range, as text.
        range: &'static str,
    },
    /// A strategy, credit or reward name that does not exist.
    #[error("unknown operator-selection name `{0}`")]
    UnknownName(String),
}

/// The learner that picks mutation operators; see the module docs.
#[derive(Clone, Debug)]
pub struct OperatorSelector {
    config: SelectionConfig,
    p_min: f64,
    quality: Vec<f64>,
    probability: Vec<f64>,
    /// Rewards received per operator.
    rewarded: Vec<u64>,
    /// Times each operator was chosen.
    chosen: Vec<u64>,
    /// Rewards received in total (UCB's `t`).
    total_rewards: u64,
}

impl OperatorSelector {
    /// A selector over `operators` operators (numbered `0..operators`).
    pub fn new(operators: usize, config: SelectionConfig) -> Result<OperatorSelector, SelectError> {
        if operators == 0 {
            return Err(SelectError::NoOperators);
        }
        let n = operators as f64;
        let p_min = config.p_min.unwrap_or(1.0 / (2.0 * n));
        let check = |name, value: f64, ok: bool, range| {
            if ok && value.is_finite() {
                Ok(())
            } else {
                Err(SelectError::OutOfRange { name, value, range })
            }
        };
        check("p_min", p_min, (0.0..=1.0 / n).contains(&p_min), "[0, 1/N]")?;
        check(
            "beta",
            config.beta,
            (0.0..=1.0).contains(&config.beta),
            "[0, 1]",
        )?;
        check(
            "alpha",
            config.alpha,
            config.alpha > 0.0 && config.alpha <= 1.0,
            "(0, 1]",
        )?;
        check(
            "epsilon",
            config.epsilon,
            (0.0..=1.0).contains(&config.epsilon),
            "[0, 1]",
        )?;
        check("ucb_c", config.ucb_c, config.ucb_c >= 0.0, "[0, inf)")?;
        Ok(OperatorSelector {
            config,
            p_min,
            quality: vec![0.0; operators],
            probability: vec![1.0 / n; operators],
            rewarded: vec![0; operators],
            chosen: vec![0; operators],
            total_rewards: 0,
        })
    }

    /// The settings.
    pub fn config(&self) -> &SelectionConfig {
        &self.config
    }

    /// Number of operators.
    pub fn operators(&self) -> usize {
        self.quality.len()
    }

    /// The least probability of an operator under PM and AP.
    pub fn p_min(&self) -> f64 {
        self.p_min
    }

    /// The probability adaptive pursuit gives its best operator: `1 - (N-1)*Pmin`.
    pub fn p_max(&self) -> f64 {
        1.0 - (self.operators() as f64 - 1.0) * self.p_min
    }

    /// The quality estimates `Q_i`.
    pub fn quality(&self) -> &[f64] {
        &self.quality
    }

    /// The selection probabilities of PM and AP (uniform for the other strategies, whose
    /// choice is not a fixed distribution).
    pub fn probabilities(&self) -> &[f64] {
        &self.probability
    }

    /// How often each operator was chosen.
    pub fn chosen(&self) -> &[u64] {
        &self.chosen
    }

    /// Picks the next operator.
    pub fn choose(&mut self, rng: &mut StdRng) -> usize {
        let n = self.operators();
        let op = match self.config.strategy {
            Strategy::Uniform => rng.random_range(0..n),
            Strategy::ProbabilityMatching | Strategy::AdaptivePursuit => {
                self.sample_probabilities(rng)
            }
            Strategy::EpsilonGreedy => {
                if rng.random_range(0.0..1.0) < self.config.epsilon {
                    rng.random_range(0..n)
                } else {
                    self.argmax_random_tie(|i| self.quality[i], rng)
                }
            }
            Strategy::Ucb => match self.rewarded.iter().position(|&c| c == 0) {
                Some(untried) => untried,
                None => {
                    let ln_t = (self.total_rewards as f64).ln();
                    let c = self.config.ucb_c;
                    self.argmax_random_tie(
                        |i| self.quality[i] + c * (ln_t / self.rewarded[i] as f64).sqrt(),
                        rng,
                    )
                }
            },
        };
        self.chosen[op] += 1;
        op
    }

    /// The reward for a child of fitness `child` whose parent had fitness `parent`, by the
    /// configured reward type.
    pub fn reward_for(&self, child: f64, parent: f64) -> f64 {
        match self.config.reward {
            Reward::Raw => child,
            Reward::ParentRelative => (child - parent).max(0.0),
        }
    }

    /// Feeds back the outcome of applying `op`: the child's and the parent's fitness.
    pub fn feedback(&mut self, op: usize, child: f64, parent: f64) {
        let r = self.reward_for(child, parent);
        self.record(op, r);
    }

    /// Folds a reward into `op`'s quality and updates the probabilities. Non-finite
    /// rewards count as 0; an operator number out of range is ignored.
    pub fn record(&mut self, op: usize, reward: f64) {
        if op >= self.operators() {
            return;
        }
        let r = if reward.is_finite() { reward } else { 0.0 };
        self.rewarded[op] += 1;
        self.total_rewards += 1;
        let q = &mut self.quality[op];
        match self.config.credit {
            Credit::Average => *q += (r - *q) / self.rewarded[op] as f64,
            Credit::RecencyWeighted => *q += self.config.alpha * (r - *q),
        }
        match self.config.strategy {
            Strategy::ProbabilityMatching => self.match_probabilities(),
            Strategy::AdaptivePursuit => self.pursue_best(),
            _ => {}
        }
    }

    fn match_probabilities(&mut self) {
        let n = self.operators() as f64;
        // PM needs non-negative qualities; negative rewards (never produced by the two
        // reward types on fitness in [0, 1]) are treated as zero.
        let total: f64 = self.quality.iter().map(|q| q.max(0.0)).sum();
        if total <= 0.0 {
            self.probability.iter_mut().for_each(|p| *p = 1.0 / n);
            return;
        }
        let spread = 1.0 - n * self.p_min;
        for (p, q) in self.probability.iter_mut().zip(&self.quality) {
            *p = self.p_min + spread * q.max(0.0) / total;
        }
    }

    fn pursue_best(&mut self) {
        // The best operator: highest quality, lowest index on ties (deterministic).
        let best = (0..self.operators()).fold(0, |b, i| {
            if self.quality[i] > self.quality[b] {
                i
            } else {
                b
            }
        });
        let (p_min, p_max, beta) = (self.p_min, self.p_max(), self.config.beta);
        for (i, p) in self.probability.iter_mut().enumerate() {
            let target = if i == best { p_max } else { p_min };
            *p += beta * (target - *p);
        }
    }

    fn sample_probabilities(&self, rng: &mut StdRng) -> usize {
        let total: f64 = self.probability.iter().sum();
        let mut x = rng.random_range(0.0..1.0) * total;
        for (i, p) in self.probability.iter().enumerate() {
            if x < *p {
                return i;
            }
            x -= p;
        }
        self.operators() - 1
    }

    fn argmax_random_tie(&self, score: impl Fn(usize) -> f64, rng: &mut StdRng) -> usize {
        let scores: Vec<f64> = (0..self.operators()).map(score).collect();
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= best).collect();
        match ties.len() {
            0 => 0,
            1 => ties[0],
            k => ties[rng.random_range(0..k)],
        }
    }
}

impl fmt::Display for OperatorSelector {
    /// One line per operator: times chosen, quality, probability.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "selection: {} / {} credit / {} reward",
            c.strategy, c.credit, c.reward
        )?;
        for i in 0..self.operators() {
            writeln!(
                f,
                "  op {i}: chosen {:>6}  quality {:.3}  p {:.3}",
                self.chosen[i], self.quality[i], self.probability[i]
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// How a synthetic operator pays.
    #[derive(Clone, Copy)]
    enum Payout {
        /// 1 with probability `pay[i]`, else 0 (noisy: a single reward says little).
        Bernoulli,
        /// `pay[i]` plus uniform noise in +-0.15 (every reward is informative).
        Jittered,
    }

    /// A synthetic bandit: operator `i` pays `pay[i]` on average.
    fn play_with(
        config: SelectionConfig,
        pay: &[f64],
        payout: Payout,
        rounds: usize,
        seed: u64,
    ) -> OperatorSelector {
        let mut sel = OperatorSelector::new(pay.len(), config).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut env = StdRng::seed_from_u64(seed ^ 0x5eed);
        for _ in 0..rounds {
            let op = sel.choose(&mut rng);
            let child = match payout {
                Payout::Bernoulli => (env.random_range(0.0..1.0) < pay[op]) as u8 as f64,
                Payout::Jittered => pay[op] + env.random_range(-0.15..0.15),
            };
            sel.feedback(op, child, 0.0);
        }
        sel
    }

    fn play(config: SelectionConfig, pay: &[f64], rounds: usize, seed: u64) -> OperatorSelector {
        play_with(config, pay, Payout::Jittered, rounds, seed)
    }

    fn share(sel: &OperatorSelector, op: usize) -> f64 {
        sel.chosen()[op] as f64 / sel.chosen().iter().sum::<u64>() as f64
    }

    #[test]
    fn adaptive_strategies_favour_the_operator_that_pays_more() {
        let pay = [0.2, 0.2, 0.8, 0.2];
        let rounds = 2000;
        let uniform = play(
            SelectionConfig::with(Strategy::Uniform, Credit::Average, Reward::Raw),
            &pay,
            rounds,
            1,
        );
        let base = share(&uniform, 2);
        assert!((base - 0.25).abs() < 0.05, "uniform share {base}");
        for strategy in &Strategy::ALL[1..] {
            for credit in Credit::ALL {
                for seed in 0..3 {
                    let sel = play(
                        SelectionConfig::with(*strategy, credit, Reward::Raw),
                        &pay,
                        rounds,
                        seed,
                    );
                    let s = share(&sel, 2);
                    assert!(
                        s > base + 0.12,
                        "{strategy}/{credit} seed {seed}: share of the best operator {s:.3} vs uniform {base:.3}\n{sel}"
                    );
                }
            }
        }
    }

    #[test]
    fn average_credit_learns_from_noisy_all_or_nothing_rewards() {
        // Recency weighting with the default alpha = 0.8 mostly remembers the last reward,
        // which is noise on a Bernoulli bandit; the average is what learns here (the RL
        // paper's finding that the repair search is stationary).
        let pay = [0.2, 0.2, 0.8, 0.2];
        for strategy in &Strategy::ALL[1..] {
            for seed in 0..3 {
                let cfg = SelectionConfig::with(*strategy, Credit::Average, Reward::Raw);
                let sel = play_with(cfg, &pay, Payout::Bernoulli, 2000, seed);
                let s = share(&sel, 2);
                assert!(s > 0.37, "{strategy} seed {seed}: share {s:.3}\n{sel}");
            }
        }
    }

    #[test]
    fn parent_relative_reward_pays_only_improvements() {
        let sel = OperatorSelector::new(
            3,
            SelectionConfig::with(
                Strategy::ProbabilityMatching,
                Credit::Average,
                Reward::ParentRelative,
            ),
        )
        .unwrap();
        assert_eq!(sel.reward_for(0.75, 0.5), 0.25);
        assert_eq!(sel.reward_for(0.25, 0.5), 0.0);
        let raw = OperatorSelector::new(3, SelectionConfig::default()).unwrap();
        assert_eq!(raw.reward_for(0.25, 0.5), 0.25);
        // An operator that only ever keeps the parent's fitness earns nothing, one that
        // improves it wins under parent-relative reward even if its children are weaker
        // in absolute terms.
        let mut sel = sel;
        for _ in 0..50 {
            sel.feedback(0, 0.9, 0.9);
            sel.feedback(1, 0.4, 0.2);
        }
        assert!(sel.probabilities()[1] > sel.probabilities()[0]);
    }

    #[test]
    fn probability_matching_keeps_a_distribution_above_pmin() {
        for n in 1..7 {
            for credit in Credit::ALL {
                let mut sel = OperatorSelector::new(
                    n,
                    SelectionConfig::with(Strategy::ProbabilityMatching, credit, Reward::Raw),
                )
                .unwrap();
                let mut rng = StdRng::seed_from_u64(n as u64);
                assert_eq!(sel.p_min(), 1.0 / (2.0 * n as f64));
                for _ in 0..500 {
                    let op = sel.choose(&mut rng);
                    let r = if op == 0 {
                        1.0
                    } else {
                        rng.random_range(0.0..0.3)
                    };
                    sel.record(op, r);
                    let sum: f64 = sel.probabilities().iter().sum();
                    assert!((sum - 1.0).abs() < 1e-9, "sum {sum}");
                    for p in sel.probabilities() {
                        assert!(*p >= sel.p_min() - 1e-12, "{p} < Pmin {}", sel.p_min());
                    }
                }
            }
        }
    }

    #[test]
    fn adaptive_pursuit_converges_to_pmax() {
        let mut sel = OperatorSelector::new(
            5,
            SelectionConfig::with(Strategy::AdaptivePursuit, Credit::Average, Reward::Raw),
        )
        .unwrap();
        assert!((sel.p_max() - (1.0 - 4.0 / 10.0)).abs() < 1e-12);
        for _ in 0..40 {
            sel.record(3, 1.0);
            for op in [0, 1, 2, 4] {
                sel.record(op, 0.1);
            }
        }
        let p = sel.probabilities();
        assert!((p[3] - sel.p_max()).abs() < 1e-6, "{p:?}");
        for op in [0, 1, 2, 4] {
            assert!((p[op] - sel.p_min()).abs() < 1e-6, "{p:?}");
        }
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn epsilon_greedy_explores_about_epsilon() {
        // Operator 0 is clearly best from its first reward on, so every other pick is an
        // exploration, which chooses a non-best operator with probability eps*(N-1)/N.
        let n = 4;
        let mut sel = OperatorSelector::new(
            n,
            SelectionConfig::with(Strategy::EpsilonGreedy, Credit::Average, Reward::Raw),
        )
        .unwrap();
        sel.record(0, 1.0);
        let mut rng = StdRng::seed_from_u64(7);
        let rounds = 20_000;
        let mut other = 0;
        for _ in 0..rounds {
            let op = sel.choose(&mut rng);
            if op != 0 {
                other += 1;
            }
            sel.record(op, if op == 0 { 1.0 } else { 0.0 });
        }
        let expected = 0.2 * (n as f64 - 1.0) / n as f64;
        let seen = other as f64 / rounds as f64;
        assert!(
            (seen - expected).abs() < 0.015,
            "explored {seen}, expected {expected}"
        );
    }

    #[test]
    fn ucb_tries_every_operator_first() {
        let mut sel = OperatorSelector::new(
            6,
            SelectionConfig::with(Strategy::Ucb, Credit::Average, Reward::Raw),
        )
        .unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let mut first: Vec<usize> = (0..6)
            .map(|_| {
                let op = sel.choose(&mut rng);
                sel.record(op, if op == 5 { 1.0 } else { 0.0 });
                op
            })
            .collect();
        first.sort();
        assert_eq!(first, vec![0, 1, 2, 3, 4, 5]);
        // Then it exploits the paying one, but still revisits the others now and then.
        for _ in 0..600 {
            let op = sel.choose(&mut rng);
            sel.record(op, if op == 5 { 1.0 } else { 0.0 });
        }
        assert!(sel.chosen()[5] > 400, "{sel}");
        assert!(sel.chosen()[..5].iter().all(|&c| c >= 2), "{sel}");
    }

    #[test]
    fn same_seed_same_choices() {
        for strategy in Strategy::ALL {
            let cfg = SelectionConfig::with(strategy, Credit::RecencyWeighted, Reward::Raw);
            let a = play(cfg, &[0.3, 0.6, 0.1], 300, 11);
            let b = play(cfg, &[0.3, 0.6, 0.1], 300, 11);
            assert_eq!(a.chosen(), b.chosen());
            assert_eq!(a.quality(), b.quality());
        }
    }

    #[test]
    fn bad_settings_are_errors() {
        assert_eq!(
            OperatorSelector::new(0, SelectionConfig::default()).unwrap_err(),
            SelectError::NoOperators
        );
        let bad = SelectionConfig {
            epsilon: 1.5,
            ..SelectionConfig::default()
        };
        assert!(matches!(
            OperatorSelector::new(3, bad),
            Err(SelectError::OutOfRange {
                name: "epsilon",
                ..
            })
        ));
        let bad = SelectionConfig {
            p_min: Some(0.5),
            ..SelectionConfig::default()
        };
        assert!(matches!(
            OperatorSelector::new(3, bad),
            Err(SelectError::OutOfRange { name: "p_min", .. })
        ));
        let bad = SelectionConfig {
            alpha: 0.0,
            ..SelectionConfig::default()
        };
        assert!(OperatorSelector::new(3, bad).is_err());
        assert_eq!(
            "pm".parse::<Strategy>().unwrap(),
            Strategy::ProbabilityMatching
        );
        for s in Strategy::ALL {
            assert_eq!(s.to_string().parse::<Strategy>().unwrap(), s);
        }
        assert!("greedy".parse::<Strategy>().is_err());
        assert_eq!(
            "recency".parse::<Credit>().unwrap(),
            Credit::RecencyWeighted
        );
        assert_eq!("parent".parse::<Reward>().unwrap(), Reward::ParentRelative);
    }
}
