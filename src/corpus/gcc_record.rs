//! What gcc-built binaries printed on each corpus test, recorded once by `fixloop corpus record-gcc`, so that `corpus check` compares exact outputs also where gcc is absent.
//!
//! The benchmark JSON records only gcc's pass/fail verdicts, and a wrong number on a test
//! that fails either way hides behind them. A record holds, per subject, program and test
//! (in [`Subject::all_tests`] order), how the binary's run ended and its exact stdout.
//! Each subject's record carries a [`fingerprint`] of its programs and tests: a subject
//! that changed since it was recorded is never compared with a stale record. The text is
//! JSON Lines (a header, then one line per subject), stored zlib-compressed; a run that
//! exited with status 0, printed exactly the expected stdout and printed the same on a
//! second run is stored as `null`, so the golden runs mostly cost nothing.

use crate::corpus::{Subject, TestCase, Which};
use crate::lang::{Execution, Outcome};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The header's `format` value.
pub const FORMAT: &str = "fixloop-gcc-outputs";
/// The header's `version` value this build reads and writes.
pub const VERSION: u32 = 1;
/// Largest decompressed record accepted (bytes).
const MAX_TEXT: usize = 256 << 20;

/// How a gcc-built binary's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GccEnd {
    /// It exited with this status.
    Exit(i32),
    /// A signal ended it (e.g. 11, a segmentation fault).
    Signal(i32),
    /// The recorder killed it at its time limit.
    Timeout,
}

impl std::fmt::Display for GccEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GccEnd::Exit(n) => write!(f, "exit {n}"),
            GccEnd::Signal(s) => write!(f, "signal {s}"),
            GccEnd::Timeout => write!(f, "timeout"),
        }
    }
}

/// One test's run of a gcc-built binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GccRun {
    /// How the run ended.
    pub end: GccEnd,
    /// Its exact stdout (cut at the recorder's cap when `truncated`).
    pub stdout: Vec<u8>,
    /// A second run ended the same way and printed the same bytes.
    pub stable: bool,
    /// The output went past the recorder's cap.
    pub truncated: bool,
}

impl GccRun {
    /// Whether the binary ended normally (any exit status, as [`Execution::exited`]).
    pub fn exited(&self) -> bool {
        matches!(self.end, GccEnd::Exit(_))
    }

    /// The run as an [`Execution`] (no steps, no coverage), to judge it by the same
    /// verdict rules as ours.
    pub fn as_execution(&self) -> Execution {
        Execution {
            stdout: self.stdout.clone(),
            outcome: match self.end {
                GccEnd::Exit(n) => Outcome::Exit(n),
                GccEnd::Timeout => Outcome::Timeout,
                GccEnd::Signal(s) => Outcome::RuntimeError {
                    line: 0,
                    message: format!("signal {s}"),
                },
            },
            steps: 0,
            undefined: None,
            coverage: None,
        }
    }

    /// Whether our run `ours` did exactly what this one did: both ended normally with
    /// the same stdout bytes, or neither ended normally (a crashed binary's buffered
    /// output is lost, so what it printed is not compared).
    pub fn agrees_with(&self, ours: &Execution) -> bool {
        match (self.exited(), ours.exited()) {
            (true, true) => self.stdout == ours.stdout,
            (false, false) => true,
            _ => false,
        }
    }
}

/// The exact stdout a test expects: IntroClass's `expected_stdout`, else `output`.
pub fn expected_stdout(test: &TestCase) -> &str {
    test.expected_stdout.as_deref().unwrap_or(&test.output)
}

/// A fingerprint of a subject's programs and tests (16 hex digits): a record is used
/// only for a subject with the same fingerprint.
pub fn fingerprint(subject: &Subject) -> String {
    let mut parts: Vec<&[u8]> = vec![
        subject.id.as_bytes(),
        subject.buggy.as_bytes(),
        subject.golden.as_bytes(),
    ];
    for t in subject.all_tests() {
        parts.extend([
            t.name.as_bytes(),
            t.input.as_bytes(),
            t.output.as_bytes(),
            expected_stdout(t).as_bytes(),
        ]);
    }
    format!("{:016x}", crate::fingerprint::of_parts(parts))
}

/// Why a record has no runs to compare for a subject's program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoRuns {
    /// The record has no line for the subject.
    NotRecorded,
    /// The subject changed since it was recorded.
    Stale,
    /// gcc did not compile the program (its first error line).
    NotCompiled(String),
}

/// Errors reading a record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Neither zlib data nor JSON Lines text.
    #[error("not a gcc output record (zlib-compressed JSON Lines): {0}")]
    NotARecord(String),
    /// The header names another format or version.
    #[error("unsupported record header: {0}")]
    Header(String),
    /// A subject line does not parse.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// The first line of a record: what made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// `gcc --version`'s first line.
    pub gcc: String,
    /// The compile command with `X` for the program (a subject's `meta.compile` wins).
    pub compile: String,
    /// Time limit of one run (ms).
    pub timeout_ms: u64,
    /// Largest stdout kept (bytes).
    pub stdout_cap: usize,
}

/// One stored run: `None` in a line stands for an expected, stable, status-0 run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct StoredRun {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end: Option<GccEnd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stdout: Option<String>,
    /// stdout that is not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stdout_base64: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    unstable: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
}

/// One program's runs in a line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct StoredProgram {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    compile_error: Option<String>,
    #[serde(default)]
    runs: Vec<Option<StoredRun>>,
}

/// One subject's line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct StoredSubject {
    id: String,
    fingerprint: String,
    buggy: StoredProgram,
    golden: StoredProgram,
}

impl StoredProgram {
    fn new(subject: &Subject, runs: Result<Vec<GccRun>, String>) -> StoredProgram {
        let runs = match runs {
            Ok(r) => r,
            Err(e) => {
                return StoredProgram {
                    compile_error: Some(e),
                    runs: Vec::new(),
                }
            }
        };
        let runs = subject
            .all_tests()
            .zip(runs)
            .map(|(t, r)| {
                let expected = r.end == GccEnd::Exit(0)
                    && r.stable
                    && !r.truncated
                    && r.stdout == expected_stdout(t).as_bytes();
                (!expected).then(|| {
                    let (stdout, stdout_base64) = match String::from_utf8(r.stdout) {
                        Ok(s) => (Some(s), None),
                        Err(e) => (
                            None,
                            Some(base64::engine::general_purpose::STANDARD.encode(e.as_bytes())),
                        ),
                    };
                    StoredRun {
                        end: (r.end != GccEnd::Exit(0)).then_some(r.end),
                        stdout,
                        stdout_base64,
                        unstable: !r.stable,
                        truncated: r.truncated,
                    }
                })
            })
            .collect();
        StoredProgram {
            compile_error: None,
            runs,
        }
    }

    fn runs(&self, subject: &Subject) -> Result<Vec<GccRun>, NoRuns> {
        if let Some(e) = &self.compile_error {
            return Err(NoRuns::NotCompiled(e.clone()));
        }
        if self.runs.len() != subject.all_tests().count() {
            return Err(NoRuns::Stale);
        }
        subject
            .all_tests()
            .zip(&self.runs)
            .map(|(t, stored)| {
                let Some(s) = stored else {
                    return Ok(GccRun {
                        end: GccEnd::Exit(0),
                        stdout: expected_stdout(t).as_bytes().to_vec(),
                        stable: true,
                        truncated: false,
                    });
                };
                let stdout = match (&s.stdout, &s.stdout_base64) {
                    (Some(text), _) => text.as_bytes().to_vec(),
                    (None, Some(b)) => base64::engine::general_purpose::STANDARD
                        .decode(b)
                        .map_err(|_| NoRuns::Stale)?,
                    (None, None) => Vec::new(),
                };
                Ok(GccRun {
                    end: s.end.unwrap_or(GccEnd::Exit(0)),
                    stdout,
                    stable: !s.unstable,
                    truncated: s.truncated,
                })
            })
            .collect()
    }
}

/// A record of gcc's runs over one or more corpora.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GccRecord {
    /// What made it.
    pub header: Header,
    subjects: BTreeMap<String, StoredSubject>,
}

impl GccRecord {
    /// An empty record made as `header` says.
    pub fn new(header: Header) -> GccRecord {
        GccRecord {
            header,
            subjects: BTreeMap::new(),
        }
    }

    /// Records `subject`'s runs: per program, its runs in [`Subject::all_tests`] order,
    /// or gcc's compile error.
    pub fn insert(
        &mut self,
        subject: &Subject,
        buggy: Result<Vec<GccRun>, String>,
        golden: Result<Vec<GccRun>, String>,
    ) {
        self.subjects.insert(
            subject.id.clone(),
            StoredSubject {
                id: subject.id.clone(),
                fingerprint: fingerprint(subject),
                buggy: StoredProgram::new(subject, buggy),
                golden: StoredProgram::new(subject, golden),
            },
        );
    }

    /// Adds every subject of `other` (its lines win).
    pub fn extend(&mut self, other: GccRecord) {
        self.subjects.extend(other.subjects);
    }

    /// Subjects recorded.
    pub fn len(&self) -> usize {
        self.subjects.len()
    }

    /// Whether no subject is recorded.
    pub fn is_empty(&self) -> bool {
        self.subjects.is_empty()
    }

    /// gcc's runs of `which` program of `subject`, one per test in [`Subject::all_tests`]
    /// order, or why there are none.
    pub fn runs(&self, subject: &Subject, which: Which) -> Result<Vec<GccRun>, NoRuns> {
        let stored = self.subjects.get(&subject.id).ok_or(NoRuns::NotRecorded)?;
        if stored.fingerprint != fingerprint(subject) {
            return Err(NoRuns::Stale);
        }
        match which {
            Which::Buggy => stored.buggy.runs(subject),
            Which::Golden => stored.golden.runs(subject),
        }
    }

    /// The record as JSON Lines text (subjects in id order).
    pub fn to_text(&self) -> String {
        let mut out = serde_json::to_string(&self.header).unwrap_or_default();
        out.push('\n');
        for s in self.subjects.values() {
            out.push_str(&serde_json::to_string(s).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// The record zlib-compressed, as stored in a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        miniz_oxide::deflate::compress_to_vec_zlib(self.to_text().as_bytes(), 9)
    }

    /// Reads a record from its file's bytes (zlib-compressed or plain JSON Lines).
    pub fn from_bytes(bytes: &[u8]) -> Result<GccRecord, RecordError> {
        if bytes.first() == Some(&b'{') {
            let text =
                std::str::from_utf8(bytes).map_err(|e| RecordError::NotARecord(e.to_string()))?;
            return GccRecord::parse(text);
        }
        let text = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(bytes, MAX_TEXT)
            .map_err(|e| RecordError::NotARecord(format!("{:?}", e.status)))?;
        let text = String::from_utf8(text).map_err(|e| RecordError::NotARecord(e.to_string()))?;
        GccRecord::parse(&text)
    }

    /// Parses JSON Lines text.
    pub fn parse(text: &str) -> Result<GccRecord, RecordError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines
            .next()
            .ok_or_else(|| RecordError::NotARecord("empty".into()))?;
        let header: Header =
            serde_json::from_str(first).map_err(|e| RecordError::Header(e.to_string()))?;
        if header.format != FORMAT || header.version != VERSION {
            return Err(RecordError::Header(format!(
                "{} version {} (this build reads {FORMAT} version {VERSION})",
                header.format, header.version
            )));
        }
        let mut record = GccRecord::new(header);
        for (i, line) in lines {
            let s: StoredSubject = serde_json::from_str(line).map_err(|e| RecordError::Line {
                line: i + 1,
                message: e.to_string(),
            })?;
            record.subjects.insert(s.id.clone(), s);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject() -> Subject {
        Subject::from_json(
            r#"{"id": "s-1", "buggy": "b", "golden": "g", "tests": {
                "train": [{"input": "1\n", "output": "2\n", "name": "t1"}],
                "heldout": [{"input": "3\n", "output": "A", "expected_stdout": "grade A\n", "name": "h1"}]}}"#,
        )
        .expect("subject")
    }

    fn header() -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            gcc: "gcc 12".into(),
            compile: "gcc -std=c99 X.c -o X -lm".into(),
            timeout_ms: 10_000,
            stdout_cap: 1 << 20,
        }
    }

    fn run(end: GccEnd, stdout: &[u8], stable: bool) -> GccRun {
        GccRun {
            end,
            stdout: stdout.to_vec(),
            stable,
            truncated: false,
        }
    }

    #[test]
    fn runs_round_trip_through_the_compressed_text_and_expected_runs_cost_nothing() {
        let s = subject();
        let mut record = GccRecord::new(header());
        let buggy = vec![
            run(GccEnd::Exit(0), b"2809", true),
            run(GccEnd::Signal(11), b"\xff", false),
        ];
        let golden = vec![
            run(GccEnd::Exit(0), b"2\n", true),
            run(GccEnd::Exit(0), b"grade A\n", true),
        ];
        record.insert(&s, Ok(buggy.clone()), Ok(golden.clone()));
        let text = record.to_text();
        assert!(text.contains(r#""golden":{"runs":[null,null]}"#), "{text}");
        assert!(text.contains(r#""end":{"signal":11}"#), "{text}");
        let back = GccRecord::from_bytes(&record.to_bytes()).expect("reads");
        assert_eq!(back, record);
        assert_eq!(back.runs(&s, Which::Buggy), Ok(buggy));
        assert_eq!(back.runs(&s, Which::Golden), Ok(golden));
        assert_eq!(GccRecord::parse(&text).expect("parses"), record);
    }

    #[test]
    fn a_changed_or_unknown_subject_has_no_runs() {
        let s = subject();
        let mut record = GccRecord::new(header());
        record.insert(&s, Err("error: x".into()), Ok(vec![]));
        assert_eq!(
            record.runs(&s, Which::Buggy),
            Err(NoRuns::NotCompiled("error: x".into()))
        );
        // Two tests, no runs recorded: the record does not describe this subject.
        assert_eq!(record.runs(&s, Which::Golden), Err(NoRuns::Stale));
        let mut changed = s.clone();
        changed.golden.push(' ');
        assert_eq!(record.runs(&changed, Which::Buggy), Err(NoRuns::Stale));
        changed.id = "other".into();
        assert_eq!(
            record.runs(&changed, Which::Buggy),
            Err(NoRuns::NotRecorded)
        );
        assert!(GccRecord::from_bytes(b"junk").is_err());
        let other = text_with_version(2);
        assert!(matches!(
            GccRecord::parse(&other),
            Err(RecordError::Header(_))
        ));
    }

    fn text_with_version(v: u32) -> String {
        let mut h = header();
        h.version = v;
        serde_json::to_string(&h).expect("json")
    }

    #[test]
    fn exact_agreement_compares_bytes_of_normal_runs_only() {
        let ours = |stdout: &[u8], outcome| Execution {
            stdout: stdout.to_vec(),
            outcome,
            steps: 1,
            undefined: None,
            coverage: None,
        };
        let gcc = run(GccEnd::Exit(0), b"16\n", true);
        assert!(gcc.agrees_with(&ours(b"16\n", Outcome::Exit(0))));
        // A trailing space passes the benchmark's comparison but is not the same output.
        assert!(!gcc.agrees_with(&ours(b"16 \n", Outcome::Exit(0))));
        assert!(!gcc.agrees_with(&ours(b"16\n", Outcome::Timeout)));
        let crashed = run(GccEnd::Signal(11), b"", true);
        assert!(crashed.agrees_with(&ours(
            b"partial",
            Outcome::RuntimeError {
                line: 3,
                message: "index out of bounds".into()
            }
        )));
        assert!(!crashed.agrees_with(&ours(b"", Outcome::Exit(0))));
    }
}
