//! Learn2fix Algorithms 1 and 2 as a step-able state machine: fuzz, decide2label, ask, learn.

use super::fuzz::{FuzzConfig, FuzzStop, Fuzzer, Reach};
use super::learner::{BugOracle, Example, LearnStatus};
use super::num::{format_input, Num};
use super::observe::{Observation, Runner};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt;

/// Settings of the active loop.
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveConfig {
    /// Label budget l: questions asked before stopping (the initial failing test is given,
    /// not asked). Default 20.
    pub label_budget: usize,
    /// Committee size S: neighbours per decide2label, two look-ahead oracles each.
    /// Default 10.
    pub committee: usize,
    /// Generation budget: candidate tests considered before stopping. Default 200.
    pub max_generated: usize,
    /// Committee budget: look-ahead learn calls per session. When it is used up,
    /// decide2label asks only where the current oracle predicts "bug" (reported in
    /// [`Report::committee_exhausted`]). Default 300.
    pub max_look_ahead_learns: usize,
    /// Learner budget: SAT conflicts of all learn calls of a session together (the
    /// current oracle's and the look-ahead ones). When it is used up the loop stops with
    /// [`StopReason::LearnerBudget`], keeping the last oracle found. `None`: no cap (each
    /// learn call still has its own limit). Default 300 000 (about a minute of
    /// varisat search at the ~5 000 conflicts/s measured on IntroClass `grade`).
    pub max_conflicts: Option<u64>,
    /// When the generation budget is used up (or the fuzzer stops) before the label
    /// budget, ask about the generated tests not asked yet until the label budget is used:
    /// first any the current oracle flags, then the one most look-ahead oracles voted
    /// "bug" on when it was generated. `false` stops there, as Learn2fix's Algorithm 1
    /// does. Default true: a person who agreed to l questions gets an oracle learned from
    /// up to l answers.
    pub spend_leftover_labels: bool,
    /// Fuzzer settings.
    pub fuzz: FuzzConfig,
    /// Ask near the failing input first: while every answer so far is "not a bug",
    /// candidates are [`Reach::Like`] the labelled bugs (the same signs, equalities and
    /// order of the numbers, small steps), until [`NEAR_PATIENCE`] of them in a row were
    /// not asked about or [`ANSWER_PATIENCE`] answers in a row were what the oracle
    /// foresaw; otherwise [`Reach::Near`] them, widening to [`Reach::Far`] (sign flips,
    /// type limits) the same way, and back to near after a bug the oracle did not
    /// foresee. Default false (every candidate anywhere, as
    /// sessions made before it were asked); the page's sessions asked as a person is
    /// turn it on.
    pub near_first: bool,
}

/// Candidates in a row not asked about after which [`ActiveConfig::near_first`] widens
/// the fuzzer's reach.
pub const NEAR_PATIENCE: usize = 8;

/// Answers in a row the current oracle foresaw after which [`ActiveConfig::near_first`]
/// widens the fuzzer's reach: near inputs that only confirm what is known stop being
/// worth a person's time (a program wrong on every near input would otherwise never be
/// asked about a far one).
pub const ANSWER_PATIENCE: usize = 3;

impl Default for ActiveConfig {
    fn default() -> Self {
        ActiveConfig {
            label_budget: 20,
            committee: 10,
            max_generated: 200,
            max_look_ahead_learns: 300,
            max_conflicts: Some(300_000),
            spend_leftover_labels: true,
            fuzz: FuzzConfig::default(),
            near_first: false,
        }
    }
}

/// A person's or a reference program's verdict on one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The test shows the bug.
    pub bug: bool,
    /// What the program should have printed, when known.
    pub expected: Option<String>,
}

impl Label {
    /// "bug", without expected output.
    pub fn bug() -> Label {
        Label {
            bug: true,
            expected: None,
        }
    }

    /// "ok", without expected output.
    pub fn ok() -> Label {
        Label {
            bug: false,
            expected: None,
        }
    }
}

/// Why a test is sent to the labeller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskReason {
    /// The current oracle predicts "bug".
    OraclePredictsBug,
    /// At least half of the 2S look-one-ahead oracles vote "bug".
    Committee {
        /// Votes for "bug".
        bug_votes: usize,
        /// Votes cast (2S).
        votes: usize,
    },
    /// Labels are left after generation ended (the generation budget was used up or the
    /// fuzzer stopped; see [`ActiveConfig::spend_leftover_labels`]); of the unasked
    /// tests, this one had the highest share of look-ahead votes for "bug" when it was
    /// generated.
    LeftoverBudget {
        /// Votes for "bug" it had.
        bug_votes: usize,
        /// Votes counted before decide2label settled (0 when no committee was asked).
        votes: usize,
    },
}

/// A question for the labeller: is this run a bug?
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The input values.
    pub input: Vec<Num>,
    /// What the program did on them.
    pub observation: Observation,
    /// Why it is asked.
    pub reason: AskReason,
    /// How far from the labelled bugs the fuzzer reached for it (`None` without
    /// [`ActiveConfig::near_first`], and for a leftover question).
    pub reach: Option<Reach>,
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "for input {} the program prints {:?}: is that the bug?",
            format_input(&self.input),
            self.observation.stdout.trim()
        )
    }
}

/// Why the loop stopped.
///
/// Apart from the repair engines' `Stop` (`repair::budget`) and the learner's own
/// `oracle::StopReason`: this ends the labelling loop, by its budgets (labels,
/// generated tests), the fuzzer running dry, or the run's learner conflict budget (the
/// learner's `SessionConflictLimit`, told here as `LearnerBudget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StopReason {
    /// The label budget l is used up.
    #[error("label budget used up")]
    LabelBudget,
    /// The generation budget is used up.
    #[error("generation budget used up")]
    GenerationBudget,
    /// The fuzzer found no new input.
    #[error("fuzzer stopped: {0}")]
    Fuzzer(FuzzStop),
    /// The learner's budget ([`ActiveConfig::max_conflicts`]) is used up.
    #[error("learner conflict budget used up")]
    LearnerBudget,
}

/// One step of the loop: a question, or the end.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Ask the labeller this.
    Ask(Query),
    /// The loop is over.
    Done(StopReason),
}

/// An answer that does not fit the loop's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// [`ActiveLoop::answer`] was called without a pending question.
    #[error("no question is pending")]
    NoPendingQuery,
}

/// A labelled test.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledTest {
    /// The input values.
    pub input: Vec<Num>,
    /// What the program did.
    pub observation: Observation,
    /// The verdict.
    pub label: Label,
    /// Asked by the loop (false for the initial failing test).
    pub asked: bool,
}

impl LabelledTest {
    /// The learner's example: inputs, then the output value.
    pub fn example(&self) -> Example {
        Example {
            point: point(&self.input, &self.observation),
            bug: self.label.bug,
        }
    }
}

/// decide2label's count on one candidate: look-ahead votes for "bug" among those cast
/// before it settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Votes {
    bug: usize,
    cast: usize,
}

impl Votes {
    /// Whether its share of "bug" votes is higher than `other`'s (no votes: share 0).
    fn share_above(&self, other: &Votes) -> bool {
        match (self.cast, other.cast) {
            (0, _) => false,
            (_, 0) => self.bug > 0,
            // bug / cast > other.bug / other.cast, without division.
            _ => self.bug * other.cast > other.bug * self.cast,
        }
    }
}

/// A generated candidate test and whether it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedTest {
    /// The input values.
    pub input: Vec<Num>,
    /// What the program did.
    pub observation: Observation,
    /// Sent to the labeller.
    pub asked: bool,
}

/// The learner's point of a run: inputs then output value.
pub fn point(input: &[Num], obs: &Observation) -> Vec<Num> {
    let mut p = input.to_vec();
    p.push(obs.value);
    p
}

/// Counters of a loop, with the stop reason: the report a run ends with.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Why it stopped (`None` while running).
    pub stop: Option<StopReason>,
    /// Questions answered.
    pub labels: usize,
    /// Of those, labelled "bug".
    pub labelled_bug: usize,
    /// Questions skipped (the labeller could not tell); they spend no label.
    pub skipped: usize,
    /// Candidate tests generated.
    pub generated: usize,
    /// Program runs (candidates and committee neighbours).
    pub executions: usize,
    /// Look-ahead learn calls.
    pub committee_learns: usize,
    /// Learn calls that found no consistent formula.
    pub learn_failures: usize,
    /// SAT conflicts of all learn calls (see [`ActiveConfig::max_conflicts`]).
    pub conflicts: u64,
    /// The committee budget was used up (later candidates were judged by the current
    /// oracle alone).
    pub committee_exhausted: bool,
    /// The current oracle.
    pub formula: String,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.stop {
            Some(s) => writeln!(f, "stopped: {s}")?,
            None => writeln!(f, "running")?,
        }
        writeln!(
            f,
            "labels: {} ({} bug, {} skipped), generated: {}, executions: {}, look-ahead learns: {}{}, failed learns: {}, conflicts: {}",
            self.labels,
            self.labelled_bug,
            self.skipped,
            self.generated,
            self.executions,
            self.committee_learns,
            if self.committee_exhausted {
                " (budget used up)"
            } else {
                ""
            },
            self.learn_failures,
            self.conflicts
        )?;
        write!(f, "oracle: {}", self.formula)
    }
}

/// Answers queries: a person (the UI) or a reference program.
pub trait Labeller {
    /// The verdict on `query`, or `None` when the labeller cannot tell (e.g. the input
    /// is not a valid one): the loop skips the test without spending a label.
    fn label(&mut self, query: &Query) -> Option<Label>;
}

impl<F: FnMut(&Query) -> Option<Label>> Labeller for F {
    fn label(&mut self, query: &Query) -> Option<Label> {
        self(query)
    }
}

/// Learn2fix's loop (Algorithm 1) with decide2label (Algorithm 2), one question at a
/// time: call [`ActiveLoop::next_step`], then [`ActiveLoop::answer`] for a question.
///
/// decide2label: ask when the current oracle predicts "bug"; otherwise fuzz S neighbours
/// of the candidate, and for each learn two look-ahead oracles (neighbour labelled "ok",
/// labelled "bug"); ask when at least half of the 2S vote "bug" on the candidate. The
/// look-ahead oracle whose hypothetical label the current oracle already predicts is the
/// current oracle (a smallest consistent formula stays smallest and consistent), so it
/// votes "ok" without a learn call; counting stops as soon as the outcome is decided
/// (with those S "ok" votes, one more "ok" decides). A look-ahead that finds no formula
/// votes "bug" (in doubt, ask).
pub struct ActiveLoop<R: Runner, O: BugOracle> {
    config: ActiveConfig,
    runner: R,
    oracle: O,
    fuzzer: Fuzzer,
    rng: StdRng,
    labelled: Vec<LabelledTest>,
    examples: Vec<Example>,
    generated: Vec<GeneratedTest>,
    /// decide2label's votes on each generated test, in [`Self::generated`]'s order.
    votes: Vec<Votes>,
    /// Why generation ended, while leftover labels are being spent.
    generation_over: Option<StopReason>,
    pending: Option<Query>,
    stop: Option<StopReason>,
    /// The fuzzer's reach once an answer was a bug, or alike inputs stopped telling the
    /// committee anything ([`ActiveConfig::near_first`]).
    reach: Reach,
    /// Inputs like the labelled bugs stopped telling the committee anything.
    like_done: bool,
    /// Candidates in a row not asked about at the reach in use.
    quiet: usize,
    /// Answers in a row the current oracle foresaw.
    foreseen: usize,
    executions: usize,
    committee_learns: usize,
    learn_failures: usize,
    skipped: usize,
}

impl<R: Runner, O: BugOracle> ActiveLoop<R, O> {
    /// A loop for the program behind `runner`, starting from `failing` (known to show
    /// the bug, with an optional expected output), with randomness from `seed`.
    pub fn new(
        config: ActiveConfig,
        mut runner: R,
        mut oracle: O,
        failing: &[Num],
        expected: Option<String>,
        seed: u64,
    ) -> Self {
        let fuzzer = Fuzzer::new(failing, config.fuzz.clone());
        oracle.set_conflict_budget(config.max_conflicts);
        let observation = runner.run(failing);
        let mut this = ActiveLoop {
            config,
            runner,
            oracle,
            fuzzer,
            rng: StdRng::seed_from_u64(seed),
            labelled: Vec::new(),
            examples: Vec::new(),
            generated: Vec::new(),
            votes: Vec::new(),
            generation_over: None,
            pending: None,
            stop: None,
            reach: Reach::Near,
            like_done: false,
            quiet: 0,
            foreseen: 0,
            executions: 1,
            committee_learns: 0,
            learn_failures: 0,
            skipped: 0,
        };
        this.add_label(LabelledTest {
            input: failing.to_vec(),
            observation,
            label: Label {
                bug: true,
                expected,
            },
            asked: false,
        });
        this
    }

    /// The next question, or the end. Calling it again without an answer returns the
    /// same question.
    pub fn next_step(&mut self) -> Step {
        if let Some(q) = &self.pending {
            return Step::Ask(q.clone());
        }
        if let Some(s) = self.stop {
            return Step::Done(s);
        }
        loop {
            if self.asked() >= self.config.label_budget {
                return self.finish(StopReason::LabelBudget);
            }
            if self.generation_over.is_none() && self.generated.len() >= self.config.max_generated {
                self.generation_over = Some(StopReason::GenerationBudget);
            }
            if let Some(reason) = self.generation_over {
                return self.ask_leftover(reason);
            }
            if self.oracle.budget_exhausted() {
                return self.finish(StopReason::LearnerBudget);
            }
            let seeds: Vec<&[Num]> = self
                .labelled
                .iter()
                .filter(|t| t.label.bug)
                .map(|t| t.input.as_slice())
                .collect();
            let reach = self.reach_now();
            let input = match self.fuzzer.next_within(&seeds, &mut self.rng, reach) {
                Ok(i) => i,
                Err(_) if reach != Reach::Far => {
                    self.widen(reach);
                    continue;
                }
                Err(e) => {
                    self.generation_over = Some(StopReason::Fuzzer(e));
                    continue;
                }
            };
            let observation = self.runner.run(&input);
            self.executions += 1;
            let (reason, votes) = self.decide_to_label(&input, &observation);
            self.votes.push(votes);
            if reason.is_some() {
                self.quiet = 0;
            } else {
                self.quiet += 1;
                if self.quiet >= NEAR_PATIENCE {
                    self.widen(reach);
                }
            }
            self.generated.push(GeneratedTest {
                input: input.clone(),
                observation: observation.clone(),
                asked: reason.is_some(),
            });
            if let Some(reason) = reason {
                let q = Query {
                    input,
                    observation,
                    reason,
                    reach: self.config.near_first.then_some(reach),
                };
                self.pending = Some(q.clone());
                return Step::Ask(q);
            }
        }
    }

    /// The reach of the next candidate (see [`ActiveConfig::near_first`]).
    fn reach_now(&self) -> Reach {
        if !self.config.near_first {
            return Reach::Far;
        }
        let no_bug_yet = self.labelled.iter().all(|t| !t.asked || !t.label.bug);
        if no_bug_yet && !self.like_done {
            Reach::Like
        } else {
            self.reach
        }
    }

    /// Widens the reach after `at` stopped telling the committee anything.
    fn widen(&mut self, at: Reach) {
        match at {
            Reach::Like => self.like_done = true,
            _ => {
                if let Some(wider) = self.reach.wider() {
                    self.reach = wider;
                }
            }
        }
        self.quiet = 0;
    }

    /// Records the answer to the pending question and relearns the oracle.
    pub fn answer(&mut self, label: Label) -> Result<(), AnswerError> {
        let q = self.pending.take().ok_or(AnswerError::NoPendingQuery)?;
        if let Some(reach) = q.reach {
            // An answer the current oracle foresaw tells it nothing new: after
            // ANSWER_PATIENCE of them in a row the questions go further out. A bug it did
            // not foresee is looked at near first again.
            let foreseen = self.predicts_bug(&q.input, &q.observation) == label.bug;
            if foreseen {
                self.foreseen += 1;
                if self.foreseen >= ANSWER_PATIENCE {
                    self.widen(reach);
                    self.foreseen = 0;
                }
            } else {
                self.foreseen = 0;
                if label.bug {
                    self.reach = self.reach.min(Reach::Near);
                    self.quiet = 0;
                }
            }
        }
        self.add_label(LabelledTest {
            input: q.input,
            observation: q.observation,
            label,
            asked: true,
        });
        Ok(())
    }

    /// Drops the pending question without a label (the labeller cannot tell); the loop
    /// goes on with the next candidate. The skipped test stays in [`Self::generated`].
    pub fn skip(&mut self) -> Result<(), AnswerError> {
        self.pending.take().ok_or(AnswerError::NoPendingQuery)?;
        self.skipped += 1;
        Ok(())
    }

    /// Runs to the end, asking `labeller` every question.
    pub fn run(&mut self, labeller: &mut dyn Labeller) -> Report {
        while let Step::Ask(q) = self.next_step() {
            let label = labeller.label(&q);
            self.settle(label);
        }
        self.report()
    }

    /// Applies a labeller's verdict on the pending question: the label, or a skip when
    /// it could not tell. Without a pending question it does nothing.
    pub fn settle(&mut self, label: Option<Label>) {
        let _ = match label {
            Some(label) => self.answer(label),
            None => self.skip(),
        };
    }

    /// The current counters.
    pub fn report(&self) -> Report {
        Report {
            stop: self.stop,
            labels: self.asked(),
            skipped: self.skipped,
            labelled_bug: self
                .labelled
                .iter()
                .filter(|t| t.asked && t.label.bug)
                .count(),
            generated: self.generated.len(),
            executions: self.executions,
            committee_learns: self.committee_learns,
            learn_failures: self.learn_failures,
            conflicts: self.oracle.conflicts_used(),
            committee_exhausted: self.committee_learns >= self.config.max_look_ahead_learns,
            formula: self.oracle.describe(),
        }
    }

    /// All labelled tests, the initial failing one first.
    pub fn labelled(&self) -> &[LabelledTest] {
        &self.labelled
    }

    /// All generated candidate tests, in order.
    pub fn generated(&self) -> &[GeneratedTest] {
        &self.generated
    }

    /// The learner with its current hypothesis.
    pub fn oracle(&self) -> &O {
        &self.oracle
    }

    /// The program runner.
    pub fn runner(&self) -> &R {
        &self.runner
    }

    /// The program runner, mutable.
    pub fn runner_mut(&mut self) -> &mut R {
        &mut self.runner
    }

    /// The settings.
    pub fn config(&self) -> &ActiveConfig {
        &self.config
    }

    /// Whether the current oracle flags a run.
    pub fn predicts_bug(&self, input: &[Num], obs: &Observation) -> bool {
        self.oracle.predict(&point(input, obs))
    }

    fn asked(&self) -> usize {
        self.labelled.iter().filter(|t| t.asked).count()
    }

    /// The next leftover question once generation is over (`reason`), or the end.
    fn ask_leftover(&mut self, reason: StopReason) -> Step {
        if !self.config.spend_leftover_labels || self.oracle.budget_exhausted() {
            return self.finish(reason);
        }
        let unasked = || (0..self.generated.len()).filter(|&i| !self.generated[i].asked);
        let flagged = unasked().find(|&i| {
            let t = &self.generated[i];
            self.predicts_bug(&t.input, &t.observation)
        });
        let chosen = match flagged {
            Some(i) => Some((i, AskReason::OraclePredictsBug)),
            // Highest share of "bug" votes, the earliest generated among equals.
            None => unasked()
                .reduce(|best, i| {
                    if self.votes[i].share_above(&self.votes[best]) {
                        i
                    } else {
                        best
                    }
                })
                .map(|i| {
                    let v = self.votes[i];
                    (
                        i,
                        AskReason::LeftoverBudget {
                            bug_votes: v.bug,
                            votes: v.cast,
                        },
                    )
                }),
        };
        let Some((i, reason_asked)) = chosen else {
            return self.finish(reason);
        };
        let t = &mut self.generated[i];
        t.asked = true;
        let q = Query {
            input: t.input.clone(),
            observation: t.observation.clone(),
            reason: reason_asked,
            reach: None,
        };
        self.pending = Some(q.clone());
        Step::Ask(q)
    }

    fn finish(&mut self, reason: StopReason) -> Step {
        self.stop = Some(reason);
        Step::Done(reason)
    }

    fn add_label(&mut self, test: LabelledTest) {
        self.fuzzer.mark_seen(&test.input);
        self.examples.push(test.example());
        self.labelled.push(test);
        if self.oracle.learn(&self.examples) == LearnStatus::Failed {
            self.learn_failures += 1;
        }
    }

    /// Algorithm 2 (decide2label): whether to ask, and the votes counted on the way.
    fn decide_to_label(&mut self, input: &[Num], obs: &Observation) -> (Option<AskReason>, Votes) {
        let p = point(input, obs);
        let mut tally = Votes::default();
        if self.oracle.predict(&p) {
            return (Some(AskReason::OraclePredictsBug), tally);
        }
        if self.committee_learns >= self.config.max_look_ahead_learns {
            return (None, tally);
        }
        let s = self.config.committee;
        let votes = 2 * s;
        for _ in 0..s {
            let neighbour = self.neighbour(input);
            let nobs = self.runner.run(&neighbour);
            self.executions += 1;
            let np = point(&neighbour, &nobs);
            let predicted = self.oracle.predict(&np);
            for hypothetical in [false, true] {
                let vote = if hypothetical == predicted {
                    // The look-ahead oracle is the current one, which says "ok" on `p`.
                    false
                } else if self.committee_learns >= self.config.max_look_ahead_learns {
                    // Committee budget used up: the current oracle's "ok" stands.
                    return (None, tally);
                } else {
                    self.committee_learns += 1;
                    let extra = Example {
                        point: np.clone(),
                        bug: hypothetical,
                    };
                    match self.oracle.predict_with(&self.examples, &extra, &p) {
                        Some(v) => v,
                        // Learner budget used up: the current oracle's "ok" stands (the
                        // loop stops at the next candidate).
                        None if self.oracle.budget_exhausted() => return (None, tally),
                        None => {
                            self.learn_failures += 1;
                            true
                        }
                    }
                };
                tally.cast += 1;
                if vote {
                    tally.bug += 1;
                }
                if 2 * tally.bug >= votes {
                    let reason = AskReason::Committee {
                        bug_votes: tally.bug,
                        votes,
                    };
                    return (Some(reason), tally);
                }
                if 2 * (tally.cast - tally.bug) > votes {
                    return (None, tally);
                }
            }
        }
        (None, tally)
    }

    /// A mutant of `input` that differs from it (if the fuzzer finds one quickly).
    fn neighbour(&mut self, input: &[Num]) -> Vec<Num> {
        let mut n = self.fuzzer.mutate(input, &mut self.rng);
        for _ in 0..8 {
            if n != input {
                break;
            }
            n = self.fuzzer.mutate(input, &mut self.rng);
        }
        n
    }
}
