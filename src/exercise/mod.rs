//! Classroom exercises: a buggy program with a hidden reference that grades answers and fixes.
//!
//! A teacher writes an [`Exercise`] (buggy program, reference program, a failing input,
//! ranges, budgets, title, instructions); it travels as a link fragment in the same
//! compressed format as sessions ([`crate::session::codec::pack`]). The reference is
//! hidden from view in the page, not secret: anyone can decode the link. [`grade`]
//! judges a student's answers and fixes with the reference; [`report`] is what a student
//! hands in and what `fixloop exercise check` recomputes.

pub mod class;
pub mod gallery;
pub mod grade;
pub mod report;
pub mod task;

pub use grade::{FixCheck, Grade, GradeError, Grader};
pub use report::{Report, Verification};

use crate::session::codec::{pack, unpack};
use crate::session::limits::{MAX_PROGRAM_BYTES, MAX_TEXT_BYTES};
use crate::session::{InputRange, Session, SessionError, Settings};
use serde::{Deserialize, Serialize};

/// The exercise format written today.
pub const EXERCISE_VERSION: u32 = 1;

/// The URL fragment key of exercise links (`#x=...`); sessions use `#s=`.
pub const LINK_KEY: &str = "x";

/// Longest title and instruction text (bytes).
pub const MAX_INSTRUCTIONS_BYTES: usize = 8 * 1024;

/// Why an exercise cannot be opened. Messages are for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExerciseError {
    /// The link itself is damaged (base64, deflate, size).
    #[error("{0}")]
    Link(SessionError),
    /// The data is not an exercise.
    #[error("the exercise data is malformed: {0}")]
    Json(String),
    /// A version this fixloop does not know.
    #[error("the exercise has version {found}; this fixloop reads versions 1 to {newest}")]
    UnknownVersion {
        /// The version in the data.
        found: u64,
        /// The newest version known.
        newest: u32,
    },
    /// Well-formed but outside the limits.
    #[error("the exercise is invalid: {0}")]
    Invalid(String),
}

/// What a teacher hands out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exercise {
    /// Format version ([`EXERCISE_VERSION`] when written).
    pub version: u32,
    /// Title shown to students.
    pub title: String,
    /// The task, in a few sentences.
    pub instructions: String,
    /// The buggy program students work on.
    pub buggy: String,
    /// The correct program: judges answers and fixes (hidden in the page, not secret).
    pub reference: String,
    /// An input on which the buggy program misbehaves (space-separated numbers).
    pub failing_input: String,
    /// Optional range per input position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<Option<InputRange>>,
    /// Label budget, committee size and seed of the loop.
    pub settings: Settings,
}

impl Exercise {
    /// A stable id: 16 hex digits of a 64-bit FNV-1a hash of the exercise's compact
    /// JSON. Any change to the exercise changes it; it is a fingerprint, not a signature.
    pub fn id(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        format!("{:016x}", crate::fingerprint::fnv1a64(&json))
    }

    /// The student's starting session: the buggy program, the failing input with the
    /// reference's output on it as the expected output (so repair has a precise test to
    /// meet, as a playground user who types it), the ranges and settings, not yet started.
    pub fn session(&self) -> Session {
        let mut s = Session::new(self.buggy.clone(), self.failing_input.clone());
        s.expected_output = self.failing_expected();
        s.ranges = self.ranges.clone();
        s.settings = self.settings.clone();
        s
    }

    /// What the reference prints on the failing input (`None` when it does not compile,
    /// the input does not read, or the output is empty or too long for a session).
    fn failing_expected(&self) -> Option<String> {
        let input = crate::active::num::parse_input(&self.failing_input)?;
        let output = self.grader().ok()?.truth(&input).reference_output;
        let output = output.trim_end();
        (!output.is_empty() && output.len() <= MAX_TEXT_BYTES).then(|| output.to_string())
    }

    /// A grader for this exercise under the playground's limits.
    pub fn grader(&self) -> Result<Grader, GradeError> {
        Grader::new(
            &self.buggy,
            &self.reference,
            crate::session::replay::playground_limits(),
        )
    }

    /// Checks limits and that both programs compile and the failing input is numbers.
    pub fn validate(&self) -> Result<(), ExerciseError> {
        let invalid = |m: String| Err(ExerciseError::Invalid(m));
        if self.version != EXERCISE_VERSION {
            return invalid(format!("version {} after migration", self.version));
        }
        for (what, text, max) in [
            ("buggy program", &self.buggy, MAX_PROGRAM_BYTES),
            ("reference program", &self.reference, MAX_PROGRAM_BYTES),
            ("title", &self.title, MAX_TEXT_BYTES),
            ("instructions", &self.instructions, MAX_INSTRUCTIONS_BYTES),
            ("failing input", &self.failing_input, MAX_TEXT_BYTES),
        ] {
            if text.len() > max {
                return invalid(format!("the {what} is longer than {max} bytes"));
            }
        }
        // The student session carries the same limits on ranges and settings.
        self.session()
            .validate()
            .map_err(|e| ExerciseError::Invalid(e.to_string()))?;
        if crate::active::num::parse_input(&self.failing_input).is_none_or(|v| v.is_empty()) {
            return invalid("the failing input must be numbers separated by spaces".into());
        }
        self.grader()
            .map_err(|e| ExerciseError::Invalid(e.to_string()))?;
        Ok(())
    }

    /// The link fragment (without `#x=`).
    pub fn encode_link(&self) -> String {
        pack(self)
    }

    /// Opens a link fragment (without `#x=`): bounded, never panics, typed errors.
    pub fn decode_link(fragment: &str) -> Result<Exercise, ExerciseError> {
        let text = unpack(fragment).map_err(ExerciseError::Link)?;
        Exercise::decode_json(&text)
    }

    /// Reads exercise JSON of any known version and validates it.
    pub fn decode_json(text: &str) -> Result<Exercise, ExerciseError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ExerciseError::Json(e.to_string()))?;
        let version = value
            .get("version")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| ExerciseError::Json("missing or non-integer \"version\"".into()))?;
        if version == 0 || version > u64::from(EXERCISE_VERSION) {
            return Err(ExerciseError::UnknownVersion {
                found: version,
                newest: EXERCISE_VERSION,
            });
        }
        // Version 1 is the current format: no upgrade steps yet. A format change adds a
        // step here; the fixture tests/exercise/v1.json must keep opening.
        let exercise: Exercise =
            serde_json::from_value(value).map_err(|e| ExerciseError::Json(e.to_string()))?;
        exercise.validate()?;
        Ok(exercise)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small max-of-two exercise used by this module's tests.
    pub(crate) fn max_exercise() -> Exercise {
        Exercise {
            version: EXERCISE_VERSION,
            title: "Larger of two".into(),
            instructions: "Find when the program prints the wrong number, then fix it.".into(),
            buggy: "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);\n\
                    if(a>b) printf(\"%d\\n\",a); else printf(\"%d\\n\",a);\nreturn 0;}\n"
                .into(),
            reference: "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);\n\
                        if(a>b) printf(\"%d\\n\",a); else printf(\"%d\\n\",b);\nreturn 0;}\n"
                .into(),
            failing_input: "1 5".into(),
            ranges: vec![
                Some(InputRange {
                    min: -50.0,
                    max: 50.0
                });
                2
            ],
            settings: Settings {
                label_budget: 6,
                committee: 4,
                seed: 11,
                ..Settings::default()
            },
        }
    }

    /// A student who answers the first `n` questions, flipping the verdict where `wrong(i)`.
    pub(crate) fn answered(
        exercise: &Exercise,
        n: usize,
        wrong: impl Fn(usize) -> bool,
    ) -> crate::session::Session {
        let mut s = exercise.session();
        s.started = true;
        let grader = exercise.grader().expect("compiles");
        let mut active = crate::session::replay::fresh_loop(&s).expect("starts");
        for i in 0..n {
            let crate::active::Step::Ask(q) = active.next_step() else {
                break;
            };
            let said = grader.truth(&q.input).bug != wrong(i);
            s.answers.push(crate::session::Answer {
                input: crate::active::num::format_input(&q.input),
                verdict: if said {
                    crate::session::Verdict::Bug
                } else {
                    crate::session::Verdict::Ok
                },
                expected: None,
            });
            active
                .answer(crate::active::Label {
                    bug: said,
                    expected: None,
                })
                .expect("pending");
        }
        s
    }

    #[test]
    fn links_round_trip_and_the_id_tracks_every_field() {
        let e = max_exercise();
        assert_eq!(Exercise::decode_link(&e.encode_link()), Ok(e.clone()));
        let mut other = e.clone();
        other.reference.push(' ');
        assert_ne!(e.id(), other.id());
        assert_eq!(e.id(), max_exercise().id());
        assert_eq!(e.id().len(), 16);
    }

    #[test]
    fn bad_exercises_are_refused_with_a_reason() {
        let mut e = max_exercise();
        e.reference = "int main( {".into();
        let err = Exercise::decode_link(&e.encode_link()).expect_err("does not compile");
        assert!(err.to_string().contains("reference"), "{err}");
        let mut e = max_exercise();
        e.failing_input = "one five".into();
        assert!(matches!(e.validate(), Err(ExerciseError::Invalid(_))));
        assert!(matches!(
            Exercise::decode_link("%%%"),
            Err(ExerciseError::Link(SessionError::Base64(_)))
        ));
        assert!(matches!(
            Exercise::decode_json(r#"{"version": 7}"#),
            Err(ExerciseError::UnknownVersion { found: 7, .. })
        ));
        assert!(matches!(
            Exercise::decode_json(r#"{"version": 1, "title": 3}"#),
            Err(ExerciseError::Json(_))
        ));
    }

    #[test]
    fn the_student_session_starts_from_the_buggy_program() {
        let e = max_exercise();
        let s = e.session();
        assert_eq!(s.program, e.buggy);
        assert_eq!(s.settings, e.settings);
        assert_eq!(
            s.expected_output.as_deref(),
            Some("5"),
            "the reference on 1 5"
        );
        assert!(!s.started && s.answers.is_empty());
    }
}
