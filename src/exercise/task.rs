//! Exercise work the page hands to its Web Worker (a student's report or fix check, a class's reports verified) and the answers.

use super::class::ClassSummary;
use super::grade::DEFAULT_FRESH_INPUTS;
use super::report::{FixOrigin, Report, Work};
use super::Exercise;
use crate::session::Session;
use serde::{Deserialize, Serialize};

/// Why the page asks for a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReportPurpose {
    /// "Check fix": show the fix's pass rates.
    CheckFix,
    /// "Export report": download it.
    Export,
}

/// A student's report to build (with the fix checked against the reference).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportJob {
    /// Check or export.
    pub purpose: ReportPurpose,
    /// The exercise.
    pub exercise: Exercise,
    /// The student's session.
    pub session: Session,
    /// The fix to check, if any.
    pub fix: Option<(FixOrigin, String)>,
    /// Time spent, as the page measured it.
    pub time_spent_ms: u64,
    /// The student's name or id (the report's [`Report::student`]).
    #[serde(default)]
    pub student: String,
}

/// A job for the worker (each replays the loop or runs many programs: never on the page's thread).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ExerciseTask {
    /// Build a student's report.
    Report(Box<ReportJob>),
    /// Read and re-verify a class's report files (`(name, text)`).
    Verify {
        /// The files.
        files: Vec<(String, String)>,
    },
}

/// The worker's answer to an [`ExerciseTask`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ExerciseOutcome {
    /// The report asked for.
    Report {
        /// Check or export.
        purpose: ReportPurpose,
        /// The report.
        report: Box<Report>,
    },
    /// The class's reports.
    Class(ClassSummary),
}

impl ExerciseTask {
    /// Does the work; the error is a message for the user.
    pub fn run(self) -> Result<ExerciseOutcome, String> {
        match self {
            ExerciseTask::Report(job) => {
                let ReportJob {
                    purpose,
                    exercise,
                    session,
                    fix,
                    time_spent_ms,
                    student,
                } = *job;
                let work = Work {
                    session: &session,
                    fix: fix.as_ref().map(|(o, s)| (*o, s.as_str())),
                    fresh: DEFAULT_FRESH_INPUTS,
                    systematic: true,
                    time_spent_ms,
                    student: &student,
                };
                Report::build(&exercise, &work)
                    .map(|report| ExerciseOutcome::Report {
                        purpose,
                        report: Box::new(report),
                    })
                    .map_err(|e| e.to_string())
            }
            ExerciseTask::Verify { files } => {
                Ok(ExerciseOutcome::Class(ClassSummary::from_files(&files)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::tests::max_exercise;

    #[test]
    fn a_fix_check_reports_pass_rates_and_a_broken_fix_is_a_message() {
        let e = max_exercise();
        let job = |fix: &str| {
            ExerciseTask::Report(Box::new(ReportJob {
                purpose: ReportPurpose::CheckFix,
                exercise: e.clone(),
                session: e.session(),
                fix: Some((FixOrigin::Hand, fix.to_string())),
                time_spent_ms: 5,
                student: "Ana".into(),
            }))
        };
        let task = job(&e.reference);
        let again: ExerciseTask =
            serde_json::from_str(&serde_json::to_string(&task).expect("json")).expect("reads");
        assert_eq!(again, task);
        let Ok(ExerciseOutcome::Report { purpose, report }) = task.run() else {
            panic!("a report")
        };
        assert_eq!(purpose, ReportPurpose::CheckFix);
        assert_eq!(report.student, "Ana", "the name reaches the report");
        let fix = report.fix.expect("checked");
        assert!(fix.fresh_total > 0 && fix.fresh_passed == fix.fresh_total);
        let message = job("int main( {").run().expect_err("does not compile");
        assert!(
            message.contains("fixed program does not compile"),
            "{message}"
        );
    }
}
