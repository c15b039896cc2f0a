//! A class's reports summarised for the teacher: one row per file (re-verified, named by its student), label accuracy, how many fixed the bug, and the inputs most often answered wrongly.

use super::report::Report;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most report files read at once.
pub const MAX_REPORT_FILES: usize = 200;

/// How many common wrong answers the summary lists.
pub const COMMON_WRONG_SHOWN: usize = 5;

/// A fix's figures as the table shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixFigures {
    /// The fix agrees with the reference on every input checked.
    pub all_pass: bool,
    /// Labelled inputs passed.
    pub labelled_passed: usize,
    /// Labelled inputs.
    pub labelled_total: usize,
    /// Fresh inputs passed.
    pub fresh_passed: usize,
    /// Fresh inputs checked.
    pub fresh_total: usize,
    /// Every figure in short ([`crate::exercise::report::ReportFix::figures`]).
    pub checked: String,
}

/// One report file, read and re-verified.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportRow {
    /// The student's name from the report (empty in reports written before reports
    /// were named, and for a file that cannot be read).
    #[serde(default)]
    pub student: String,
    /// The file name.
    pub file: String,
    /// Why the file could not be read (then every other field is empty).
    pub error: Option<String>,
    /// The exercise's title.
    pub title: String,
    /// The exercise id.
    pub exercise_id: String,
    /// Right verdicts.
    pub right: usize,
    /// Verdicts given.
    pub total: usize,
    /// The handed-in fix, if any.
    pub fix: Option<FixFigures>,
    /// Every figure recomputed to the value in the report, and its seal matched.
    pub genuine: bool,
    /// What did not recompute (empty when genuine).
    pub problems: Vec<String>,
    /// Time spent as the student's page measured it.
    pub time_spent_ms: u64,
}

impl ReportRow {
    /// Who the row is: the student's name, or the file name when the report has none.
    pub fn who(&self) -> &str {
        if self.student.is_empty() {
            &self.file
        } else {
            &self.student
        }
    }

    /// Right answers as a share of answers given (`None` without answers or when unreadable).
    pub fn label_accuracy(&self) -> Option<f64> {
        (self.error.is_none() && self.total > 0).then(|| self.right as f64 / self.total as f64)
    }

    /// Readable and genuine: the row's figures are the student's own and count.
    pub fn counts(&self) -> bool {
        self.error.is_none() && self.genuine
    }

    /// Why the row counts nowhere, in one line (`None` when it counts).
    pub fn set_aside_because(&self) -> Option<String> {
        match (&self.error, self.genuine) {
            (Some(e), _) => Some(format!("cannot be read: {e}")),
            (None, false) => Some(format!("tampered: {}", self.problems.join("; "))),
            (None, true) => None,
        }
    }

    /// The handed-in fix agrees with the reference everywhere it was checked.
    pub fn fixed(&self) -> bool {
        self.fix.as_ref().is_some_and(|f| f.all_pass)
    }
}

/// An input many students labelled wrongly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrongAnswer {
    /// The exercise's title.
    pub title: String,
    /// The input.
    pub input: String,
    /// How many reports answered it wrongly.
    pub times: usize,
    /// The reference's (correct) output on it.
    pub reference_output: String,
}

/// The class at a glance.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClassSummary {
    /// One row per file, in the order given.
    pub rows: Vec<ReportRow>,
    /// Files beyond [`MAX_REPORT_FILES`] that were not read.
    pub skipped: usize,
    /// The inputs most often answered wrongly (most first), at most [`COMMON_WRONG_SHOWN`].
    pub common_wrong: Vec<WrongAnswer>,
}

impl ClassSummary {
    /// Reads and re-verifies every report file (`(name, text)`); an unreadable file gets
    /// a row with its error.
    pub fn from_files(files: &[(String, String)]) -> ClassSummary {
        let mut summary = ClassSummary {
            skipped: files.len().saturating_sub(MAX_REPORT_FILES),
            ..ClassSummary::default()
        };
        let mut wrong: BTreeMap<(String, String), WrongAnswer> = BTreeMap::new();
        for (file, text) in files.iter().take(MAX_REPORT_FILES) {
            let report = match Report::from_json(text) {
                Ok(r) => r,
                Err(e) => {
                    summary.rows.push(ReportRow {
                        student: String::new(),
                        file: file.clone(),
                        error: Some(e.to_string()),
                        title: String::new(),
                        exercise_id: String::new(),
                        right: 0,
                        total: 0,
                        fix: None,
                        genuine: false,
                        problems: Vec::new(),
                        time_spent_ms: 0,
                    });
                    continue;
                }
            };
            let verification = report.verify(None);
            // A tampered report's answers are not the student's: they count nowhere.
            let counted = if verification.is_genuine() {
                report.answers.as_slice()
            } else {
                &[]
            };
            for a in counted.iter().filter(|a| a.right == Some(false)) {
                wrong
                    .entry((report.exercise_id.clone(), a.input.clone()))
                    .or_insert_with(|| WrongAnswer {
                        title: report.exercise.title.clone(),
                        input: a.input.clone(),
                        times: 0,
                        reference_output: a.reference_output.clone(),
                    })
                    .times += 1;
            }
            summary.rows.push(ReportRow {
                student: report.student.clone(),
                file: file.clone(),
                error: None,
                title: report.exercise.title.clone(),
                exercise_id: report.exercise_id.clone(),
                right: report.score.right,
                total: report.score.total,
                fix: report.fix.as_ref().map(|f| FixFigures {
                    all_pass: f.first_difference.is_none(),
                    labelled_passed: f.labelled_passed,
                    labelled_total: f.labelled_total,
                    fresh_passed: f.fresh_passed,
                    fresh_total: f.fresh_total,
                    checked: f.figures(),
                }),
                genuine: verification.is_genuine(),
                problems: verification.problems,
                time_spent_ms: report.time_spent_ms,
            });
        }
        let mut common: Vec<WrongAnswer> = wrong.into_values().collect();
        // Most often first; ties in a stable order (title, then input).
        common.sort_by(|a, b| {
            b.times
                .cmp(&a.times)
                .then_with(|| a.title.cmp(&b.title))
                .then_with(|| a.input.cmp(&b.input))
        });
        common.truncate(COMMON_WRONG_SHOWN);
        summary.common_wrong = common;
        summary
    }

    /// Readable reports.
    pub fn readable(&self) -> usize {
        self.rows.iter().filter(|r| r.error.is_none()).count()
    }

    /// The reports every figure is made of: readable and genuine.
    pub fn counted(&self) -> impl Iterator<Item = &ReportRow> {
        self.rows.iter().filter(|r| r.counts())
    }

    /// The reports kept out of every figure (unreadable or tampered), listed apart.
    pub fn set_aside(&self) -> impl Iterator<Item = &ReportRow> {
        self.rows.iter().filter(|r| !r.counts())
    }

    /// Counted reports whose fix passes everywhere.
    pub fn fixed(&self) -> usize {
        self.counted().filter(|r| r.fixed()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::report::{FixOrigin, Work};
    use crate::exercise::tests::{answered, max_exercise};
    use crate::exercise::Exercise;
    use crate::session::Session;

    fn report_json(e: &Exercise, s: &Session, fix: Option<&str>, student: &str) -> String {
        let work = Work {
            session: s,
            fix: fix.map(|f| (FixOrigin::Hand, f)),
            fresh: 30,
            systematic: true,
            time_spent_ms: 60_000,
            student,
        };
        Report::build(e, &work).expect("builds").to_json()
    }

    #[test]
    fn rows_accuracy_fixed_share_tampering_and_common_wrong_answers() {
        let e = max_exercise();
        let all_right = answered(&e, 3, |_| false);
        let first_wrong = answered(&e, 3, |i| i == 0);
        let good = report_json(&e, &all_right, Some(&e.reference), "Ana Ávila");
        let partial = report_json(&e, &first_wrong, None, "");
        let also_wrong = report_json(&e, &first_wrong, Some(&e.buggy), "Cy");
        // A student who claims every answer was right.
        let mut forged: serde_json::Value = serde_json::from_str(&also_wrong).expect("json");
        forged["score"]["right"] = forged["score"]["total"].clone();
        let files = vec![
            ("ana.json".to_string(), good),
            ("ben.json".to_string(), partial),
            ("cy.json".to_string(), forged.to_string()),
            ("junk.json".to_string(), "{not json".to_string()),
        ];
        let class = ClassSummary::from_files(&files);
        assert_eq!(class.rows.len(), 4);
        assert_eq!(class.readable(), 3);
        let [ana, ben, cy, junk] = &class.rows[..] else {
            panic!("four rows")
        };
        assert!(ana.genuine && ana.fixed() && ana.label_accuracy() == Some(1.0));
        // Rows are named by the student, or by the file when the report has no name.
        assert_eq!(
            (ana.student.as_str(), ana.who()),
            ("Ana Ávila", "Ana Ávila")
        );
        assert_eq!((ben.student.as_str(), ben.who()), ("", "ben.json"));
        assert_eq!(cy.who(), "Cy");
        assert_eq!(junk.who(), "junk.json");
        assert!(ben.genuine && ben.fix.is_none() && ben.label_accuracy() < Some(1.0));
        assert!(!cy.genuine && !cy.problems.is_empty(), "{cy:?}");
        assert!(!cy.fixed(), "the buggy program is no fix");
        assert!(junk.error.is_some() && junk.label_accuracy().is_none());
        assert_eq!(class.fixed(), 1);
        // Cy's forged report and the junk file count nowhere, and say why.
        let counted: Vec<&str> = class.counted().map(|r| r.who()).collect();
        assert_eq!(counted, ["Ana Ávila", "ben.json"]);
        let aside: Vec<String> = class
            .set_aside()
            .map(|r| r.set_aside_because().expect("a reason"))
            .collect();
        assert_eq!(aside.len(), 2);
        assert!(aside[0].starts_with("tampered: score"), "{aside:?}");
        assert!(aside[1].starts_with("cannot be read"), "{aside:?}");
        assert_eq!(ana.set_aside_because(), None);
        // Ben got the first question wrong; Cy's forged copy of the same answers is not counted.
        let top = class.common_wrong.first().expect("a wrong answer");
        assert_eq!(top.times, 1);
        assert_eq!(top.input, first_wrong.answers[0].input);
        // The summary, as the worker sends it, keeps the names.
        let json = serde_json::to_string(&class).expect("json");
        let again: ClassSummary = serde_json::from_str(&json).expect("reads");
        assert_eq!(again, class);
    }

    #[test]
    fn a_name_copied_onto_another_students_report_shows_as_tampered() {
        let e = max_exercise();
        let ana = report_json(&e, &answered(&e, 3, |_| false), Some(&e.reference), "Ana");
        let mut copied: serde_json::Value = serde_json::from_str(&ana).expect("json");
        copied["student"] = "Cy".into();
        let class = ClassSummary::from_files(&[
            ("ana.json".to_string(), ana),
            ("cy.json".to_string(), copied.to_string()),
        ]);
        let [ana, cy] = &class.rows[..] else {
            panic!("two rows")
        };
        assert!(ana.genuine, "{ana:?}");
        assert_eq!(cy.who(), "Cy", "the row shows the name the file claims");
        assert!(!cy.genuine, "{cy:?}");
        assert!(cy.problems.iter().any(|p| p.contains("seal")), "{cy:?}");
        // Every figure in it is Ana's and recomputes: only the name gives it away.
        assert_eq!(cy.problems.len(), 1, "{cy:?}");
    }
}
