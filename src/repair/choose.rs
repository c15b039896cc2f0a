//! Questions that choose between plausible patches: an input on which they print different answers, the user's answer a new test that prunes them, and a new search when none is left.
//!
//! A test-only repair tool cannot tell the right patch from plausible wrong ones; the
//! person in fixloop's loop can. [`PatchChooser`] runs repair, fuzzes fresh inputs
//! around the tests' inputs, runs every remaining patch on each, and asks about the input
//! that splits the remaining patches most evenly (ties to the smaller input): "for input
//! `2 3 3` the patches print `isosceles` (patches 1, 3) or `equilateral` (patch 2); which
//! is right?". An answer becomes a test with that expected output and removes the
//! patches that print something else; when none is left, repair runs again with the new
//! tests. It stops when the remaining patches agree on every input checked, or the
//! question budget is spent. Everything is deterministic given the repair's seed.

use std::collections::HashSet;
use std::fmt;

use super::validate::fuzz_around;
use super::{
    repair_with_progress, Control, Expectation, LearnedOracle, Progress, RankedPatch, RepairConfig,
    RepairReport, RepairTest,
};
use crate::active::num::{format_input, key, NumKey};
use crate::active::program::status_of;
use crate::active::Status;
use crate::compare::{normalize, outputs_match};
use crate::lang::{compile, Limits, Num, Program};

/// Answers that keep the remaining patches' output where the learned oracle calls it a
/// bug after which no more such questions are asked: the oracle is then wrong there, and
/// the user has shown the patch holds where it was most in doubt.
pub const UPHELD_DOUBTS: usize = 2;

/// Settings of the questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChooseConfig {
    /// Questions answered at most (a skipped question spends none). Default 5.
    pub questions: usize,
    /// Fresh inputs fuzzed (around the tests' inputs, with the repair's fuzzer
    /// settings, each number with a sign the tests have at its position) after each
    /// search, on which the remaining patches are compared. Default 200.
    pub inputs: usize,
    /// Most steps the runs on those inputs (the program as it is and every patch) may
    /// take after one search; past it the inputs checked so far are all there is. A slow
    /// program (a loop as long as its input) would otherwise make its user wait minutes
    /// after repair. Default 200 000 000 (about two seconds natively).
    pub max_check_steps: u64,
}

impl Default for ChooseConfig {
    fn default() -> Self {
        ChooseConfig {
            questions: 5,
            inputs: 200,
            max_check_steps: 200_000_000,
        }
    }
}

/// One distinct answer the remaining patches give on a question's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceOption {
    /// What those patches print (the first one's output).
    pub output: String,
    /// How their runs end.
    pub status: Status,
    /// The patches that print it: positions in [`PatchChooser::patches`], ascending;
    /// empty for the program as it is (listed when no patch prints what it prints).
    pub patches: Vec<usize>,
}

impl ChoiceOption {
    /// Who prints it: "patch 2", "patches 1, 3", "the program as it is".
    pub fn who(&self) -> String {
        let which: Vec<String> = self.patches.iter().map(|p| (p + 1).to_string()).collect();
        match which.len() {
            0 => "the program as it is".to_string(),
            1 => format!("patch {}", which[0]),
            _ => format!("patches {}", which.join(", ")),
        }
    }
}

/// Why a question is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionKind {
    /// The remaining patches print different answers on its input.
    Split,
    /// They agree, and change what the program prints on this new input: is the change
    /// right?
    Confirm,
    /// They agree, but the learned oracle calls their output on this input a bug: do
    /// they fix the whole bug?
    Doubt,
}

impl QuestionKind {
    /// What the question says after "For input X": "the patches print different
    /// answers. Which is right?".
    pub fn ask(self) -> &'static str {
        match self {
            QuestionKind::Split => "the patches print different answers. Which is right?",
            QuestionKind::Confirm => {
                "the patch changes what your program prints. Which answer is right?"
            }
            QuestionKind::Doubt => {
                "the learned bug oracle still calls the patch's answer a bug. Which answer is right?"
            }
        }
    }
}

/// A question: which of the patches' answers on `input` is right?
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceQuestion {
    /// The input.
    pub input: Vec<Num>,
    /// The distinct answers, in the order of the first patch giving each.
    pub options: Vec<ChoiceOption>,
    /// Why it is asked.
    pub kind: QuestionKind,
}

impl fmt::Display for ChoiceQuestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "for input {} the patches print ",
            format_input(&self.input)
        )?;
        for (i, o) in self.options.iter().enumerate() {
            if i > 0 {
                write!(f, " or ")?;
            }
            write!(f, "{:?} ({})", o.output.trim(), o.who())?;
        }
        write!(f, ": which is right?")
    }
}

/// The user's answer to a [`ChoiceQuestion`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceAnswer {
    /// The right output for the input: one of the options' outputs, or another one typed
    /// ("none of these").
    Output(String),
    /// The user cannot tell (or the input is not a valid one): the input is not asked
    /// again and no question is spent.
    Skip,
}

/// Why no question is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChooseStop {
    /// The remaining patches print the same on every input checked (or one is left).
    OneBehaviour,
    /// The question budget is spent while patches still disagree.
    QuestionBudget,
    /// The question budget is spent before anyone confirmed the remaining patches'
    /// change on an input they were not made for.
    Unconfirmed,
    /// The remaining patches disagree only on inputs the user skipped.
    Skipped,
    /// No plausible patch: repair found none (after the answers, if any).
    NoPatch,
    /// The question budget is spent while the learned oracle still calls the remaining
    /// patches' output a bug on some checked input nobody was asked about.
    Doubted,
}

impl fmt::Display for ChooseStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ChooseStop::OneBehaviour => "the remaining patches agree on every input checked",
            ChooseStop::QuestionBudget => "the question budget is spent",
            ChooseStop::Unconfirmed => "the question budget is spent before a change was confirmed",
            ChooseStop::Skipped => "the patches disagree only on skipped inputs",
            ChooseStop::NoPatch => "no plausible patch",
            ChooseStop::Doubted => {
                "the question budget is spent while the learned oracle still doubts the patch"
            }
        })
    }
}

/// What to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum ChooseStep {
    /// Ask this.
    Ask(ChoiceQuestion),
    /// Nothing to ask.
    Done(ChooseStop),
}

/// An answer that does not fit the question asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChooseError {
    /// No question is pending.
    #[error("no question is pending")]
    NoQuestion,
    /// The answer is about another input than the question asked.
    #[error("the answer is about input {given}, the question is about {asked}")]
    OtherInput {
        /// The input of the answer.
        given: String,
        /// The input asked about.
        asked: String,
    },
}

/// How one patched program ran on one checked input.
#[derive(Debug, Clone)]
struct Run {
    status: Status,
    /// The extracted answer, normalised for comparison.
    answer: Option<String>,
    stdout: String,
    /// Ended normally without undefined behaviour of C.
    clean: bool,
}

impl Run {
    fn same(&self, other: &Run) -> bool {
        self.status == other.status && self.answer == other.answer
    }
}

/// A patch still in the running, with its runs on the checked inputs.
struct Contender {
    /// Its index in the current repair report's patches.
    patch: usize,
    alive: bool,
    runs: Vec<Run>,
}

/// How many disagree, of how many checked (see [`PatchChooser::disagreement`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Disagreement {
    /// Checked inputs on which the remaining patches do not all print the same.
    pub inputs: usize,
    /// Inputs checked.
    pub checked: usize,
}

/// Repair with questions that choose between its plausible patches; see the module docs.
pub struct PatchChooser {
    source: String,
    /// The program as it is (`None` when it does not compile).
    program: Option<Program>,
    base: Vec<RepairTest>,
    oracle: Option<LearnedOracle>,
    repair: RepairConfig,
    config: ChooseConfig,
    /// The answered questions as tests, in order.
    answered: Vec<RepairTest>,
    /// Inputs asked (answered or skipped).
    asked: HashSet<Vec<NumKey>>,
    questions_used: usize,
    repairs: usize,
    report: RepairReport,
    checked: Vec<Vec<Num>>,
    contenders: Vec<Contender>,
    /// The program as it is, on the checked inputs.
    original: Vec<Run>,
    /// An answer of this search picked the remaining patches' output over the program's.
    confirmed: bool,
    /// Answers of this search that kept the remaining patches' output on an input where
    /// the learned oracle calls it a bug.
    upheld: usize,
    /// The signs of the tests' numbers.
    signs: Signs,
    limits: Limits,
}

impl PatchChooser {
    /// Repairs `source` with `tests` and `oracle` (see [`repair_with_progress`]) and gets
    /// ready to ask.
    pub fn start(
        source: &str,
        tests: &[RepairTest],
        oracle: Option<&LearnedOracle>,
        repair: &RepairConfig,
        config: &ChooseConfig,
        progress: &mut dyn FnMut(&Progress) -> Control,
    ) -> PatchChooser {
        let program = compile(source).ok();
        let limits = run_limits(program.as_ref(), tests, &repair.limits);
        let mut chooser = PatchChooser {
            source: source.to_string(),
            program,
            base: tests.to_vec(),
            oracle: oracle.cloned(),
            repair: repair.clone(),
            config: config.clone(),
            answered: Vec::new(),
            asked: HashSet::new(),
            questions_used: 0,
            repairs: 0,
            report: super::empty_report(),
            checked: Vec::new(),
            contenders: Vec::new(),
            original: Vec::new(),
            confirmed: false,
            upheld: 0,
            signs: Signs::default(),
            limits,
        };
        chooser.search(progress);
        chooser
    }

    /// The latest repair's report (its patches include those ruled out since).
    pub fn report(&self) -> &RepairReport {
        &self.report
    }

    /// The patches still in the running, best first.
    pub fn patches(&self) -> Vec<&RankedPatch> {
        self.alive()
            .map(|c| &self.report.patches[c.patch])
            .collect()
    }

    /// The tests the latest repair had: the given ones, then the answered questions.
    pub fn tests(&self) -> Vec<RepairTest> {
        self.base.iter().chain(&self.answered).cloned().collect()
    }

    /// Questions answered (skips not counted).
    pub fn questions_used(&self) -> usize {
        self.questions_used
    }

    /// Repairs run (1 + the searches after answers ruled every patch out).
    pub fn repairs(&self) -> usize {
        self.repairs
    }

    /// Whether an answer of the latest search picked the remaining patches' output over
    /// the program's own.
    pub fn confirmed(&self) -> bool {
        self.confirmed
    }

    /// The question budget.
    pub fn question_budget(&self) -> usize {
        self.config.questions
    }

    /// Answers of the latest search that kept the remaining patches' output where the
    /// learned oracle called it a bug.
    pub fn upheld(&self) -> usize {
        self.upheld
    }

    /// Checked inputs on which the learned oracle calls the top remaining patch's output
    /// a bug (0 without an oracle or a patch).
    pub fn doubted(&self) -> usize {
        self.alive().next().map_or(0, |top| {
            (0..self.checked.len())
                .filter(|&k| self.oracle_flags(k, &top.runs[k]))
                .count()
        })
    }

    /// Whether repair has a learned oracle.
    pub fn has_oracle(&self) -> bool {
        self.oracle.is_some()
    }

    /// Distinct behaviours of the remaining patches on the checked inputs.
    pub fn behaviours(&self) -> usize {
        let mut seen: Vec<&Contender> = Vec::new();
        for c in self.alive() {
            let same = |d: &&Contender| c.runs.iter().zip(&d.runs).all(|(x, y)| x.same(y));
            if !seen.iter().any(same) {
                seen.push(c);
            }
        }
        seen.len()
    }

    /// On how many of the checked inputs the remaining patches disagree.
    pub fn disagreement(&self) -> Disagreement {
        let alive: Vec<&Contender> = self.alive().collect();
        let inputs = (0..self.checked.len())
            .filter(|&k| alive.iter().any(|c| !c.runs[k].same(&alive[0].runs[k])))
            .count();
        Disagreement {
            inputs,
            checked: self.checked.len(),
        }
    }

    /// The next question, or why there is none: an input that splits the remaining
    /// patches; or, when they all print the same but no answer has yet picked their
    /// output over the program's own on a new input, an input where they change what the
    /// program prints (one patch found alone is not yet a fix anyone confirmed); or,
    /// after that, an input where the learned oracle still calls their output a bug (a
    /// patch that fixes only part of the bug shows there), until the user has upheld
    /// their output on [`UPHELD_DOUBTS`] such inputs.
    pub fn next(&self) -> ChooseStep {
        let alive: Vec<(usize, &Contender)> = self.alive().enumerate().collect();
        if alive.is_empty() {
            return ChooseStep::Done(ChooseStop::NoPatch);
        }
        let mut best: Option<(Score, usize)> = None;
        let mut kind = QuestionKind::Split;
        let mut disagree_asked = false;
        for (k, input) in self.checked.iter().enumerate() {
            let groups = groups(&alive, k);
            if groups.len() < 2 {
                continue;
            }
            if self.was_asked(input) {
                disagree_asked = true;
                continue;
            }
            let score = Score::of(&alive, &groups, k, input, &self.original[k]);
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, k));
            }
        }
        if best.is_none() && disagree_asked {
            return ChooseStep::Done(ChooseStop::Skipped);
        }
        if best.is_none() && !self.confirmed {
            kind = QuestionKind::Confirm;
            // Of the inputs where the patches change what the program prints, first those
            // where the learned oracle calls the program's own output right: a change
            // there is the one most likely wrong, so its answer tells the most.
            best = (0..self.checked.len())
                .filter(|&k| !self.was_asked(&self.checked[k]))
                .filter(|&k| !alive[0].1.runs[k].same(&self.original[k]))
                .map(|k| {
                    let groups = groups(&alive, k);
                    let score = Score::of(&alive, &groups, k, &self.checked[k], &self.original[k]);
                    ((self.oracle_flags_original(k), score), k)
                })
                .min_by(|x, y| {
                    let ((fx, sx), (fy, sy)) = (&x.0, &y.0);
                    fx.cmp(fy)
                        .then(sx.partial_cmp(sy).unwrap_or(std::cmp::Ordering::Equal))
                })
                .map(|((_, score), k)| (score, k));
        }
        if best.is_none() && self.upheld < UPHELD_DOUBTS {
            kind = QuestionKind::Doubt;
            best = (0..self.checked.len())
                .filter(|&k| !self.was_asked(&self.checked[k]))
                .filter(|&k| self.oracle_flags(k, &alive[0].1.runs[k]))
                .map(|k| {
                    let groups = groups(&alive, k);
                    let score = Score::of(&alive, &groups, k, &self.checked[k], &self.original[k]);
                    (score, k)
                })
                // The first clean run in the fuzzer's (seeded, random) order, not the
                // smallest input: small inputs cluster where the tests already are, and
                // a patch that fixes part of the bug is more often right there.
                .min_by_key(|(score, k)| (score.unclean, *k));
        }
        let Some((_, k)) = best else {
            return ChooseStep::Done(ChooseStop::OneBehaviour);
        };
        if self.questions_used >= self.config.questions {
            return ChooseStep::Done(match kind {
                QuestionKind::Split => ChooseStop::QuestionBudget,
                QuestionKind::Confirm => ChooseStop::Unconfirmed,
                QuestionKind::Doubt => ChooseStop::Doubted,
            });
        }
        let mut options: Vec<ChoiceOption> = groups(&alive, k)
            .into_iter()
            .map(|members| {
                let first = &alive[members[0]].1.runs[k];
                ChoiceOption {
                    output: first.stdout.clone(),
                    status: first.status,
                    patches: members,
                }
            })
            .collect();
        let original = &self.original[k];
        if !alive.iter().any(|(_, c)| c.runs[k].same(original)) {
            options.push(ChoiceOption {
                output: original.stdout.clone(),
                status: original.status,
                patches: Vec::new(),
            });
        }
        ChooseStep::Ask(ChoiceQuestion {
            input: self.checked[k].clone(),
            options,
            kind,
        })
    }

    /// Applies the answer to the pending question about `input`: a right output prunes
    /// the patches that print another (and, when none is left, repairs again with it as
    /// a test, reporting through `progress`); a skip sets the input aside.
    pub fn answer(
        &mut self,
        input: &[Num],
        answer: ChoiceAnswer,
        progress: &mut dyn FnMut(&Progress) -> Control,
    ) -> Result<(), ChooseError> {
        let ChooseStep::Ask(question) = self.next() else {
            return Err(ChooseError::NoQuestion);
        };
        if question.input != input {
            return Err(ChooseError::OtherInput {
                given: format_input(input),
                asked: format_input(&question.input),
            });
        }
        self.asked.insert(input.iter().map(key).collect());
        let ChoiceAnswer::Output(right) = answer else {
            return Ok(());
        };
        self.questions_used += 1;
        let k = self
            .checked
            .iter()
            .position(|c| c == input)
            .unwrap_or_default();
        let doubted = self
            .alive()
            .next()
            .is_some_and(|top| self.oracle_flags(k, &top.runs[k]));
        let right_run = |r: &Run| {
            r.status == Status::Normal
                && r.answer
                    .as_deref()
                    .is_some_and(|a| outputs_match(a, &right))
        };
        for c in self.contenders.iter_mut().filter(|c| c.alive) {
            c.alive = right_run(&c.runs[k]);
        }
        if self.alive().next().is_some() {
            self.confirmed |= !right_run(&self.original[k]);
            self.upheld += usize::from(doubted);
        }
        self.answered.push(RepairTest {
            input: input.to_vec(),
            expect: Expectation::Output(right),
        });
        if self.alive().next().is_none() {
            self.search(progress);
        }
        Ok(())
    }

    fn alive(&self) -> impl Iterator<Item = &Contender> {
        self.contenders.iter().filter(|c| c.alive)
    }

    /// Whether the learned oracle flags the program's own run on checked input `k` as a
    /// bug (`true` without an oracle: nothing says the output is right).
    fn oracle_flags_original(&self, k: usize) -> bool {
        self.oracle.is_none() || self.oracle_flags(k, &self.original[k])
    }

    /// Whether the learned oracle calls `run` on checked input `k` a bug (`false`
    /// without an oracle).
    fn oracle_flags(&self, k: usize, run: &Run) -> bool {
        self.oracle.as_ref().is_some_and(|o| {
            let answer = self.repair.extractor.answer(&run.stdout);
            o.flags(&self.checked[k], run.status, answer.as_deref())
        })
    }

    fn was_asked(&self, input: &[Num]) -> bool {
        self.asked
            .contains(&input.iter().map(key).collect::<Vec<_>>())
    }

    /// Repairs with every test so far, then checks the patches on fresh inputs.
    fn search(&mut self, progress: &mut dyn FnMut(&Progress) -> Control) {
        let tests = self.tests();
        self.report = repair_with_progress(
            &self.source,
            &tests,
            self.oracle.as_ref(),
            &self.repair,
            progress,
        );
        self.repairs += 1;
        let seeds: Vec<&[Num]> = tests.iter().map(|t| &t.input[..]).collect();
        let round_seed =
            self.repair.seed ^ (0x6368_6f6f_7365_u64.wrapping_add(self.repairs as u64));
        // Fresh inputs whose numbers have the signs the tests have at their positions: a
        // negative count where every test has a positive one is an input the program is
        // likely not for, which the user could only skip.
        self.signs = Signs::of(&tests);
        let signs = &self.signs;
        self.checked = fuzz_around(
            &seeds,
            &self.repair.fuzz,
            4 * self.config.inputs,
            round_seed,
        )
        .into_iter()
        .filter(|input| signs.familiar(input))
        .take(self.config.inputs)
        .collect();
        self.confirmed = false;
        self.upheld = 0;
        self.check(progress);
    }

    /// Runs the program as it is and every patch of the latest report on the checked
    /// inputs, one input at a time, until the runs have taken
    /// [`ChooseConfig::max_check_steps`] steps or `progress` says stop; the inputs not
    /// reached are dropped.
    fn check(&mut self, progress: &mut dyn FnMut(&Progress) -> Control) {
        let extractor = &self.repair.extractor;
        let limits = &self.limits;
        let programs: Vec<(usize, Program)> = self
            .report
            .patches
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((i, compile(&p.patched_source).ok()?)))
            .collect();
        self.original = Vec::new();
        self.contenders = programs
            .iter()
            .map(|&(patch, _)| Contender {
                patch,
                alive: true,
                runs: Vec::new(),
            })
            .collect();
        let patches = &self.report.patches;
        let best_cost = patches.iter().map(|p| p.cost).min();
        let mut snapshot = self.report.stats.progress(patches.len(), best_cost);
        let runs_per_input = u64::from(self.program.is_some()) + programs.len() as u64;
        let mut steps = 0u64;
        let mut reached = 0;
        for input in &self.checked {
            if steps >= self.config.max_check_steps || progress(&snapshot) == Control::Stop {
                break;
            }
            if let Some(program) = &self.program {
                let (r, used) = run(program, input, limits, extractor);
                self.original.push(r);
                steps = steps.saturating_add(used);
            }
            for (c, (_, program)) in self.contenders.iter_mut().zip(&programs) {
                let (r, used) = run(program, input, limits, extractor);
                c.runs.push(r);
                steps = steps.saturating_add(used);
            }
            snapshot.test_executions += runs_per_input;
            reached += 1;
        }
        self.checked.truncate(reached);
    }
}

/// Runs `program` on `input` and reads its answer; with the steps the run took.
fn run(
    program: &Program,
    input: &[Num],
    limits: &Limits,
    extractor: &crate::corpus::AnswerExtractor,
) -> (Run, u64) {
    let exec = program.run_test(input, limits);
    let stdout = String::from_utf8_lossy(&exec.stdout).into_owned();
    let status = status_of(&exec.outcome);
    let run = Run {
        status,
        answer: extractor.answer(&stdout).map(|a| normalize(&a)),
        clean: exec.exited() && exec.undefined.is_none(),
        stdout,
    };
    (run, exec.steps)
}

/// The limits of the patches' runs on checked inputs: `limits` with the fuel cut to 10x
/// what the original program needs on the tests (at least 100 000), as repair's own
/// test runs are, so a patch that loops does not hold up the questions.
fn run_limits(program: Option<&Program>, tests: &[RepairTest], limits: &Limits) -> Limits {
    let steps = program.map_or(0, |p| {
        tests
            .iter()
            .map(|t| p.run_test(&t.input, limits).steps)
            .max()
            .unwrap_or(0)
    });
    Limits {
        fuel: limits.fuel.min(steps.saturating_mul(10).max(100_000)),
        ..limits.clone()
    }
}

/// The alive patches grouped by what they print on checked input `k`: positions in
/// `alive`, groups in the order of their first member.
fn groups(alive: &[(usize, &Contender)], k: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, (_, c)) in alive.iter().enumerate() {
        match out
            .iter_mut()
            .find(|g| alive[g[0]].1.runs[k].same(&c.runs[k]))
        {
            Some(g) => g.push(i),
            None => out.push(vec![i]),
        }
    }
    out
}

/// The signs each input position has in the tests: a question about a negative number
/// where every test has a non-negative one (a count, a length) is often about an input
/// the program is not for, which the user can only skip.
#[derive(Debug, Clone, Default)]
struct Signs {
    /// Per position: (some test has a negative value, some test has a non-negative one).
    seen: Vec<(bool, bool)>,
}

impl Signs {
    fn of(tests: &[RepairTest]) -> Signs {
        let mut seen: Vec<(bool, bool)> = Vec::new();
        for t in tests {
            for (i, n) in t.input.iter().enumerate() {
                if seen.len() <= i {
                    seen.resize(i + 1, (false, false));
                }
                if n.as_f64() < 0.0 {
                    seen[i].0 = true;
                } else {
                    seen[i].1 = true;
                }
            }
        }
        Signs { seen }
    }

    /// Whether every number of `input` has a sign the tests show at its position.
    fn familiar(&self, input: &[Num]) -> bool {
        input.iter().enumerate().all(|(i, n)| {
            self.seen
                .get(i)
                .is_none_or(|&(neg, nonneg)| if n.as_f64() < 0.0 { neg } else { nonneg })
        })
    }
}

/// How good a question an input makes (smaller is better): every patch's run and the
/// program's own end normally without undefined behaviour first, then the most even split (the smallest
/// largest group, then the most groups), then the smaller input.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
struct Score {
    unclean: bool,
    largest_group: usize,
    fewer_groups: std::cmp::Reverse<usize>,
    magnitude: f64,
    text: String,
}

impl Score {
    fn of(
        alive: &[(usize, &Contender)],
        groups: &[Vec<usize>],
        k: usize,
        input: &[Num],
        original: &Run,
    ) -> Score {
        Score {
            unclean: !original.clean || alive.iter().any(|(_, c)| !c.runs[k].clean),
            largest_group: groups.iter().map(Vec::len).max().unwrap_or(0),
            fewer_groups: std::cmp::Reverse(groups.len()),
            magnitude: input.iter().map(|n| n.as_f64().abs()).sum(),
            text: format_input(input),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::tests::parse_tests;

    const BUGGY: &str =
        "int f(int a, int b) {\n    if (a < b)\n        return a;\n    return b;\n}\n";
    const MAX: &str =
        "int f(int a, int b) {\n    if (a > b)\n        return a;\n    return b;\n}\n";

    fn right(input: &[Num]) -> String {
        let p = compile(MAX).unwrap();
        String::from_utf8_lossy(&p.run_test(input, &Limits::default()).stdout).into_owned()
    }

    fn start(questions: usize) -> PatchChooser {
        start_with(ChooseConfig {
            questions,
            inputs: 100,
            ..ChooseConfig::default()
        })
    }

    fn start_with(config: ChooseConfig) -> PatchChooser {
        // Two tests leave many plausible patches that differ elsewhere.
        let tests = parse_tests("1 2 => 2\n3 3 => 3\n").unwrap();
        PatchChooser::start(
            BUGGY,
            &tests,
            None,
            &RepairConfig::default(),
            &config,
            &mut |_| Control::Continue,
        )
    }

    #[test]
    fn the_runs_on_fresh_inputs_stop_at_their_step_budget() {
        let all = start(5);
        assert_eq!(all.disagreement().checked, 100);
        // Each run of this program takes a few steps: a budget of 60 stops after some
        // inputs, with the program as it is and every patch run on each input kept.
        let cut = start_with(ChooseConfig {
            questions: 5,
            inputs: 100,
            max_check_steps: 60,
        });
        let checked = cut.disagreement().checked;
        assert!((1..10).contains(&checked), "{checked}");
        assert_eq!(cut.patches().len(), all.patches().len());
        assert!(cut.contenders.iter().all(|c| c.runs.len() == checked));
        assert_eq!(cut.original.len(), checked);
        // The check reports its runs as test executions past the repair's: a hook that
        // says stop after three inputs' runs leaves three inputs checked.
        let tests = parse_tests("1 2 => 2\n3 3 => 3\n").unwrap();
        let per_input = 1 + all.contenders.len() as u64;
        let stop_at = all.report().stats.test_executions + 3 * per_input;
        let stopped = PatchChooser::start(
            BUGGY,
            &tests,
            None,
            &RepairConfig::default(),
            &ChooseConfig::default(),
            &mut |p| {
                if p.test_executions >= stop_at {
                    Control::Stop
                } else {
                    Control::Continue
                }
            },
        );
        assert_eq!(stopped.disagreement().checked, 3);
    }

    #[test]
    fn questions_split_the_patches_and_answers_prune_them() {
        let mut chooser = start(5);
        assert!(chooser.patches().len() > 1, "several plausible patches");
        let ChooseStep::Ask(q) = chooser.next() else {
            panic!("a question: {:?}", chooser.next())
        };
        assert!(q.options.len() >= 2, "{q}");
        let outputs: Vec<&String> = q.options.iter().map(|o| &o.output).collect();
        let distinct: HashSet<&String> = outputs.iter().copied().collect();
        assert_eq!(distinct.len(), outputs.len(), "distinct outputs: {q}");
        // An answer about another input is refused.
        let other = vec![Num::Int(12345), Num::Int(-7)];
        assert!(matches!(
            chooser.answer(&other, ChoiceAnswer::Skip, &mut |_| Control::Continue),
            Err(ChooseError::OtherInput { .. })
        ));
        // A skip spends no question and the input is not asked again.
        chooser
            .answer(&q.input, ChoiceAnswer::Skip, &mut |_| Control::Continue)
            .unwrap();
        assert_eq!(chooser.questions_used(), 0);
        if let ChooseStep::Ask(next) = chooser.next() {
            assert_ne!(next.input, q.input);
        }
        let before = chooser.patches().len();
        while let ChooseStep::Ask(q) = chooser.next() {
            let answer = ChoiceAnswer::Output(right(&q.input));
            chooser
                .answer(&q.input, answer, &mut |_| Control::Continue)
                .unwrap();
        }
        assert!(chooser.questions_used() >= 1);
        assert!(chooser.questions_used() <= 5);
        assert!(chooser.patches().len() < before || chooser.repairs() > 1);
        // The patch left on top computes the maximum on fresh inputs.
        let top = compile(&chooser.patches()[0].patched_source).unwrap();
        for (a, b) in [(9, -4), (-3, 8), (0, 0), (100, 99)] {
            let input = [Num::Int(a), Num::Int(b)];
            let got = String::from_utf8_lossy(&top.run_test(&input, &Limits::default()).stdout)
                .into_owned();
            assert_eq!(got, right(&input), "{a} {b}");
        }
    }

    #[test]
    fn the_budget_ends_the_questions_with_a_typed_stop() {
        let chooser = start(0);
        assert_eq!(chooser.next(), ChooseStep::Done(ChooseStop::QuestionBudget));
        assert!(chooser.disagreement().inputs > 0);
    }

    #[test]
    fn an_answer_no_patch_prints_searches_again_with_it_as_a_test() {
        let mut chooser = start(5);
        let ChooseStep::Ask(q) = chooser.next() else {
            panic!("a question")
        };
        let typed = "-424242\n".to_string();
        chooser
            .answer(&q.input, ChoiceAnswer::Output(typed.clone()), &mut |_| {
                Control::Continue
            })
            .unwrap();
        assert_eq!(chooser.repairs(), 2);
        let last = chooser.tests().last().cloned().unwrap();
        assert_eq!(last.expect, Expectation::Output(typed));
        for p in chooser.patches() {
            let prog = compile(&p.patched_source).unwrap();
            let out = prog.run_test(&q.input, &Limits::default()).stdout;
            assert!(outputs_match(&String::from_utf8_lossy(&out), "-424242"));
        }
    }
}
