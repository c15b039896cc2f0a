//! Corpus check: runs buggy and golden programs of benchmark subjects on all tests and compares
//! our pass/fail verdicts with the ones recorded for gcc-built binaries.
//!
//! Verdict rules (as the benchmarks' scripts): Codeflaws compares the whole stdout, IntroClass
//! the answer extracted by the subject's pattern (case-insensitively when the pattern says so).
//! A run that does not exit normally (timeout, runtime error, limit) fails its test, like a
//! crashed or killed binary. Tests whose recorded buggy output was unstable are skipped for the
//! buggy program and counted separately. The library never reads a clock.
//!
//! With a [`GccRecord`] of what gcc's binaries printed, each run's exact stdout is also
//! compared with gcc's ([`GccRun::agrees_with`]), so a wrong number on a test that fails
//! either way counts as a disagreement. Runs that went through undefined behaviour of C
//! ([`Execution::undefined`]) are counted apart in both figures: C allows any output; a
//! run that undefined behaviour stopped (a read of an uninitialised variable) has no
//! verdict to compare, and is counted in [`Report::undefined_stops`]. So
//! are the exact outputs of programs that print with MSVC's `%I64d`, which the
//! interpreter reads as Codeforces' Windows builds did and glibc does not.

use crate::corpus::gcc_record::{GccRecord, GccRun};
use crate::corpus::{AnswerExtractor, Subject, TestCase, Which};
use crate::lang::{compile, Execution, Limits, Outcome, Program};

/// One test on which our verdict differs from gcc's.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// Subject id.
    pub subject: String,
    /// Buggy or golden.
    pub program: Which,
    /// Test name.
    pub test: String,
    /// The recorded gcc verdict (pass = true).
    pub gcc_passes: bool,
    /// How our run ended.
    pub outcome: String,
    /// Our stdout (lossy UTF-8, truncated to 200 bytes).
    pub stdout: String,
    /// The expected output.
    pub expected: String,
}

/// `part / all`, 1.0 when `all` is 0 (nothing compared, nothing disagrees).
fn share(part: u64, all: u64) -> f64 {
    if all == 0 {
        1.0
    } else {
        part as f64 / all as f64
    }
}

/// One run whose stdout is not exactly what gcc's binary printed.
#[derive(Clone, Debug, PartialEq)]
pub struct StdoutDisagreement {
    /// Subject id.
    pub subject: String,
    /// Buggy or golden.
    pub program: Which,
    /// Test name.
    pub test: String,
    /// How gcc's run ended and what it printed (lossy UTF-8, at most 200 bytes).
    pub gcc: String,
    /// How our run ended and what it printed (the same way).
    pub ours: String,
    /// The undefined behaviour our run went through, if any (then counted apart).
    pub undefined: Option<String>,
}

/// Exact-output agreement with gcc's recorded runs ([`GccRecord`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StdoutReport {
    /// Runs compared (defined behaviour, stable gcc output, gcc's verdict as recorded).
    pub compared: u64,
    /// Of those, runs whose ending and stdout equal gcc's.
    pub agree: u64,
    /// Runs that went through undefined behaviour of C: counted apart.
    pub undefined_compared: u64,
    /// Of those, runs that equal gcc's all the same.
    pub undefined_agree: u64,
    /// Runs of programs that print with MSVC's `%I64d`, counted apart: the interpreter
    /// reads it as `%lld`, as Codeforces' Windows builds did (and as the corpus's recorded
    /// verdicts assume), while glibc reads `I` as a flag and `64` as a field width.
    pub i64_format_compared: u64,
    /// Of those, runs whose ending and stdout equal gcc's exactly.
    pub i64_format_agree: u64,
    /// Of those, runs equal to gcc's once each line's leading blanks are dropped (the
    /// width glibc reads into `%I64d` pads numbers on the left).
    pub i64_format_agree_but_padding: u64,
    /// Runs not compared because gcc's output was unstable (two recorded runs differ, or
    /// the corpus marks the test unstable) or cut at the recorder's cap.
    pub unstable: u64,
    /// Runs whose subject is not in the record, changed since it was recorded, or whose
    /// program gcc did not compile.
    pub not_recorded: u64,
    /// Runs not compared because the recorded gcc run's verdict is not the verdict the
    /// corpus records (the record comes from another machine than the corpus verdicts).
    pub gcc_verdict_differs: u64,
    /// The disagreements, those counted apart included.
    pub disagreements: Vec<StdoutDisagreement>,
}

impl StdoutReport {
    /// Adds another report into this one.
    pub fn merge(&mut self, o: StdoutReport) {
        self.compared += o.compared;
        self.agree += o.agree;
        self.undefined_compared += o.undefined_compared;
        self.undefined_agree += o.undefined_agree;
        self.i64_format_compared += o.i64_format_compared;
        self.i64_format_agree += o.i64_format_agree;
        self.i64_format_agree_but_padding += o.i64_format_agree_but_padding;
        self.unstable += o.unstable;
        self.not_recorded += o.not_recorded;
        self.gcc_verdict_differs += o.gcc_verdict_differs;
        self.disagreements.extend(o.disagreements);
    }

    /// `agree / compared` (1.0 when nothing was compared).
    pub fn agreement(&self) -> f64 {
        share(self.agree, self.compared)
    }
}

/// Results for one subject (and, summed, for a corpus).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Subjects checked.
    pub subjects: usize,
    /// Program runs.
    pub executions: u64,
    /// Runs with a recorded gcc verdict that was compared.
    pub compared: u64,
    /// Of those, runs whose verdict agrees with gcc.
    pub agree: u64,
    /// Of the compared runs, those that went through undefined behaviour of C (they are
    /// in `compared` too, as before undefined behaviour was noted).
    pub undefined_compared: u64,
    /// Of those, runs whose verdict agrees with gcc.
    pub undefined_agree: u64,
    /// Runs with a recorded gcc verdict that undefined behaviour stopped (a read of an
    /// uninitialised variable, [`Execution::stopped_by_undefined`]): not compared, since
    /// gcc's binary went on with whatever the memory held.
    pub undefined_stops: u64,
    /// Runs skipped from the comparison because gcc's output was unstable.
    pub unstable_skipped: u64,
    /// Runs without a recorded gcc verdict (IntroClass golden programs).
    pub unrecorded: u64,
    /// Of the unrecorded runs, those that pass the expected output.
    pub unrecorded_pass: u64,
    /// Programs that do not compile: (subject, program, first diagnostic).
    pub unsupported: Vec<(String, Which, String)>,
    /// Recorded verdicts not compared because the program did not compile.
    pub unsupported_verdicts: u64,
    /// Runs that timed out.
    pub timeouts: u64,
    /// Runs that ended in a runtime error or a limit other than fuel.
    pub runtime_errors: u64,
    /// Runs that panicked (must be 0).
    pub panics: u64,
    /// Total VM steps of all runs.
    pub steps: u64,
    /// The disagreements.
    pub disagreements: Vec<Disagreement>,
    /// Exact outputs against gcc's recorded runs (all zero without a record).
    pub stdout: StdoutReport,
}

impl Report {
    /// Adds another report into this one.
    pub fn merge(&mut self, o: Report) {
        self.subjects += o.subjects;
        self.executions += o.executions;
        self.compared += o.compared;
        self.agree += o.agree;
        self.undefined_compared += o.undefined_compared;
        self.undefined_agree += o.undefined_agree;
        self.undefined_stops += o.undefined_stops;
        self.unstable_skipped += o.unstable_skipped;
        self.unrecorded += o.unrecorded;
        self.unrecorded_pass += o.unrecorded_pass;
        self.unsupported.extend(o.unsupported);
        self.unsupported_verdicts += o.unsupported_verdicts;
        self.timeouts += o.timeouts;
        self.runtime_errors += o.runtime_errors;
        self.panics += o.panics;
        self.steps += o.steps;
        self.disagreements.extend(o.disagreements);
        self.stdout.merge(o.stdout);
    }

    /// `agree / compared` (1.0 when nothing was compared).
    pub fn agreement(&self) -> f64 {
        share(self.agree, self.compared)
    }

    /// Agreement counting the verdicts of programs that did not compile as disagreements.
    pub fn agreement_including_unsupported(&self) -> f64 {
        share(self.agree, self.compared + self.unsupported_verdicts)
    }
}

pub use crate::compare::outputs_match;

/// Whether an execution passes a test of `subject` (see the module doc).
pub fn passes(
    subject: &Subject,
    extractor: &AnswerExtractor,
    test: &TestCase,
    exec: &Execution,
) -> bool {
    if !exec.exited() {
        return false;
    }
    let stdout = String::from_utf8_lossy(&exec.stdout);
    match extractor {
        AnswerExtractor::WholeOutput => outputs_match(&stdout, &test.output),
        AnswerExtractor::Pattern {
            alternatives,
            all_matches,
        } => {
            // A program that prints several different answers (e.g. two grades) fails, as
            // in the recorded IntroClass verdicts; repeating the same answer is fine.
            if !*all_matches {
                let mut found = alternatives
                    .iter()
                    .flat_map(|re| re.captures_iter(&stdout))
                    .map(|c| {
                        c.iter()
                            .skip(1)
                            .flatten()
                            .map(|m| m.as_str().to_lowercase())
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>();
                found.dedup();
                if found.len() > 1 {
                    return false;
                }
            }
            let Some(answer) = extractor.answer(&stdout) else {
                return false;
            };
            let ci = subject
                .oracle
                .as_ref()
                .and_then(|o| o.pattern.as_deref())
                .is_some_and(|p| p.contains("case-insensitive"));
            if ci {
                outputs_match(&answer.to_lowercase(), &test.output.to_lowercase())
            } else {
                outputs_match(&answer, &test.output)
            }
        }
    }
}

/// Runs one program on one input; `Err` carries a panic message (the CLI catches panics).
pub type Runner<'r> = dyn Fn(&Program, &[u8], &Limits) -> Result<Execution, String> + Sync + 'r;

/// The plain runner (no panic catching).
pub fn plain_runner(p: &Program, stdin: &[u8], limits: &Limits) -> Result<Execution, String> {
    Ok(p.run(stdin, limits))
}

/// Lossy UTF-8 of at most 200 bytes of `out`.
fn shown(out: &[u8]) -> String {
    String::from_utf8_lossy(&out[..out.len().min(200)]).into_owned()
}

/// Compares our run `ours` of `test` with gcc's recorded run of it (exact outputs).
#[allow(clippy::too_many_arguments)]
fn compare_stdout(
    r: &mut StdoutReport,
    subject: &Subject,
    extractor: &AnswerExtractor,
    which: Which,
    test: &TestCase,
    recorded: Option<bool>,
    unstable_in_corpus: bool,
    uses_i64_format: bool,
    gcc: &GccRun,
    ours: &Execution,
) {
    if unstable_in_corpus || !gcc.stable || gcc.truncated {
        r.unstable += 1;
        return;
    }
    if recorded.is_some_and(|v| v != passes(subject, extractor, test, &gcc.as_execution())) {
        r.gcc_verdict_differs += 1;
        return;
    }
    let agree = gcc.agrees_with(ours);
    // Runs of an `%I64d` program count apart, and only a difference beyond glibc's
    // padding is listed.
    let listed = if uses_i64_format {
        let unpadded = |out: &[u8]| {
            String::from_utf8_lossy(out)
                .lines()
                .map(|l| l.trim_start().to_string())
                .collect::<Vec<_>>()
        };
        let but_padding = agree
            || (gcc.exited() && ours.exited() && unpadded(&gcc.stdout) == unpadded(&ours.stdout));
        r.i64_format_compared += 1;
        r.i64_format_agree += u64::from(agree);
        r.i64_format_agree_but_padding += u64::from(but_padding);
        !but_padding
    } else if ours.undefined.is_some() {
        r.undefined_compared += 1;
        r.undefined_agree += u64::from(agree);
        !agree
    } else {
        r.compared += 1;
        r.agree += u64::from(agree);
        !agree
    };
    if listed {
        r.disagreements.push(StdoutDisagreement {
            subject: subject.id.clone(),
            program: which,
            test: test.name.clone(),
            gcc: format!("{}: {:?}", gcc.end, shown(&gcc.stdout)),
            ours: format!("{}: {:?}", ours.outcome, shown(&ours.stdout)),
            undefined: ours.undefined.map(|u| u.to_string()),
        });
    }
}

/// Checks one subject: both programs on all train and held-out tests, against gcc's
/// recorded verdicts and, given `gcc`, against its recorded outputs.
pub fn check_subject(
    subject: &Subject,
    limits: &Limits,
    run: &Runner,
    gcc: Option<&GccRecord>,
) -> Report {
    let mut r = Report {
        subjects: 1,
        ..Report::default()
    };
    let extractor = match subject.answer_extractor() {
        Ok(e) => e,
        Err(e) => {
            r.unsupported.push((
                subject.id.clone(),
                Which::Buggy,
                format!("bad answer pattern: {e}"),
            ));
            return r;
        }
    };
    for which in [Which::Buggy, Which::Golden] {
        let source = match which {
            Which::Buggy => &subject.buggy,
            Which::Golden => &subject.golden,
        };
        let unstable = subject.unstable_tests(which.name());
        let recorded = |t: &TestCase| match which {
            Which::Buggy => t.buggy_passes,
            Which::Golden => t.golden_passes,
        };
        let gcc_runs = gcc.map(|g| g.runs(subject, which));
        if let Some(Err(_)) = &gcc_runs {
            r.stdout.not_recorded += subject.all_tests().count() as u64;
        }
        let gcc_runs = gcc_runs.and_then(Result::ok);
        let program = match compile(source) {
            Ok(p) => p,
            Err(e) => {
                r.unsupported
                    .push((subject.id.clone(), which, e.first_error()));
                r.unsupported_verdicts += subject
                    .all_tests()
                    .filter(|t| recorded(t).is_some())
                    .count() as u64;
                continue;
            }
        };
        for (index, test) in subject.all_tests().enumerate() {
            let exec = match run(&program, test.input.as_bytes(), limits) {
                Ok(e) => e,
                Err(msg) => {
                    r.executions += 1;
                    r.panics += 1;
                    r.disagreements.push(Disagreement {
                        subject: subject.id.clone(),
                        program: which,
                        test: test.name.clone(),
                        gcc_passes: recorded(test).unwrap_or(true),
                        outcome: format!("panic: {msg}"),
                        stdout: String::new(),
                        expected: test.output.clone(),
                    });
                    continue;
                }
            };
            r.executions += 1;
            r.steps += exec.steps;
            match exec.outcome {
                Outcome::Exit(_) => {}
                Outcome::Timeout => r.timeouts += 1,
                _ => r.runtime_errors += 1,
            }
            let ours = passes(subject, &extractor, test, &exec);
            let skip = which == Which::Buggy
                && (test.buggy_output_stable == Some(false) || unstable.contains(&test.name));
            if let Some(gcc) = gcc_runs.as_ref().and_then(|g| g.get(index)) {
                compare_stdout(
                    &mut r.stdout,
                    subject,
                    &extractor,
                    which,
                    test,
                    recorded(test),
                    skip,
                    source.contains("%I64"),
                    gcc,
                    &exec,
                );
            }
            match recorded(test) {
                _ if skip => r.unstable_skipped += 1,
                None => {
                    r.unrecorded += 1;
                    r.unrecorded_pass += u64::from(ours);
                }
                Some(_) if exec.stopped_by_undefined() => r.undefined_stops += 1,
                Some(gcc) => {
                    r.compared += 1;
                    if exec.undefined.is_some() {
                        r.undefined_compared += 1;
                        r.undefined_agree += u64::from(gcc == ours);
                    }
                    if gcc == ours {
                        r.agree += 1;
                    } else {
                        r.disagreements.push(Disagreement {
                            subject: subject.id.clone(),
                            program: which,
                            test: test.name.clone(),
                            gcc_passes: gcc,
                            outcome: exec.outcome.to_string(),
                            stdout: shown(&exec.stdout),
                            expected: test.output.clone(),
                        });
                    }
                }
            }
        }
    }
    r
}

/// Checks many subjects on `threads` threads (subjects are split round-robin).
pub fn check_all(
    subjects: &[Subject],
    limits: &Limits,
    run: &Runner,
    gcc: Option<&GccRecord>,
    threads: usize,
) -> Report {
    let threads = threads.max(1);
    let mut total = Report::default();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut r = Report::default();
                    for subj in subjects.iter().skip(t).step_by(threads) {
                        r.merge(check_subject(subj, limits, run, gcc));
                    }
                    r
                })
            })
            .collect();
        for h in handles {
            if let Ok(r) = h.join() {
                total.merge(r);
            } else {
                total.panics += 1;
            }
        }
    });
    total.disagreements.sort_by(|a, b| {
        (&a.subject, a.program.name(), &a.test).cmp(&(&b.subject, b.program.name(), &b.test))
    });
    total.stdout.disagreements.sort_by(|a, b| {
        (&a.subject, a.program.name(), &a.test).cmp(&(&b.subject, b.program.name(), &b.test))
    });
    total
        .unsupported
        .sort_by(|a, b| (&a.0, a.1.name()).cmp(&(&b.0, b.1.name())));
    total
}

/// Subjects read from a folder, and the (file, error) pairs of files that were not subjects.
pub type Loaded = (Vec<Subject>, Vec<(String, String)>);

/// Reads every subject JSON file in `dir` (skipping `manifest.json`), sorted by file name.
/// Returns the subjects and the files that could not be read.
pub fn load_dir(dir: &std::path::Path) -> std::io::Result<Loaded> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "manifest.json"))
        .collect();
    files.sort();
    let mut subjects = vec![];
    let mut bad = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f)?;
        match Subject::from_json(&text) {
            Ok(s) => subjects.push(s),
            Err(e) => bad.push((f.display().to_string(), e.to_string())),
        }
    }
    Ok((subjects, bad))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::gcc_record::{GccEnd, Header, FORMAT, VERSION};

    /// A subject whose buggy program is `buggy`, the golden one prints `n * 2`, with one
    /// failing test (input 3) that gcc's buggy binary printed as `gcc_buggy`.
    fn checked(buggy: &str, gcc_buggy: &[u8]) -> StdoutReport {
        let golden = "#include <stdio.h>\nint main(){int n; scanf(\"%d\",&n); printf(\"%d\\n\", n * 2); return 0;}";
        let subject = Subject::from_json(
            &serde_json::json!({
                "id": "s", "buggy": buggy, "golden": golden,
                "tests": {"train": [{"input": "3\n", "output": "6\n", "name": "t",
                    "buggy_passes": false, "golden_passes": true}]}
            })
            .to_string(),
        )
        .expect("subject");
        let mut record = GccRecord::new(Header {
            format: FORMAT.into(),
            version: VERSION,
            gcc: "gcc".into(),
            compile: "gcc X.c -o X".into(),
            timeout_ms: 1000,
            stdout_cap: 1000,
        });
        let run = |out: &[u8]| GccRun {
            end: GccEnd::Exit(0),
            stdout: out.to_vec(),
            stable: true,
            truncated: false,
        };
        record.insert(&subject, Ok(vec![run(gcc_buggy)]), Ok(vec![run(b"6\n")]));
        let r = check_subject(&subject, &Limits::default(), &plain_runner, Some(&record));
        assert_eq!((r.compared, r.agree), (2, 2), "both verdicts agree");
        r.stdout
    }

    #[test]
    fn a_wrong_number_on_a_failing_test_is_an_exact_output_disagreement() {
        let buggy = "#include <stdio.h>\nint main(){int n; scanf(\"%d\",&n); printf(\"%d\\n\", n + 1); return 0;}";
        let o = checked(buggy, b"5\n");
        assert_eq!((o.compared, o.agree), (2, 1));
        assert_eq!(o.disagreements.len(), 1);
        assert_eq!(o.disagreements[0].gcc, "exit 0: \"5\\n\"");
        let o = checked(buggy, b"4\n");
        assert_eq!((o.compared, o.agree), (2, 2));
    }

    #[test]
    fn undefined_behaviour_and_i64_formats_are_counted_apart() {
        // pos() falls off its end and its value is used: gcc printed its own eax.
        let buggy = "#include <stdio.h>\nint pos(int n){ if (n == 1) return 1; }\n\
            int main(){int n; scanf(\"%d\",&n); printf(\"%d\\n\", pos(n)); return 0;}";
        let o = checked(buggy, b"2809\n");
        assert_eq!((o.compared, o.agree), (1, 1));
        assert_eq!((o.undefined_compared, o.undefined_agree), (1, 0));
        assert!(o.disagreements[0].undefined.is_some());
        // glibc pads %I64d to a width of 64; the interpreter prints it as %lld.
        let buggy = "#include <stdio.h>\nint main(){long long n; scanf(\"%I64d\",&n); printf(\"%I64d\\n\", n); return 0;}";
        let padded = format!("{:>64}\n", 3);
        let o = checked(buggy, padded.as_bytes());
        assert_eq!((o.compared, o.i64_format_compared), (1, 1));
        assert_eq!((o.i64_format_agree, o.i64_format_agree_but_padding), (0, 1));
        assert!(o.disagreements.is_empty());
        let o = checked(buggy, format!("{:>64}\n", 4).as_bytes());
        assert_eq!(o.i64_format_agree_but_padding, 0);
        assert_eq!(o.disagreements.len(), 1);
    }
}
