//! The reference program as judge: grades a student's answers and checks a fix on labelled and fresh inputs.

use crate::active::fuzz::{FuzzConfig, Fuzzer, Range};
use crate::active::num::{format_input, Num};
use crate::active::program::{status_of, ProgramRunner};
use crate::active::reference::differs;
use crate::compare::outputs_match;
use crate::corpus::AnswerExtractor;
use crate::lang::{compile, Limits};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// A program of the exercise (or a student's fix) does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GradeError {
    /// The named program has a compile error (the first one, with its line).
    #[error("the {which} program does not compile: {message}")]
    DoesNotCompile {
        /// "buggy", "reference" or "fixed".
        which: &'static str,
        /// The first diagnostic.
        message: String,
    },
}

/// What really happens on one input: the buggy and the reference program's outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truth {
    /// The buggy program's answer differs from the reference's (or ends differently).
    pub bug: bool,
    /// The buggy program's stdout.
    pub buggy_output: String,
    /// The reference program's stdout: the correct output.
    pub reference_output: String,
}

/// A student's answer, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grade {
    /// What really happens.
    pub truth: Truth,
    /// The verdict ("bug" or "not a bug") is the true one.
    pub right: bool,
    /// When the student typed a correct output: whether it matches the reference output.
    pub expected_right: Option<bool>,
}

/// A fix that still differs from the reference somewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The input (space-separated numbers).
    pub input: String,
    /// The fixed program's stdout.
    pub fix_output: String,
    /// The reference program's stdout.
    pub reference_output: String,
}

/// How a fix fares against the reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixCheck {
    /// Labelled inputs on which the fix agrees with the reference.
    pub labelled_passed: usize,
    /// Labelled inputs checked.
    pub labelled_total: usize,
    /// Fresh fuzzed inputs on which the fix agrees with the reference.
    pub fresh_passed: usize,
    /// Fresh fuzzed inputs checked (fewer than asked when the fuzzer ran dry).
    pub fresh_total: usize,
    /// The first input (labelled first, then fresh) where the fix still differs.
    pub first_difference: Option<Difference>,
}

impl FixCheck {
    /// The fix agrees with the reference on every input checked.
    pub fn all_pass(&self) -> bool {
        self.first_difference.is_none()
    }
}

/// How many fresh inputs [`Grader::check_fix`] draws by default.
pub const DEFAULT_FRESH_INPUTS: usize = 200;

/// The buggy and the reference program of an exercise, compiled once.
#[derive(Debug, Clone)]
pub struct Grader {
    buggy: ProgramRunner,
    reference: ProgramRunner,
    limits: Limits,
}

fn compile_runner(
    source: &str,
    which: &'static str,
    limits: &Limits,
) -> Result<ProgramRunner, GradeError> {
    let program = compile(source).map_err(|e| GradeError::DoesNotCompile {
        which,
        message: e.first_error(),
    })?;
    Ok(ProgramRunner::new(
        program,
        limits.clone(),
        AnswerExtractor::WholeOutput,
    ))
}

impl Grader {
    /// Compiles both programs; every run is bounded by `limits`.
    pub fn new(buggy: &str, reference: &str, limits: Limits) -> Result<Grader, GradeError> {
        Ok(Grader {
            buggy: compile_runner(buggy, "buggy", &limits)?,
            reference: compile_runner(reference, "reference", &limits)?,
            limits,
        })
    }

    /// Runs both programs on `input`.
    pub fn truth(&self, input: &[Num]) -> Truth {
        let (bug, buggy_output, reference_output) =
            compare_runs(&self.buggy, &self.reference, input);
        Truth {
            bug,
            buggy_output,
            reference_output,
        }
    }

    /// Checks an answer: `said_bug` is the verdict, `expected` the correct output the
    /// student typed, if any.
    pub fn grade(&self, input: &[Num], said_bug: bool, expected: Option<&str>) -> Grade {
        let truth = self.truth(input);
        Grade {
            right: said_bug == truth.bug,
            expected_right: expected.map(|e| outputs_match(e, &truth.reference_output)),
            truth,
        }
    }

    /// Checks a hand-written (or repaired) program against the reference on the
    /// labelled inputs, then on up to `fresh` new inputs fuzzed (seeded by `seed`) from
    /// `template` and the labelled inputs, honouring `ranges`.
    pub fn check_fix(
        &self,
        fix_source: &str,
        labelled: &[Vec<Num>],
        template: &[Num],
        ranges: &[Option<Range>],
        fresh: usize,
        seed: u64,
    ) -> Result<FixCheck, GradeError> {
        let fix = compile_runner(fix_source, "fixed", &self.limits)?;
        let mut check = FixCheck {
            labelled_passed: 0,
            labelled_total: labelled.len(),
            fresh_passed: 0,
            fresh_total: 0,
            first_difference: None,
        };
        let record = |input: &[Num], check: &mut FixCheck| -> bool {
            let (differ, fix_output, reference_output) = compare_runs(&fix, &self.reference, input);
            if differ && check.first_difference.is_none() {
                check.first_difference = Some(Difference {
                    input: format_input(input),
                    fix_output,
                    reference_output,
                });
            }
            !differ
        };
        for input in labelled {
            if record(input, &mut check) {
                check.labelled_passed += 1;
            }
        }
        let mut fuzzer = Fuzzer::new(
            template,
            FuzzConfig {
                ranges: ranges.to_vec(),
                ..FuzzConfig::default()
            },
        );
        for input in labelled {
            fuzzer.mark_seen(input);
        }
        let seeds: Vec<&[Num]> = std::iter::once(template)
            .chain(labelled.iter().map(Vec::as_slice))
            .collect();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..fresh {
            let Ok(input) = fuzzer.next(&seeds, &mut rng) else {
                break;
            };
            check.fresh_total += 1;
            if record(&input, &mut check) {
                check.fresh_passed += 1;
            }
        }
        Ok(check)
    }
}

/// Runs `a` and `b` on `input`: whether their answers differ, and both stdouts.
fn compare_runs(a: &ProgramRunner, b: &ProgramRunner, input: &[Num]) -> (bool, String, String) {
    let (ea, aa) = a.execute(input);
    let (eb, ab) = b.execute(input);
    let differ = differs(
        status_of(&ea.outcome),
        aa.as_deref(),
        status_of(&eb.outcome),
        ab.as_deref(),
    );
    (
        differ,
        String::from_utf8_lossy(&ea.stdout).into_owned(),
        String::from_utf8_lossy(&eb.stdout).into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUGGY: &str = "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);\
                         if(a>b) printf(\"%d\\n\",a); else printf(\"%d\\n\",a);return 0;}";
    const REFERENCE: &str = "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);\
                             if(a>b) printf(\"%d\\n\",a); else printf(\"%d\\n\",b);return 0;}";
    const HALF_FIX: &str = "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);\
                            if(a>b) printf(\"%d\\n\",a); else if (b < 100) printf(\"%d\\n\",b); \
                            else printf(\"%d\\n\",a);return 0;}";

    fn grader() -> Grader {
        Grader::new(BUGGY, REFERENCE, Limits::default()).expect("compiles")
    }

    fn ints(v: &[i64]) -> Vec<Num> {
        v.iter().map(|&i| Num::Int(i)).collect()
    }

    #[test]
    fn grades_verdicts_and_typed_outputs() {
        let g = grader();
        let bug = g.grade(&ints(&[1, 5]), true, Some("5"));
        assert!(bug.truth.bug && bug.right);
        assert_eq!(bug.expected_right, Some(true));
        assert_eq!(bug.truth.reference_output, "5\n");
        let wrong = g.grade(&ints(&[7, 5]), true, Some("5"));
        assert!(!wrong.truth.bug && !wrong.right);
        assert_eq!(wrong.expected_right, Some(false));
        let missed = g.grade(&ints(&[2, 3]), false, None);
        assert!(!missed.right && missed.expected_right.is_none());
    }

    #[test]
    fn a_correct_fix_passes_everywhere_and_a_partial_one_is_caught() {
        let g = grader();
        let labelled = vec![ints(&[1, 5]), ints(&[7, 5])];
        let good = g
            .check_fix(REFERENCE, &labelled, &ints(&[1, 5]), &[], 100, 3)
            .expect("compiles");
        assert_eq!((good.labelled_passed, good.labelled_total), (2, 2));
        assert!(good.fresh_total > 50 && good.fresh_passed == good.fresh_total);
        assert!(good.all_pass());
        let partial = g
            .check_fix(HALF_FIX, &labelled, &ints(&[1, 5]), &[], 300, 3)
            .expect("compiles");
        assert_eq!(partial.labelled_passed, 2);
        let d = partial.first_difference.expect("b >= 100 cases differ");
        // The reported input really separates the fix from the reference.
        let input = crate::active::num::parse_input(&d.input).expect("numbers");
        let fix = compile_runner(HALF_FIX, "fixed", &Limits::default()).expect("compiles");
        let (differ, fix_out, ref_out) = compare_runs(&fix, &g.reference, &input);
        assert!(differ && fix_out == d.fix_output && ref_out == d.reference_output);
        assert!(partial.fresh_passed < partial.fresh_total);
    }

    #[test]
    fn fix_checks_replay_with_the_seed_and_honour_ranges() {
        let g = grader();
        let ranges = vec![Some(Range { min: 0.0, max: 9.0 }); 2];
        let a = g
            .check_fix(HALF_FIX, &[], &ints(&[1, 5]), &ranges, 60, 9)
            .expect("ok");
        let b = g
            .check_fix(HALF_FIX, &[], &ints(&[1, 5]), &ranges, 60, 9)
            .expect("ok");
        assert_eq!(a, b);
        // Within 0..=9 the half fix is correct.
        assert!(a.all_pass(), "{a:?}");
        assert!(a.fresh_total > 0);
    }

    #[test]
    fn a_fix_that_does_not_compile_is_a_typed_error() {
        let err = grader()
            .check_fix("int main( {", &[], &ints(&[1, 2]), &[], 1, 1)
            .expect_err("parse error");
        assert!(matches!(
            err,
            GradeError::DoesNotCompile { which: "fixed", .. }
        ));
        assert!(err.to_string().contains("1:11"), "{err}");
    }
}
