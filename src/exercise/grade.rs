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
    /// Fresh fuzzed inputs checked (fewer than asked when the fuzzer ran dry; none when
    /// every input of the ranges was checked).
    pub fresh_total: usize,
    /// Inputs chosen as a course's grader would (see [`systematic_inputs`]) on which the
    /// fix agrees with the reference.
    pub systematic_passed: usize,
    /// Those inputs checked.
    pub systematic_total: usize,
    /// The systematic inputs are every input the ranges allow.
    pub whole_range: bool,
    /// The first input (labelled, then systematic, then fresh) where the fix still
    /// differs.
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

/// Ranges with at most this many inputs in all are checked whole.
pub const WHOLE_RANGE_LIMIT: u64 = 4096;

/// Grids of boundary values larger than this are checked one position at a time.
const GRID_LIMIT: usize = 1024;

/// The inputs a course's grader would check a fix on, from the failing input `template`
/// and the author's `ranges`: every input of the ranges when every position is a ranged
/// integer and they hold at most [`WHOLE_RANGE_LIMIT`] inputs (`true`); otherwise the grid
/// of each position's boundary values (a range's ends, their neighbours and its middle;
/// the template's value, its neighbours and 0 where no range is set), or, when that grid
/// is larger than [`GRID_LIMIT`], the template with one position at a time set to each of
/// its boundary values (`false`).
pub fn systematic_inputs(template: &[Num], ranges: &[Option<Range>]) -> (Vec<Vec<Num>>, bool) {
    if template.is_empty() {
        return (Vec::new(), false);
    }
    let range = |i: usize| ranges.get(i).copied().flatten();
    let int_bounds = |i: usize| match (template[i], range(i)) {
        (Num::Int(_), Some(r)) if r.min.is_finite() && r.max.is_finite() => {
            let (lo, hi) = (r.min.ceil() as i64, r.max.floor() as i64);
            (lo <= hi).then_some((lo, hi))
        }
        _ => None,
    };
    let bounds: Option<Vec<(i64, i64)>> = (0..template.len()).map(int_bounds).collect();
    if let Some(bounds) = &bounds {
        let count = bounds.iter().try_fold(1u64, |acc, &(lo, hi)| {
            acc.checked_mul(hi.abs_diff(lo) + 1)
                .filter(|&n| n <= WHOLE_RANGE_LIMIT)
        });
        if count.is_some() {
            let all: Vec<Vec<Num>> = bounds
                .iter()
                .map(|&(lo, hi)| (lo..=hi).map(Num::Int).collect())
                .collect();
            return (product(&all), true);
        }
    }
    let values: Vec<Vec<Num>> = (0..template.len())
        .map(|i| boundary_values(template[i], range(i)))
        .collect();
    let grid_size = values
        .iter()
        .try_fold(1usize, |acc, v| acc.checked_mul(v.len()))
        .unwrap_or(usize::MAX);
    if grid_size <= GRID_LIMIT {
        return (product(&values), false);
    }
    let mut inputs: Vec<Vec<Num>> = Vec::new();
    for (i, vs) in values.iter().enumerate() {
        for v in vs {
            let mut input = template.to_vec();
            input[i] = *v;
            if !inputs.contains(&input) {
                inputs.push(input);
            }
        }
    }
    (inputs, false)
}

/// Every input taking, at each position, one of that position's values (the first
/// position varying slowest).
fn product(per_position: &[Vec<Num>]) -> Vec<Vec<Num>> {
    let mut inputs: Vec<Vec<Num>> = vec![Vec::new()];
    for values in per_position {
        inputs = inputs
            .iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push(*v);
                    next
                })
            })
            .collect();
    }
    inputs
}

/// One position's boundary values, ascending and distinct: see [`systematic_inputs`].
fn boundary_values(at: Num, range: Option<Range>) -> Vec<Num> {
    let mut out: Vec<Num> = match (at, range) {
        (Num::Int(_), Some(r)) if r.min.is_finite() && r.max.is_finite() => {
            let (lo, hi) = (r.min.ceil() as i64, r.max.floor() as i64);
            let mid = lo + (hi - lo) / 2;
            [lo, lo + 1, mid, hi - 1, hi]
                .into_iter()
                .filter(|v| (lo..=hi).contains(v))
                .map(Num::Int)
                .collect()
        }
        (Num::Int(v), _) => [v.saturating_sub(1), v, v.saturating_add(1), 0]
            .into_iter()
            .map(Num::Int)
            .filter(|n| range.is_none_or(|r| r.contains(n)))
            .collect(),
        (Num::Float(_), Some(r)) if r.min.is_finite() && r.max.is_finite() => {
            [r.min, (r.min + r.max) / 2.0, r.max]
                .into_iter()
                .map(Num::Float)
                .collect()
        }
        (Num::Float(v), _) => [v, 0.0]
            .into_iter()
            .map(Num::Float)
            .filter(|n| range.is_none_or(|r| r.contains(n)))
            .collect(),
    };
    if out.is_empty() {
        out.push(at);
    }
    out.sort_by(|a, b| a.as_f64().total_cmp(&b.as_f64()));
    out.dedup();
    out
}

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
    /// labelled inputs, then (when `systematic`) on the [`systematic_inputs`] of
    /// `template` and `ranges`, then, unless those were every input of the ranges, on up
    /// to `fresh` new inputs fuzzed (seeded by `seed`) from `template` and the labelled
    /// inputs, honouring `ranges`.
    #[allow(clippy::too_many_arguments)]
    pub fn check_fix(
        &self,
        fix_source: &str,
        labelled: &[Vec<Num>],
        template: &[Num],
        ranges: &[Option<Range>],
        fresh: usize,
        seed: u64,
        systematic: bool,
    ) -> Result<FixCheck, GradeError> {
        let fix = compile_runner(fix_source, "fixed", &self.limits)?;
        let mut check = FixCheck {
            labelled_passed: 0,
            labelled_total: labelled.len(),
            fresh_passed: 0,
            fresh_total: 0,
            systematic_passed: 0,
            systematic_total: 0,
            whole_range: false,
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
        if systematic {
            let (inputs, whole) = systematic_inputs(template, ranges);
            check.whole_range = whole;
            check.systematic_total = inputs.len();
            for input in &inputs {
                if record(input, &mut check) {
                    check.systematic_passed += 1;
                }
            }
            if whole {
                return Ok(check);
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
            .check_fix(REFERENCE, &labelled, &ints(&[1, 5]), &[], 100, 3, false)
            .expect("compiles");
        assert_eq!((good.labelled_passed, good.labelled_total), (2, 2));
        assert!(good.fresh_total > 50 && good.fresh_passed == good.fresh_total);
        assert!(good.all_pass());
        let partial = g
            .check_fix(HALF_FIX, &labelled, &ints(&[1, 5]), &[], 300, 3, false)
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
            .check_fix(HALF_FIX, &[], &ints(&[1, 5]), &ranges, 60, 9, false)
            .expect("ok");
        let b = g
            .check_fix(HALF_FIX, &[], &ints(&[1, 5]), &ranges, 60, 9, false)
            .expect("ok");
        assert_eq!(a, b);
        // Within 0..=9 the half fix is correct.
        assert!(a.all_pass(), "{a:?}");
        assert!(a.fresh_total > 0);
    }

    #[test]
    fn a_fix_wrong_only_far_from_the_tests_is_caught_on_the_whole_range() {
        // `n > 900` is wrong on 901..1000 only, inside the author's range 1..1000.
        let program = |cond: &str| {
            format!(
                "#include <stdio.h>\nint main(){{int n;scanf(\"%d\",&n);\
                 if({cond}) printf(\"YES\\n\"); else printf(\"NO\\n\");return 0;}}"
            )
        };
        let g = Grader::new(&program("n == 8"), &program("n == 7"), Limits::default())
            .expect("compiles");
        let wrong = program("n == 7 || n > 900");
        let range = vec![Some(Range {
            min: 1.0,
            max: 1000.0,
        })];
        let check = g
            .check_fix(&wrong, &[ints(&[7])], &ints(&[7]), &range, 200, 1, true)
            .expect("compiles");
        assert!(check.whole_range);
        assert_eq!(check.systematic_total, 1000);
        assert_eq!(check.systematic_passed, 900);
        assert_eq!(check.fresh_total, 0, "nothing left to fuzz in the range");
        let d = check.first_difference.expect("caught");
        assert_eq!(d.input, "901");
        let right = g
            .check_fix(&program("n == 7"), &[], &ints(&[7]), &range, 200, 1, true)
            .expect("compiles");
        assert!(right.all_pass() && right.systematic_passed == 1000);
    }

    #[test]
    fn large_ranges_get_their_boundary_grid_and_no_range_the_template_neighbours() {
        let wide = Some(Range {
            min: 1.0,
            max: 1000.0,
        });
        let (grid, whole) = systematic_inputs(&ints(&[5, 5, 5]), &[wide, wide, wide]);
        assert!(!whole);
        // 1, 2, 500, 999, 1000 at each of three positions.
        assert_eq!(grid.len(), 125);
        assert!(grid.contains(&ints(&[1, 1000, 500])));
        let (near, whole) = systematic_inputs(&ints(&[7]), &[]);
        assert!(!whole);
        assert_eq!(near, vec![ints(&[0]), ints(&[6]), ints(&[7]), ints(&[8])]);
        // Ten positions: the grid is too large, so one position at a time.
        let (line, _) = systematic_inputs(&ints(&[5; 10]), &[wide; 10]);
        assert!(line.len() <= 10 * 5 && line.len() > 10);
        assert!(line
            .iter()
            .all(|i| i.iter().filter(|&&n| n != Num::Int(5)).count() <= 1));
    }

    #[test]
    fn a_fix_that_does_not_compile_is_a_typed_error() {
        let err = grader()
            .check_fix("int main( {", &[], &ints(&[1, 2]), &[], 1, 1, true)
            .expect_err("parse error");
        assert!(matches!(
            err,
            GradeError::DoesNotCompile { which: "fixed", .. }
        ));
        assert!(err.to_string().contains("1:11"), "{err}");
    }
}
