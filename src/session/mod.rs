//! The playground session: one versioned, serialisable value of everything a user did, with its share-link codec and exact replay.
//!
//! [`Session`] holds the program, the failing input, the settings (label budget,
//! committee size, seed) and every answer in order. [`codec`] turns it into a URL
//! fragment (JSON, deflate, base64url) and back under hard limits ([`limits`]),
//! [`migrate`] reads older versions, and [`replay`] rebuilds the active loop from it:
//! the same seed and the same answers give the same generated tests and the same oracle.
//! [`protocol`] is what the page and its worker say to each other.

pub mod autopilot;
pub mod codec;
pub mod error;
pub mod examples;
pub mod migrate;
pub mod protocol;
pub mod repair_phase;
pub mod replay;
pub mod run;
pub mod view;

use serde::{Deserialize, Serialize};

pub use codec::{decode_json, decode_link, encode_json, encode_json_checked, encode_link};
pub use error::SessionError;
pub use replay::{ReplayError, Replayer};

/// The session format written today (2: the fuzzer setting, questions that choose between
/// patches and their answers).
pub const CURRENT_VERSION: u32 = 2;

/// Hard limits on what a session (from storage, a file or a link) may hold.
pub mod limits {
    /// Longest URL fragment accepted (characters after `#s=`).
    pub const MAX_LINK_CHARS: usize = 96 * 1024;
    /// Largest session JSON accepted (bytes), also the inflate limit for links.
    pub const MAX_JSON_BYTES: usize = 256 * 1024;
    /// Longest program (bytes).
    pub const MAX_PROGRAM_BYTES: usize = 64 * 1024;
    /// Longest single text field other than the program (input, expected output).
    pub const MAX_TEXT_BYTES: usize = 4 * 1024;
    /// Most answers in one session.
    pub const MAX_ANSWERS: usize = 1000;
    /// Most per-input ranges.
    pub const MAX_RANGES: usize = 64;
    /// Largest label budget.
    pub const MAX_LABEL_BUDGET: usize = 200;
    /// Largest committee size.
    pub const MAX_COMMITTEE: usize = 50;
    /// Largest question budget for choosing between patches.
    pub const MAX_QUESTIONS: usize = 50;
    /// Largest pool of plausible patches a repair search collects.
    pub const MAX_PATCH_POOL: usize = 200;
}

/// An inclusive range for one input position.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InputRange {
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
}

impl From<InputRange> for crate::active::Range {
    fn from(r: InputRange) -> Self {
        crate::active::Range {
            min: r.min,
            max: r.max,
        }
    }
}

/// Which fuzzer makes the loop's candidate tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Fuzzer {
    /// Around the failing input: small and large steps, sign flips, type limits, the
    /// program's constants ([`crate::active::FuzzProfile::Neighbourhood`]).
    #[default]
    Neighbourhood,
    /// Learn2fix's stacked operators ([`crate::active::FuzzProfile::Classic`]): what
    /// sessions and exercises made before the setting existed were made with.
    Classic,
}

impl Fuzzer {
    /// The fuzzer of settings written without the field (before it existed).
    fn unrecorded() -> Fuzzer {
        Fuzzer::Classic
    }

    fn is_unrecorded(&self) -> bool {
        *self == Fuzzer::unrecorded()
    }

    /// The active loop's fuzzer profile.
    pub fn profile(self) -> crate::active::FuzzProfile {
        match self {
            Fuzzer::Neighbourhood => crate::active::FuzzProfile::Neighbourhood,
            Fuzzer::Classic => crate::active::FuzzProfile::Classic,
        }
    }
}

/// How the loop and repair ask. A session keeps the behaviour it was made with, so a
/// link replays as made: settings written before the field mean [`Asking::Legacy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Asking {
    /// As sessions were asked before outputs were asked when needed: no question about
    /// the right output of a run, no boundary questions, "the fix" once the patches
    /// agree.
    Legacy,
    /// As a person at the page is asked: the right output of a run called a bug only
    /// when repair needs it, the inputs beside every boundary the top patch moved before
    /// it is called the fix, and the oracle's doubts only where it tells outputs apart.
    #[default]
    Person,
}

impl Asking {
    fn unrecorded() -> Asking {
        Asking::Legacy
    }

    fn is_unrecorded(&self) -> bool {
        *self == Asking::unrecorded()
    }
}

/// The question budget of settings written without the field.
fn default_questions() -> usize {
    DEFAULT_QUESTIONS
}

fn is_default_questions(n: &usize) -> bool {
    *n == DEFAULT_QUESTIONS
}

/// Questions that choose between patches, by default.
pub const DEFAULT_QUESTIONS: usize = 5;

/// Plausible patches a search collects before it stops, by default: the engines' own
/// default. Questions can then choose among patches that come after the cheapest
/// plausible ones; with 10, a search often stopped at ten cheap plausible but wrong
/// patches before reaching the right one.
pub const DEFAULT_PATCH_POOL: usize = 40;

/// The pool of settings written without the field (before it existed).
const UNRECORDED_PATCH_POOL: usize = 10;

fn unrecorded_patch_pool() -> usize {
    UNRECORDED_PATCH_POOL
}

fn is_unrecorded_patch_pool(n: &usize) -> bool {
    *n == UNRECORDED_PATCH_POOL
}

/// The loop's settings as the user chose them. [`Settings::default`] is what the page,
/// share links without other settings and `fixloop eval` use. Fields added later are
/// left out of the JSON at the value older settings mean, so old sessions and exercises
/// keep their JSON (and an exercise its id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Questions asked before the loop stops.
    pub label_budget: usize,
    /// Neighbours per committee decision (2 look-ahead oracles each).
    pub committee: usize,
    /// Seed of all randomness (fuzzer and committee): the same seed replays the same.
    pub seed: u64,
    /// The fuzzer (settings written before the field: [`Fuzzer::Classic`]).
    #[serde(
        default = "Fuzzer::unrecorded",
        skip_serializing_if = "Fuzzer::is_unrecorded"
    )]
    pub fuzzer: Fuzzer,
    /// Questions that choose between plausible patches, at most (0: none).
    #[serde(
        default = "default_questions",
        skip_serializing_if = "is_default_questions"
    )]
    pub questions: usize,
    /// Plausible patches a repair search collects before it stops (and validates on
    /// fresh inputs); settings written before the field: 10.
    #[serde(
        default = "unrecorded_patch_pool",
        skip_serializing_if = "is_unrecorded_patch_pool"
    )]
    pub patch_pool: usize,
    /// How the loop and repair ask (settings written before the field:
    /// [`Asking::Legacy`]).
    #[serde(
        default = "Asking::unrecorded",
        skip_serializing_if = "Asking::is_unrecorded"
    )]
    pub asking: Asking,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            label_budget: 10,
            committee: 10,
            seed: 1,
            fuzzer: Fuzzer::default(),
            questions: DEFAULT_QUESTIONS,
            patch_pool: DEFAULT_PATCH_POOL,
            asking: Asking::default(),
        }
    }
}

/// What the user said about one generated test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The test shows the bug.
    Bug,
    /// The test behaves correctly.
    Ok,
    /// The user could not tell; the loop moves on without a label.
    Skip,
}

/// One answer, in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The question's input as shown (space-separated numbers); replay checks it.
    pub input: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The correct output, when the user typed one (only with [`Verdict::Bug`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
}

/// An answer to a question that chooses between patches ("for input 2 3 3 the patches
/// print isosceles or equilateral: which is right?"), in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The question's input as shown (space-separated numbers); replay checks it.
    pub input: String,
    /// The right output, chosen among the patches' or typed; `None`: skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// Everything a user did in the playground.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Format version ([`CURRENT_VERSION`] when written).
    pub version: u32,
    /// The C program.
    pub program: String,
    /// The input on which the program misbehaves (space-separated numbers).
    pub failing_input: String,
    /// What the program should print on the failing input, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_output: Option<String>,
    /// Optional range per input position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<Option<InputRange>>,
    /// Loop settings.
    pub settings: Settings,
    /// Start was pressed: the loop runs (or ran) from these fields.
    #[serde(default)]
    pub started: bool,
    /// The user's answers, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<Answer>,
    /// The user pressed Stop before the budget was used up.
    #[serde(default)]
    pub stopped: bool,
    /// Repair was asked for and not stopped (replay recomputes its patches and applies
    /// the answers about them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repaired: bool,
    /// Answers to the questions that choose between patches, in order (kept when a
    /// repair is stopped; applied when it runs again).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
    /// The gallery example this session came from (Reset restores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

impl Session {
    /// A fresh, not yet started session.
    pub fn new(program: impl Into<String>, failing_input: impl Into<String>) -> Session {
        Session {
            version: CURRENT_VERSION,
            program: program.into(),
            failing_input: failing_input.into(),
            expected_output: None,
            ranges: Vec::new(),
            settings: Settings::default(),
            started: false,
            answers: Vec::new(),
            stopped: false,
            repaired: false,
            choices: Vec::new(),
            example: None,
        }
    }

    /// Checks every limit and field constraint; the first violation as an error.
    pub fn validate(&self) -> Result<(), SessionError> {
        use limits::*;
        let invalid = |m: String| Err(SessionError::Invalid(m));
        if self.version != CURRENT_VERSION {
            return invalid(format!("version {} after migration", self.version));
        }
        if self.program.len() > MAX_PROGRAM_BYTES {
            return invalid(format!(
                "the program has {} bytes (at most {MAX_PROGRAM_BYTES})",
                self.program.len()
            ));
        }
        let texts = std::iter::once(("failing input", &self.failing_input))
            .chain(self.expected_output.iter().map(|e| ("expected output", e)))
            .chain(self.example.iter().map(|e| ("example", e)));
        for (what, text) in texts {
            if text.len() > MAX_TEXT_BYTES {
                return invalid(format!("the {what} is longer than {MAX_TEXT_BYTES} bytes"));
            }
        }
        if self.ranges.len() > MAX_RANGES {
            return invalid(format!(
                "{} ranges (at most {MAX_RANGES})",
                self.ranges.len()
            ));
        }
        for (i, r) in self.ranges.iter().enumerate() {
            if let Some(r) = r {
                if !(r.min.is_finite() && r.max.is_finite() && r.min <= r.max) {
                    return invalid(format!("range {} is not min <= max", i + 1));
                }
            }
        }
        let s = &self.settings;
        if !(1..=MAX_LABEL_BUDGET).contains(&s.label_budget) {
            return invalid(format!(
                "label budget {} (1 to {MAX_LABEL_BUDGET})",
                s.label_budget
            ));
        }
        if !(1..=MAX_COMMITTEE).contains(&s.committee) {
            return invalid(format!(
                "committee size {} (1 to {MAX_COMMITTEE})",
                s.committee
            ));
        }
        if s.questions > MAX_QUESTIONS {
            return invalid(format!(
                "question budget {} (0 to {MAX_QUESTIONS})",
                s.questions
            ));
        }
        if !(1..=MAX_PATCH_POOL).contains(&s.patch_pool) {
            return invalid(format!(
                "patch pool {} (1 to {MAX_PATCH_POOL})",
                s.patch_pool
            ));
        }
        if self.answers.len() > MAX_ANSWERS {
            return invalid(format!(
                "{} answers (at most {MAX_ANSWERS})",
                self.answers.len()
            ));
        }
        if !self.started && (!self.answers.is_empty() || self.stopped || self.repaired) {
            return invalid("answers in a session that was never started".into());
        }
        if self.choices.len() > MAX_ANSWERS {
            return invalid(format!(
                "{} answers about patches (at most {MAX_ANSWERS})",
                self.choices.len()
            ));
        }
        for (i, c) in self.choices.iter().enumerate() {
            let long = c.input.len() > MAX_TEXT_BYTES
                || c.output.as_ref().is_some_and(|o| o.len() > MAX_TEXT_BYTES);
            if long {
                return invalid(format!(
                    "answer {} about patches is longer than {MAX_TEXT_BYTES} bytes",
                    i + 1
                ));
            }
        }
        for (i, a) in self.answers.iter().enumerate() {
            let long = a.input.len() > MAX_TEXT_BYTES
                || a.expected
                    .as_ref()
                    .is_some_and(|e| e.len() > MAX_TEXT_BYTES);
            if long {
                return invalid(format!(
                    "answer {} is longer than {MAX_TEXT_BYTES} bytes",
                    i + 1
                ));
            }
            if a.expected.is_some() && a.verdict != Verdict::Bug {
                return invalid(format!(
                    "answer {} has an expected output but is not a bug",
                    i + 1
                ));
            }
        }
        Ok(())
    }

    /// The number of answers that are labels (not skips).
    pub fn labels_used(&self) -> usize {
        self.answers
            .iter()
            .filter(|a| a.verdict != Verdict::Skip)
            .count()
    }

    /// Reopens the loop: its stop, its repair and the answers about patches are dropped;
    /// the labels stay.
    pub fn reopen(&mut self) {
        self.stopped = false;
        self.repaired = false;
        self.choices.clear();
    }

    /// Forgets the loop's run: not started, no labels, reopened ([`Session::reopen`]);
    /// the program, inputs and settings stay.
    pub fn clear_run(&mut self) {
        self.started = false;
        self.answers.clear();
        self.reopen();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reopening_keeps_the_labels_and_clearing_keeps_only_the_work_typed() {
        let mut s = Session::new("int f(int a) { return a; }", "2");
        s.settings.seed = 7;
        s.started = true;
        s.stopped = true;
        s.repaired = true;
        s.answers.push(Answer {
            input: "3".into(),
            verdict: Verdict::Bug,
            expected: None,
        });
        s.choices.push(Choice {
            input: "4".into(),
            output: Some("4".into()),
        });
        let mut reopened = s.clone();
        reopened.reopen();
        assert!(reopened.started && !reopened.stopped && !reopened.repaired);
        assert_eq!(reopened.answers, s.answers);
        assert!(reopened.choices.is_empty());
        let mut cleared = s.clone();
        cleared.clear_run();
        assert!(!cleared.started && cleared.answers.is_empty() && cleared.choices.is_empty());
        assert_eq!(
            (&cleared.program, &cleared.failing_input, &cleared.settings),
            (&s.program, &s.failing_input, &s.settings)
        );
    }
}
