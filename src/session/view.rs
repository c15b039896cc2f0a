//! What the page shows of a session, as the worker sends it: the question on screen, the loop and its oracle, repair's progress, the patches, the question about them and the next steps.

use serde::{Deserialize, Serialize};

/// The question on screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryView {
    /// Input numbers, space-separated.
    pub input: String,
    /// What the program printed.
    pub output: String,
    /// How the run ended (normal, timeout, runtime error).
    pub status: String,
    /// Why it is asked, readable.
    pub reason: String,
    /// A warning about the run, readable: the undefined behaviour of C it went through
    /// (a sign that the input may be outside what the program was written for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// A labelled test, for the list and the plot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointView {
    /// Input numbers, space-separated.
    pub input: String,
    /// The program's output.
    pub output: String,
    /// The oracle's variables at this test (inputs, then the output value), for plotting.
    pub values: Vec<f64>,
    /// Labelled "bug".
    pub bug: bool,
    /// The correct output, when given.
    pub expected: Option<String>,
}

/// The active loop as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopView {
    /// The pending question (`None` when finished).
    pub query: Option<QueryView>,
    /// Why the loop ended, when it did.
    pub finished: Option<String>,
    /// Labels given (skips not counted).
    pub labels_used: usize,
    /// The label budget.
    pub label_budget: usize,
    /// Candidate tests generated so far.
    pub generated: usize,
    /// The current oracle, readable.
    pub formula: String,
    /// The oracle's variable names: the program's input names (or `x1 .. xn`), then the
    /// output (`out`).
    pub vars: Vec<String>,
    /// What output codes stand for (`2` = `invalid`, `-1000000001` = `timeout`), for the
    /// codes the labelled tests have, by code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub encoding: Vec<(i64, String)>,
    /// Labelled tests, the failing input first.
    pub points: Vec<PointView>,
    /// What to know about the failing input's own run before answering (it ran past the
    /// step limit), if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing_warning: Option<String>,
    /// Other formulas, no larger, that fit the answers as well as the oracle's (the
    /// answers have not settled where the bug is).
    #[serde(default)]
    pub alternatives: Vec<String>,
}

/// Counters of a running repair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairProgress {
    /// Candidate patches generated.
    pub candidates: u64,
    /// Test executions.
    pub executions: u64,
    /// Plausible patches (passing every labelled test) so far.
    pub plausible: usize,
    /// Cost of the cheapest plausible patch so far.
    pub best_cost: Option<u32>,
}

/// A test's output before and after a patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestChange {
    /// Input numbers.
    pub input: String,
    /// Output of the user's program.
    pub before: String,
    /// Output of the patched program.
    pub after: String,
    /// The patched program passes this test.
    pub passes: bool,
}

/// One patch, as the Patches region shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatchView {
    /// Unified-style diff of the user's program.
    pub diff: String,
    /// The patched program (Apply puts it into the editor).
    pub source: String,
    /// Syntactic cost.
    pub cost: u32,
    /// Labelled tests passed.
    pub passed: usize,
    /// Labelled tests in all.
    pub total: usize,
    /// Share of fresh fuzzed inputs on which the learned oracle accepts the patch.
    pub validation: Option<f64>,
    /// Fuzzed inputs the validation ran (fewer than planned when Stop cut it short).
    pub validated_inputs: usize,
    /// What was checked, in plain words ("Passes all 11 tests (the failing input and your
    /// 10 answers). Agrees with the learned oracle on 98 of 100 fresh inputs.").
    pub checks: String,
    /// Before and after per labelled test.
    pub changes: Vec<TestChange>,
}

/// One distinct answer the remaining patches give on a question's input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChoiceOptionView {
    /// What they print.
    pub output: String,
    /// How their runs end (normal exit, timeout, runtime error).
    pub status: String,
    /// The patches (1-based, as listed) that print it.
    pub patches: Vec<usize>,
}

/// A question that chooses between patches, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChoiceView {
    /// The input, space-separated numbers.
    pub input: String,
    /// The question in words ("for input 2 3 3 the patches print ...").
    pub text: String,
    /// What is asked after "For input X" ("the patches print different answers. Which
    /// is right?"): why this question, in words.
    #[serde(default)]
    pub ask: String,
    /// The distinct answers.
    pub options: Vec<ChoiceOptionView>,
    /// Why it is asked: `split`, `confirm`, `doubt`, `output` (the right output of a run
    /// you called a bug) or `boundary` (an input beside a boundary the patch moved).
    #[serde(default)]
    pub kind: String,
}

/// A step that would help where repair stopped short of a fix, offered as a button.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum NextStep {
    /// Say what the program should print on `input` (a run called a bug): one more
    /// question about patches.
    GiveOutput {
        /// The input, space-separated numbers.
        input: String,
    },
    /// Answer more questions about the patches (the question budget is spent).
    MoreQuestions,
    /// Label more runs: the loop goes on, then repair runs again.
    MoreLabels,
    /// Set the range of each input (none is set): the loop starts again within them.
    SetRanges,
}

impl NextStep {
    /// The button's words.
    pub fn label(&self) -> String {
        match self {
            NextStep::GiveOutput { input } => format!("Say what {input} should print"),
            NextStep::MoreQuestions => "Ask me more questions".to_string(),
            NextStep::MoreLabels => "Label more runs".to_string(),
            NextStep::SetRanges => "Set input ranges".to_string(),
        }
    }

    /// Why it would help, in one sentence.
    pub fn why(&self) -> &'static str {
        match self {
            NextStep::GiveOutput { .. } => {
                "Repair knows only that this output is wrong; the right one tells it what to aim for."
            }
            NextStep::MoreQuestions => {
                "Each answer rules out patches that print something else, or confirms the best one."
            }
            NextStep::MoreLabels => {
                "More labelled runs show more of the bug, so repair has more to check patches against."
            }
            NextStep::SetRanges => {
                "Inputs the program is not meant for can make every patch look wrong; ranges keep the questions to valid inputs."
            }
        }
    }
}

/// The repair phase as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairView {
    /// The patches still in the running, best first.
    pub patches: Vec<PatchView>,
    /// Why the latest search ended, readable.
    pub stop: String,
    /// What is known and what is still open, in plain words.
    pub verdict: String,
    /// Patch 1 is called the fix: the patches left print the same on every input
    /// checked, the boundaries it moved were asked, and the right output on the failing
    /// input is known ([`crate::repair::choose::PatchChooser::claims_fix`]).
    pub settled: bool,
    /// The next question that chooses between patches.
    pub choice: Option<ChoiceView>,
    /// Questions answered.
    pub questions_used: usize,
    /// Of those, questions that asked the right output of a run called a bug.
    #[serde(default)]
    pub outputs_asked: usize,
    /// The question budget.
    pub question_budget: usize,
    /// Searches run (1 + those after answers ruled every patch out).
    pub repairs: usize,
    /// What would help next, when repair ended without a confirmed fix (best first).
    #[serde(default)]
    pub next_steps: Vec<NextStep>,
}
