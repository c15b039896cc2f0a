//! A student's report on an exercise: graded answers, the oracle, the fix and its pass rates; built, printed and re-verified.

use super::grade::GradeError;
use super::{Exercise, ExerciseError};
use crate::active::fuzz::Range;
use crate::active::num::parse_input;
use crate::excerpt::Excerpt;
use crate::session::{Answer, Replayer, Session, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The report format written today.
pub const REPORT_VERSION: u32 = 1;

/// Largest report accepted (bytes of JSON).
pub const MAX_REPORT_BYTES: usize = 1024 * 1024;

/// Why a report cannot be built or read. Messages are for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// A program does not compile.
    #[error(transparent)]
    Grade(#[from] GradeError),
    /// The embedded exercise is invalid.
    #[error(transparent)]
    Exercise(#[from] ExerciseError),
    /// An answer's input is not numbers.
    #[error("answer {0} has an input that is not numbers")]
    BadInput(usize),
    /// The JSON is not a report.
    #[error("the report is malformed: {0}")]
    Json(String),
    /// A version this fixloop does not know.
    #[error("the report has version {0}; this fixloop reads version 1")]
    UnknownVersion(u64),
    /// Larger than [`MAX_REPORT_BYTES`].
    #[error("the report is larger than {MAX_REPORT_BYTES} bytes")]
    TooLarge,
}

/// One answer, graded by the reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportAnswer {
    /// The question's input.
    pub input: String,
    /// What the student said.
    pub verdict: Verdict,
    /// The correct output the student typed, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The verdict was right (`None` for a skip).
    pub right: Option<bool>,
    /// The typed output matches the reference (`None` when none was typed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_right: Option<bool>,
    /// The reference program's output: the correct one.
    pub reference_output: String,
}

/// Where the handed-in fix came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FixOrigin {
    /// A patch fixloop's repair found and the student applied.
    Repair,
    /// Written by the student.
    Hand,
}

/// The first input where the fix still differs from the reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportDifference {
    /// The input.
    pub input: String,
    /// The fix's output.
    pub fix_output: String,
    /// The reference's output.
    pub reference_output: String,
}

/// The handed-in fix and how it fares against the reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportFix {
    /// Repair or hand-written.
    pub origin: FixOrigin,
    /// The fixed program.
    pub source: String,
    /// Labelled inputs on which it agrees with the reference.
    pub labelled_passed: usize,
    /// Labelled inputs.
    pub labelled_total: usize,
    /// Fresh inputs asked for (the seed is the exercise's).
    pub fresh_requested: usize,
    /// Fresh fuzzed inputs on which it agrees with the reference.
    pub fresh_passed: usize,
    /// Fresh fuzzed inputs checked.
    pub fresh_total: usize,
    /// Inputs chosen as a course's grader would (every input of the ranges, or their
    /// boundary grid) on which it agrees with the reference; reports written before
    /// these checks have none.
    #[serde(default)]
    pub systematic_passed: usize,
    /// Those inputs checked.
    #[serde(default)]
    pub systematic_total: usize,
    /// They were every input the ranges allow.
    #[serde(default)]
    pub whole_range: bool,
    /// Where it still differs first.
    pub first_difference: Option<ReportDifference>,
}

impl ReportFix {
    /// The sets of inputs the fix was checked on, in order, with (passed, checked):
    /// labelled, then the systematic ones (reports written before those checks have
    /// none), then fresh ones (none when the whole range was checked).
    fn checked_sets(&self) -> Vec<(CheckedSet, usize, usize)> {
        let mut sets = vec![(
            CheckedSet::Labelled,
            self.labelled_passed,
            self.labelled_total,
        )];
        if self.systematic_total > 0 {
            let set = if self.whole_range {
                CheckedSet::WholeRange
            } else {
                CheckedSet::Boundaries
            };
            sets.push((set, self.systematic_passed, self.systematic_total));
        }
        if !self.whole_range {
            sets.push((CheckedSet::Fresh, self.fresh_passed, self.fresh_total));
        }
        sets
    }

    /// The figures in short: "labelled 3/3, whole range 900/1000", "labelled 3/3,
    /// boundaries 120/125, fresh 200/200".
    pub fn figures(&self) -> String {
        let parts: Vec<String> = self
            .checked_sets()
            .into_iter()
            .map(|(set, passed, total)| format!("{} {passed}/{total}", set.short()))
            .collect();
        parts.join(", ")
    }

    /// The figures as sentences: "Labelled tests: 3 of 3 pass. Every input of the
    /// ranges: 900 of 1000 pass."
    pub fn sentences(&self) -> String {
        let parts: Vec<String> = self
            .checked_sets()
            .into_iter()
            .map(|(set, passed, total)| format!("{}: {passed} of {total} pass.", set.long()))
            .collect();
        parts.join(" ")
    }
}

/// A set of inputs a fix is checked on.
#[derive(Debug, Clone, Copy)]
enum CheckedSet {
    Labelled,
    WholeRange,
    Boundaries,
    Fresh,
}

impl CheckedSet {
    fn short(self) -> &'static str {
        match self {
            CheckedSet::Labelled => "labelled",
            CheckedSet::WholeRange => "whole range",
            CheckedSet::Boundaries => "boundaries",
            CheckedSet::Fresh => "fresh",
        }
    }

    fn long(self) -> &'static str {
        match self {
            CheckedSet::Labelled => "Labelled tests",
            CheckedSet::WholeRange => "Every input of the ranges",
            CheckedSet::Boundaries => {
                "Boundary values of each input (the ranges' ends, their neighbours and middles)"
            }
            CheckedSet::Fresh => "Fresh fuzzed inputs",
        }
    }
}

/// Right answers out of labels given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Right verdicts.
    pub right: usize,
    /// Verdicts given (skips not counted).
    pub total: usize,
}

/// Most characters of a student's name kept in a report (more are cut off).
pub const MAX_STUDENT_CHARS: usize = 100;

/// Most characters of the name's slug in a report's file name.
pub const MAX_SLUG_CHARS: usize = 40;

/// What a student hands in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Format version ([`REPORT_VERSION`]).
    pub version: u32,
    /// The student's name or an id the teacher chose, as typed (trimmed); empty in
    /// reports written before reports were named.
    #[serde(default)]
    pub student: String,
    /// [`Exercise::id`] of the exercise.
    pub exercise_id: String,
    /// The exercise's format version.
    pub exercise_version: u32,
    /// The exercise itself, so the report can be checked on its own.
    pub exercise: Exercise,
    /// Answers in order, graded.
    pub answers: Vec<ReportAnswer>,
    /// The score.
    pub score: Score,
    /// The oracle learned from the answers, readable.
    pub oracle: String,
    /// The fix handed in, if any.
    pub fix: Option<ReportFix>,
    /// Time spent in the page (as the page measured it; cannot be recomputed).
    pub time_spent_ms: u64,
    /// A fingerprint ([`Report::seal_of`]) binding the student's name and the time spent,
    /// which cannot be recomputed, to the exercise and the work: editing the name
    /// afterwards breaks it. It is a fingerprint, not a signature: it catches a report
    /// edited by hand, not one forged by someone who recomputes it. Empty in reports
    /// written before reports were named.
    #[serde(default)]
    pub seal: String,
}

/// The result of re-checking a report: every figure that does not recompute, and a
/// seal ([`Report::seal`]) that does not match.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verification {
    /// One line per mismatch; empty when the report is genuine.
    pub problems: Vec<String>,
}

impl Verification {
    /// Every figure recomputed to the value in the report, and its seal (if any) matches.
    pub fn is_genuine(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What a student did, as the page knows it: the session, the fix (if any) and the time.
#[derive(Debug, Clone)]
pub struct Work<'a> {
    /// The student's session (answers in order).
    pub session: &'a Session,
    /// The fix handed in.
    pub fix: Option<(FixOrigin, &'a str)>,
    /// Fresh inputs to check the fix on.
    pub fresh: usize,
    /// Check the fix on every input of the ranges, or their boundary grid, first (see
    /// [`crate::exercise::grade::systematic_inputs`]); off only to re-verify reports
    /// written before these checks.
    pub systematic: bool,
    /// Time spent, measured by the caller.
    pub time_spent_ms: u64,
    /// The student's name or id (trimmed, at most [`MAX_STUDENT_CHARS`] kept).
    pub student: &'a str,
}

/// The student's name as a file-name part: ASCII letters, digits, `-` and `_` kept,
/// everything else a `-`, runs of `-` made one, no `-` at either end, at most
/// [`MAX_SLUG_CHARS`] characters ("Ana María" is `Ana-Mar-a`; an empty slug for a name
/// with nothing to keep).
pub fn name_slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            c
        } else {
            '-'
        };
        if c == '-' && (slug.is_empty() || slug.ends_with('-')) {
            continue;
        }
        if slug.len() == MAX_SLUG_CHARS {
            break;
        }
        slug.push(c);
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    slug
}

/// The file name of a report on exercise `exercise_id` by `student`:
/// `fixloop-report-<exercise>-<name slug>.json`, or `fixloop-report-<exercise>.json` when
/// the slug is empty.
pub fn report_file_name(exercise_id: &str, student: &str) -> String {
    match name_slug(student) {
        slug if slug.is_empty() => format!("fixloop-report-{exercise_id}.json"),
        slug => format!("fixloop-report-{exercise_id}-{slug}.json"),
    }
}

/// A name as a report keeps it: trimmed, at most [`MAX_STUDENT_CHARS`] characters.
fn clean_name(name: &str) -> String {
    name.trim()
        .chars()
        .take(MAX_STUDENT_CHARS)
        .collect::<String>()
        .trim_end()
        .to_string()
}

impl Report {
    /// Grades a student's work on `exercise`.
    pub fn build(exercise: &Exercise, work: &Work<'_>) -> Result<Report, ReportError> {
        let grader = exercise.grader()?;
        let mut answers = Vec::with_capacity(work.session.answers.len());
        let mut labelled = Vec::new();
        for (i, a) in work.session.answers.iter().enumerate() {
            let input = parse_input(&a.input).ok_or(ReportError::BadInput(i + 1))?;
            let said_bug = a.verdict == Verdict::Bug;
            let grade = grader.grade(&input, said_bug, a.expected.as_deref());
            let labelled_answer = a.verdict != Verdict::Skip;
            if labelled_answer {
                labelled.push(input);
            }
            answers.push(ReportAnswer {
                input: a.input.clone(),
                verdict: a.verdict,
                expected: a.expected.clone(),
                right: labelled_answer.then_some(grade.right),
                expected_right: grade.expected_right,
                reference_output: grade.truth.reference_output,
            });
        }
        let score = Score {
            right: answers.iter().filter(|a| a.right == Some(true)).count(),
            total: answers.iter().filter(|a| a.right.is_some()).count(),
        };
        let oracle = if work.session.started {
            Replayer::new()
                .view(work.session)
                .map(|v| v.formula)
                .unwrap_or_else(|e| format!("(does not replay: {e})"))
        } else {
            String::new()
        };
        let fix = match work.fix {
            None => None,
            Some((origin, source)) => {
                let template = parse_input(&exercise.failing_input).unwrap_or_default();
                let ranges: Vec<Option<Range>> =
                    exercise.ranges.iter().map(|r| r.map(Range::from)).collect();
                let check = grader.check_fix(
                    source,
                    &labelled,
                    &template,
                    &ranges,
                    work.fresh,
                    exercise.settings.seed,
                    work.systematic,
                )?;
                Some(ReportFix {
                    origin,
                    source: source.to_string(),
                    labelled_passed: check.labelled_passed,
                    labelled_total: check.labelled_total,
                    fresh_requested: work.fresh,
                    fresh_passed: check.fresh_passed,
                    fresh_total: check.fresh_total,
                    systematic_passed: check.systematic_passed,
                    systematic_total: check.systematic_total,
                    whole_range: check.whole_range,
                    first_difference: check.first_difference.map(|d| ReportDifference {
                        input: d.input,
                        fix_output: d.fix_output,
                        reference_output: d.reference_output,
                    }),
                })
            }
        };
        let mut report = Report {
            version: REPORT_VERSION,
            student: clean_name(work.student),
            exercise_id: exercise.id(),
            exercise_version: exercise.version,
            exercise: exercise.clone(),
            answers,
            score,
            oracle,
            fix,
            time_spent_ms: work.time_spent_ms,
            seal: String::new(),
        };
        report.seal = report.seal_of();
        Ok(report)
    }

    /// The seal this report's content calls for (16 hex digits): a fingerprint of the
    /// student's name, the time spent, the exercise id and what the student did (each
    /// answer's input, verdict and typed output; the fix's origin, program and fresh
    /// inputs asked for). The figures are not in it: `verify` recomputes those.
    pub fn seal_of(&self) -> String {
        let mut parts: Vec<Vec<u8>> = vec![
            b"fixloop report seal 1".to_vec(),
            self.student.as_bytes().to_vec(),
            self.time_spent_ms.to_le_bytes().to_vec(),
            self.exercise_id.as_bytes().to_vec(),
            (self.answers.len() as u64).to_le_bytes().to_vec(),
        ];
        for a in &self.answers {
            parts.push(a.input.as_bytes().to_vec());
            parts.push(
                match a.verdict {
                    Verdict::Bug => "bug",
                    Verdict::Ok => "ok",
                    Verdict::Skip => "skip",
                }
                .into(),
            );
            match &a.expected {
                None => parts.push(b"-".to_vec()),
                Some(e) => {
                    parts.push(b"+".to_vec());
                    parts.push(e.as_bytes().to_vec());
                }
            }
        }
        match &self.fix {
            None => parts.push(b"no fix".to_vec()),
            Some(f) => {
                parts.push(
                    match f.origin {
                        FixOrigin::Repair => "repair",
                        FixOrigin::Hand => "hand",
                    }
                    .into(),
                );
                parts.push(f.source.as_bytes().to_vec());
                parts.push((f.fresh_requested as u64).to_le_bytes().to_vec());
            }
        }
        let h = crate::fingerprint::of_parts(parts.iter().map(Vec::as_slice));
        format!("{h:016x}")
    }

    /// The file name to export this report under (see [`report_file_name`]).
    pub fn file_name(&self) -> String {
        report_file_name(&self.exercise.id(), &self.student)
    }

    /// The report as pretty JSON (the export).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a report (size-bounded, version-checked, embedded exercise validated).
    pub fn from_json(text: &str) -> Result<Report, ReportError> {
        if text.len() > MAX_REPORT_BYTES {
            return Err(ReportError::TooLarge);
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ReportError::Json(e.to_string()))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(1) => {}
            Some(v) => return Err(ReportError::UnknownVersion(v)),
            None => {
                return Err(ReportError::Json(
                    "missing or non-integer \"version\"".into(),
                ))
            }
        }
        let report: Report =
            serde_json::from_value(value).map_err(|e| ReportError::Json(e.to_string()))?;
        report.exercise.validate()?;
        Ok(report)
    }

    /// The session these answers came from (for recomputation).
    fn session(&self) -> Session {
        let mut s = self.exercise.session();
        s.started = !self.answers.is_empty() || !self.oracle.is_empty();
        s.answers = self
            .answers
            .iter()
            .map(|a| Answer {
                input: a.input.clone(),
                verdict: a.verdict,
                expected: a.expected.clone(),
            })
            .collect();
        s
    }

    /// Recomputes every figure from the exercise and the answers (never trusting the
    /// stored ones) and lists each that differs; checks the seal over what cannot be
    /// recomputed (the name, the time), and that a named report has one. With
    /// `expected`, the embedded exercise must also be that exercise.
    pub fn verify(&self, expected: Option<&Exercise>) -> Verification {
        let mut problems = Vec::new();
        let id = self.exercise.id();
        if self.exercise_id != id {
            problems.push(format!(
                "exercise id {} does not match the embedded exercise ({id})",
                self.exercise_id
            ));
        }
        if let Some(e) = expected {
            if e.id() != id {
                problems.push(format!(
                    "the report is for exercise {id}, not for this exercise ({})",
                    e.id()
                ));
            }
        }
        let work = Work {
            session: &self.session(),
            fix: self.fix.as_ref().map(|f| (f.origin, f.source.as_str())),
            fresh: self.fix.as_ref().map_or(0, |f| f.fresh_requested),
            systematic: self.fix.as_ref().is_some_and(|f| f.systematic_total > 0),
            time_spent_ms: self.time_spent_ms,
            student: &self.student,
        };
        if self.seal.is_empty() {
            // Reports written before reports were named have neither a name nor a seal.
            if !self.student.is_empty() {
                problems.push(format!(
                    "the student name {:?} is not sealed (the report's seal was removed)",
                    self.student
                ));
            }
        } else if self.seal != self.seal_of() {
            problems.push(format!(
                "the student name {:?}, the time spent or the answers were edited after \
                 export (the seal does not match)",
                self.student
            ));
        }
        let again = match Report::build(&self.exercise, &work) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("cannot recompute: {e}"));
                return Verification { problems };
            }
        };
        if again.answers.len() != self.answers.len() {
            problems.push("the number of answers changed".into());
        }
        for (i, (got, want)) in self.answers.iter().zip(&again.answers).enumerate() {
            if got != want {
                problems.push(format!(
                    "answer {} ({}): the report says right={:?} expected_right={:?} \
                     reference output {:?}; recomputed right={:?} expected_right={:?} {:?}",
                    i + 1,
                    got.input,
                    got.right,
                    got.expected_right,
                    got.reference_output,
                    want.right,
                    want.expected_right,
                    want.reference_output
                ));
            }
        }
        if self.score != again.score {
            problems.push(format!(
                "score {}/{} recomputes to {}/{}",
                self.score.right, self.score.total, again.score.right, again.score.total
            ));
        }
        if self.oracle != again.oracle {
            problems.push(format!(
                "oracle {:?} recomputes to {:?}",
                self.oracle, again.oracle
            ));
        }
        if self.fix != again.fix {
            let show = |f: &Option<ReportFix>| match f {
                None => "no fix".to_string(),
                Some(f) => f.figures(),
            };
            problems.push(format!(
                "fix figures ({}) recompute to ({})",
                show(&self.fix),
                show(&again.fix)
            ));
        }
        Verification { problems }
    }

    /// A printable, self-contained HTML page of the report (no script, no external files).
    pub fn to_html(&self) -> String {
        let mut h = String::new();
        let e = &self.exercise;
        let _ = write!(
            h,
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>Report: {}</title><style>body{{font-family:sans-serif;max-width:50em;\
             margin:2em auto}}table{{border-collapse:collapse}}td,th{{border:1px solid #888;\
             padding:.2em .5em}}pre{{background:#f4f4f4;padding:.5em}}</style></head><body>",
            if self.student.is_empty() {
                esc(&e.title)
            } else {
                format!("{} - {}", esc(&e.title), esc(&self.student))
            }
        );
        let _ = write!(
            h,
            "<h1>{}</h1><p class=\"student\">{}</p><p>Exercise <code>{}</code> (format {}). \
             Score: <strong>{} of {}</strong> answers right. Time spent: {} min.</p>",
            esc(&e.title),
            if self.student.is_empty() {
                "Student: not named (a report written before reports were named).".to_string()
            } else {
                format!("Student: <strong>{}</strong>", esc(&self.student))
            },
            esc(&self.exercise_id),
            self.exercise_version,
            self.score.right,
            self.score.total,
            self.time_spent_ms / 60_000
        );
        h.push_str(
            "<h2>Answers</h2><table><tr><th>#</th><th>Input</th><th>Answer</th>\
                    <th>Correct output</th><th>Result</th></tr>",
        );
        for (i, a) in self.answers.iter().enumerate() {
            let verdict = match a.verdict {
                Verdict::Bug => "bug",
                Verdict::Ok => "not a bug",
                Verdict::Skip => "skipped",
            };
            let result = match a.right {
                Some(true) => "right",
                Some(false) => "wrong",
                None => "-",
            };
            let _ = write!(
                h,
                "<tr><td>{}</td><td><code>{}</code></td><td>{verdict}</td><td><code>{}</code></td>\
                 <td>{result}</td></tr>",
                i + 1,
                esc(&a.input),
                esc(&Excerpt::of(&a.reference_output).text())
            );
        }
        h.push_str("</table>");
        let _ = write!(h, "<h2>Oracle</h2><pre>{}</pre>", esc(&self.oracle));
        match &self.fix {
            None => h.push_str("<h2>Fix</h2><p>No fix handed in.</p>"),
            Some(f) => {
                let _ = write!(
                    h,
                    "<h2>Fix ({})</h2><p>{}</p><pre>{}</pre>",
                    match f.origin {
                        FixOrigin::Repair => "from repair",
                        FixOrigin::Hand => "written by hand",
                    },
                    esc(&f.sentences()),
                    esc(&f.source)
                );
                if let Some(d) = &f.first_difference {
                    let _ = write!(
                        h,
                        "<p>First difference: input <code>{}</code> prints <code>{}</code>, \
                         the reference prints <code>{}</code>.</p>",
                        esc(&d.input),
                        esc(&Excerpt::of(&d.fix_output).text()),
                        esc(&Excerpt::of(&d.reference_output).text())
                    );
                }
            }
        }
        h.push_str("</body></html>\n");
        h
    }
}

/// HTML-escapes text.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::tests::{answered, max_exercise};

    /// A student who answers the first `n` questions, wrongly on every third.
    fn student_session(exercise: &Exercise, n: usize) -> Session {
        answered(exercise, n, |i| i % 3 == 2)
    }

    #[test]
    fn a_genuine_report_verifies_and_every_tampering_is_caught() {
        let e = max_exercise();
        let s = student_session(&e, 5);
        assert!(s.answers.len() >= 3, "the loop asked {}", s.answers.len());
        let work = Work {
            session: &s,
            fix: Some((FixOrigin::Hand, &e.reference)),
            fresh: 50,
            systematic: true,
            time_spent_ms: 120_000,
            student: "Ana",
        };
        let report = Report::build(&e, &work).expect("builds");
        assert!(
            report.score.right < report.score.total,
            "{:?}",
            report.score
        );
        assert!(!report.oracle.is_empty());
        let fix = report.fix.as_ref().expect("fix");
        assert_eq!(fix.labelled_passed, fix.labelled_total);
        let reread = Report::from_json(&report.to_json()).expect("reads");
        assert_eq!(reread, report);
        assert!(
            reread.verify(Some(&e)).is_genuine(),
            "{:?}",
            reread.verify(None)
        );

        let mut t = report.clone();
        t.score.right = t.score.total;
        assert!(!t.verify(None).is_genuine());
        let mut t = report.clone();
        let wrong = t
            .answers
            .iter_mut()
            .find(|a| a.right == Some(false))
            .expect("a wrong one");
        wrong.right = Some(true);
        assert!(!t.verify(None).is_genuine());
        let mut t = report.clone();
        t.fix.as_mut().expect("fix").source = e.buggy.clone();
        assert!(!t.verify(None).is_genuine());
        let mut t = report.clone();
        t.exercise.reference = e.buggy.clone();
        let v = t.verify(Some(&e));
        assert!(v.problems.iter().any(|p| p.contains("exercise")), "{v:?}");
    }

    #[test]
    fn a_report_written_before_the_systematic_checks_still_verifies() {
        let e = max_exercise();
        let s = student_session(&e, 3);
        let work = Work {
            session: &s,
            fix: Some((FixOrigin::Hand, &e.reference)),
            fresh: 20,
            systematic: false,
            time_spent_ms: 1,
            student: "",
        };
        let old = Report::build(&e, &work).expect("builds");
        let mut json: serde_json::Value = serde_json::from_str(&old.to_json()).unwrap();
        let fix = json["fix"].as_object_mut().expect("a fix");
        for key in ["systematic_passed", "systematic_total", "whole_range"] {
            assert!(fix.remove(key).is_some(), "{key}");
        }
        let reread = Report::from_json(&json.to_string()).expect("reads");
        assert!(
            reread.verify(Some(&e)).is_genuine(),
            "{:?}",
            reread.verify(None)
        );
        let figures = reread.fix.as_ref().unwrap().figures();
        assert!(
            figures.starts_with("labelled ") && figures.contains(", fresh "),
            "{figures}"
        );
        assert!(!figures.contains("boundaries") && !figures.contains("whole range"));
        // A new report has the checks, and a changed figure among them is caught.
        let new = Report::build(
            &e,
            &Work {
                systematic: true,
                ..work
            },
        )
        .expect("builds");
        let fix = new.fix.as_ref().unwrap();
        assert!(fix.systematic_total > 0);
        let said = if fix.whole_range {
            "Every input of the ranges: "
        } else {
            "Boundary values"
        };
        assert!(fix.sentences().contains(said), "{}", fix.sentences());
        assert_eq!(fix.whole_range, !fix.figures().contains("fresh"));
        assert!(new.verify(Some(&e)).is_genuine());
        let mut t = new.clone();
        t.fix.as_mut().unwrap().systematic_passed -= 1;
        assert!(!t.verify(None).is_genuine());
    }

    #[test]
    fn the_html_view_escapes_and_shows_the_figures() {
        let mut e = max_exercise();
        e.title = "a < b & c".into();
        let s = student_session(&e, 3);
        let work = Work {
            session: &s,
            fix: None,
            fresh: 0,
            systematic: true,
            time_spent_ms: 0,
            student: "Ana <b>",
        };
        let html = Report::build(&e, &work).expect("builds").to_html();
        assert!(html.contains("a &lt; b &amp; c"));
        assert!(
            html.contains("Student: <strong>Ana &lt;b&gt;</strong>"),
            "{html}"
        );
        assert!(html.contains("<title>Report: a &lt; b &amp; c - Ana &lt;b&gt;</title>"));
        assert!(!html.contains("<script"));
        assert!(html.contains("No fix handed in"));
    }

    /// A named report on `e` with a fix (the reference) and `n` answers.
    fn named_report(e: &Exercise, n: usize, student: &str) -> Report {
        let s = student_session(e, n);
        let work = Work {
            session: &s,
            fix: Some((FixOrigin::Hand, &e.reference)),
            fresh: 20,
            systematic: true,
            time_spent_ms: 90_000,
            student,
        };
        Report::build(e, &work).expect("builds")
    }

    #[test]
    fn the_name_round_trips_is_trimmed_and_names_the_file() {
        let e = max_exercise();
        let report = named_report(&e, 3, "  Ana María López \n");
        assert_eq!(report.student, "Ana María López");
        assert_eq!(report.seal.len(), 16);
        let reread = Report::from_json(&report.to_json()).expect("reads");
        assert_eq!(reread.student, "Ana María López");
        assert_eq!(reread, report);
        assert!(
            reread.verify(Some(&e)).is_genuine(),
            "{:?}",
            reread.verify(None)
        );
        assert_eq!(
            reread.file_name(),
            format!("fixloop-report-{}-Ana-Mar-a-L-pez.json", e.id())
        );
        let long = named_report(&e, 1, &"x".repeat(MAX_STUDENT_CHARS + 50));
        assert_eq!(long.student.chars().count(), MAX_STUDENT_CHARS);
        assert!(long.verify(None).is_genuine());
    }

    #[test]
    fn an_edited_moved_or_unsealed_name_is_not_genuine() {
        let e = max_exercise();
        let ana = named_report(&e, 3, "Ana");
        let json: serde_json::Value = serde_json::from_str(&ana.to_json()).unwrap();
        // The name changed by hand in the JSON.
        let mut edited = json.clone();
        edited["student"] = "Cy".into();
        let t = Report::from_json(&edited.to_string()).expect("reads");
        let v = t.verify(Some(&e));
        assert!(!v.is_genuine());
        assert!(
            v.problems
                .iter()
                .any(|p| p.contains("\"Cy\"") && p.contains("seal")),
            "{v:?}"
        );
        assert_eq!(v.problems.len(), 1, "every figure still recomputes: {v:?}");
        // The name and the seal both taken from Cy's own report on the same exercise.
        let cy = named_report(&e, 2, "Cy");
        let mut moved = json.clone();
        moved["student"] = cy.student.clone().into();
        moved["seal"] = cy.seal.clone().into();
        let t = Report::from_json(&moved.to_string()).expect("reads");
        assert!(!t.verify(None).is_genuine());
        // The seal removed, so that it reads as an old report, with the name kept.
        let mut unsealed = json.clone();
        unsealed.as_object_mut().unwrap().remove("seal");
        let t = Report::from_json(&unsealed.to_string()).expect("reads");
        let v = t.verify(None);
        assert!(v.problems.iter().any(|p| p.contains("not sealed")), "{v:?}");
        // The time spent is sealed too.
        let mut t = ana.clone();
        t.time_spent_ms += 60_000;
        assert!(!t.verify(None).is_genuine());
        // And a genuine name with an edited score is still caught by recomputation.
        let mut t = ana.clone();
        t.score.right = t.score.total + 1;
        let v = t.verify(None);
        assert!(v.problems.iter().any(|p| p.starts_with("score")), "{v:?}");
        assert!(!v.problems.iter().any(|p| p.contains("seal")), "{v:?}");
    }

    #[test]
    fn a_report_written_before_names_verifies_with_no_name() {
        let e = max_exercise();
        let new = named_report(&e, 3, "Ana");
        let mut json: serde_json::Value = serde_json::from_str(&new.to_json()).unwrap();
        let fields = json.as_object_mut().unwrap();
        for key in ["student", "seal"] {
            assert!(fields.remove(key).is_some(), "{key}");
        }
        let old = Report::from_json(&json.to_string()).expect("reads");
        assert_eq!(old.student, "");
        assert_eq!(old.seal, "");
        assert!(old.verify(Some(&e)).is_genuine(), "{:?}", old.verify(None));
        assert_eq!(old.file_name(), format!("fixloop-report-{}.json", e.id()));
        assert!(old.to_html().contains("Student: not named"));
        // Its figures are still recomputed.
        let mut t = old.clone();
        t.score.right = t.score.total + 1;
        assert!(!t.verify(None).is_genuine());
    }

    #[test]
    fn name_slugs() {
        for (name, slug) in [
            ("Ana", "Ana"),
            ("s1234567", "s1234567"),
            ("Ana María López", "Ana-Mar-a-L-pez"),
            ("  ana   ben  ", "ana-ben"),
            ("ana--ben__cy", "ana-ben__cy"),
            ("../../etc/passwd", "etc-passwd"),
            ("a.b\\c:d*e?f", "a-b-c-d-e-f"),
            ("-x-", "x"),
            ("", ""),
            ("   ", ""),
            ("Μαρία", ""),
            ("李", ""),
            ("_", "_"),
        ] {
            assert_eq!(name_slug(name), slug, "{name:?}");
        }
        let long = name_slug(&format!("{}-{}", "a".repeat(MAX_SLUG_CHARS - 1), "b"));
        assert_eq!(
            long,
            "a".repeat(MAX_SLUG_CHARS - 1),
            "cut, no '-' at the end"
        );
        assert_eq!(name_slug(&"z".repeat(500)).len(), MAX_SLUG_CHARS);
        assert_eq!(
            report_file_name("0123", "Ana B"),
            "fixloop-report-0123-Ana-B.json"
        );
        assert_eq!(report_file_name("0123", "???"), "fixloop-report-0123.json");
    }

    #[test]
    fn malformed_reports_are_typed_errors() {
        assert!(matches!(Report::from_json("[]"), Err(ReportError::Json(_))));
        assert!(matches!(
            Report::from_json(r#"{"version": 9}"#),
            Err(ReportError::UnknownVersion(9))
        ));
        let big = " ".repeat(MAX_REPORT_BYTES + 1);
        assert_eq!(Report::from_json(&big), Err(ReportError::TooLarge));
    }
}
