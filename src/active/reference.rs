//! The golden program as labeller: a run is a bug when its answer differs from the golden program's; no answer where the golden one is undefined.

use super::num::Num;
use super::observe::{Observation, Status};
use super::program::{status_of, ProgramRunner};
use super::session::{Label, Labeller, Query};
use crate::compare::outputs_match;
use crate::lang::{Execution, Limits, UndefinedKind};

/// Whether a buggy run differs from the golden run: a different ending (normal /
/// timeout / runtime error), or answers that differ per [`outputs_match`] (a missing
/// answer only matches a missing answer).
pub fn differs(
    buggy_status: Status,
    buggy_answer: Option<&str>,
    golden_status: Status,
    golden_answer: Option<&str>,
) -> bool {
    if buggy_status != golden_status {
        return true;
    }
    match (buggy_answer, golden_answer) {
        (Some(a), Some(b)) => !outputs_match(a, b),
        (None, None) => false,
        _ => true,
    }
}

/// Whether a golden run gives an answer to compare with: it ended normally and, when
/// `undefined_counts`, without going through undefined behaviour of C, or went through
/// it and printed the same as `second_opinion`, its run with every undefined result 0
/// ([`Limits::undefined_as_zero`]), computed only when asked for; but a number read that
/// does not fit its type always counts. Otherwise the input is outside what the golden
/// program handles (a number it cannot read, an array overrun, an overflow that changes
/// the answer, a loop too long for the fuel), and whatever it printed is no reference.
pub fn defined(
    golden: &Execution,
    undefined_counts: bool,
    second_opinion: impl FnOnce() -> Execution,
) -> bool {
    if !golden.exited() {
        return false;
    }
    let Some(undefined) = golden.undefined.filter(|_| undefined_counts) else {
        return true;
    };
    if undefined.what == UndefinedKind::InputOutOfRange {
        return false;
    }
    let other = second_opinion();
    other.exited() && other.stdout == golden.stdout
}

/// Labels by running the golden (fixed) program: "bug" when the buggy run's answer
/// differs from the golden one; the expected output is the golden answer (the whole
/// stdout for Codeflaws, the extracted answer for IntroClass). Where the golden run has
/// no defined answer ([`defined`]) it does not answer, as a person told an input is
/// invalid would skip it, unless [`ReferenceLabeller::answering_undefined`] is set.
/// Undefined behaviour counts when the golden output changes with it, unless the golden
/// program goes through it on an input known to be valid
/// ([`ReferenceLabeller::knowing_valid`]).
#[derive(Debug, Clone)]
pub struct ReferenceLabeller {
    golden: ProgramRunner,
    /// The golden program with every undefined result 0 (no run cache).
    golden_zero: ProgramRunner,
    answer_undefined: bool,
    undefined_counts: bool,
    style: Answerer,
    /// Questions answered.
    pub asked: usize,
}

/// How a simulated user answers the page's questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Answerer {
    /// Like a person at the page: Bug or Not a bug on each run, an output only where a
    /// question asks for one (the failing input's expected output left blank).
    #[default]
    Person,
    /// The ideal user of the earlier figures: every Bug answer carries the correct output,
    /// and so does the failing input.
    Golden,
}

impl Answerer {
    /// The name `--answerer` takes.
    pub fn name(self) -> &'static str {
        match self {
            Answerer::Person => "person",
            Answerer::Golden => "golden",
        }
    }
}

impl ReferenceLabeller {
    /// A labeller running `golden` (with the same limits and answer extractor as the
    /// buggy program).
    pub fn new(golden: ProgramRunner) -> ReferenceLabeller {
        ReferenceLabeller {
            golden_zero: golden.with_limits(Limits {
                undefined_as_zero: true,
                ..golden.limits().clone()
            }),
            golden,
            answer_undefined: false,
            undefined_counts: true,
            style: Answerer::Golden,
            asked: 0,
        }
    }

    /// This labeller answering as `style`: a [`Answerer::Person`] gives no output with a
    /// Bug label ([`Labeller::label`]) and none unasked for the failing input
    /// ([`ReferenceLabeller::volunteered_output`]); asked for one
    /// ([`ReferenceLabeller::right_output`]), it gives it. New labellers answer as
    /// [`Answerer::Golden`].
    pub fn answering_as(mut self, style: Answerer) -> ReferenceLabeller {
        self.style = style;
        self
    }

    /// How this labeller answers.
    pub fn style(&self) -> Answerer {
        self.style
    }

    /// The output this user types for `input` without being asked (the failing input's
    /// "expected output" box): the right output for [`Answerer::Golden`], nothing for a
    /// [`Answerer::Person`].
    pub fn volunteered_output(&self, input: &[Num]) -> Option<String> {
        match self.style {
            Answerer::Golden => self.right_output(input),
            Answerer::Person => None,
        }
    }

    /// This labeller answering also where the golden run has no defined answer, by
    /// comparing with whatever it printed (as Learn2fix's golden labeller does).
    pub fn answering_undefined(mut self, yes: bool) -> ReferenceLabeller {
        self.answer_undefined = yes;
        self
    }

    /// This labeller told that `input` is a valid one (e.g. the failing test the loop
    /// starts from). If the golden program goes through undefined behaviour of C on it
    /// (an overflow it relies on), undefined behaviour is no sign of an invalid input for
    /// this program: from then on only an abnormal end of the golden run is.
    pub fn knowing_valid(mut self, input: &[Num]) -> ReferenceLabeller {
        if self.golden.execute(input).0.undefined.is_some() {
            self.undefined_counts = false;
        }
        self
    }

    /// The right output for `input`, as a person who knows it would give it: the golden
    /// program's answer, or `None` where the golden run has no defined answer (see
    /// [`defined`]) and a person told the input is invalid would skip the question.
    pub fn right_output(&self, input: &[Num]) -> Option<String> {
        let (golden, answer) = self.golden.execute(input);
        let second_opinion = || self.golden_zero.execute(input).0;
        let answers =
            self.answer_undefined || defined(&golden, self.undefined_counts, second_opinion);
        if answers {
            answer
        } else {
            None
        }
    }

    /// The verdict on the buggy run `obs` of `input`, comparing with the golden run
    /// whether or not it is [`defined`].
    pub fn judge(&self, input: &[Num], obs: &Observation) -> Label {
        self.judge_run(input, obs).0
    }

    /// The verdict, and the golden run it compared with.
    fn judge_run(&self, input: &[Num], obs: &Observation) -> (Label, Execution) {
        let (exec, answer) = self.golden.execute(input);
        let gstatus = status_of(&exec.outcome);
        let label = Label {
            bug: differs(
                obs.status,
                obs.answer.as_deref(),
                gstatus,
                answer.as_deref(),
            ),
            expected: answer,
        };
        (label, exec)
    }
}

impl Labeller for ReferenceLabeller {
    fn label(&mut self, query: &Query) -> Option<Label> {
        let (label, golden) = self.judge_run(&query.input, &query.observation);
        // The second opinion runs only here: `judge` and an answering labeller need none.
        let second_opinion = || self.golden_zero.execute(&query.input).0;
        if !self.answer_undefined && !defined(&golden, self.undefined_counts, second_opinion) {
            return None;
        }
        self.asked += 1;
        Some(match self.style {
            Answerer::Golden => label,
            Answerer::Person => Label {
                expected: None,
                ..label
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::active::observe::Runner;
    use crate::active::session::AskReason;
    use crate::corpus::AnswerExtractor;
    use crate::lang::{compile, Limits};

    fn runner(source: &str) -> ProgramRunner {
        let program = compile(source).expect("compiles");
        ProgramRunner::new(program, Limits::default(), AnswerExtractor::WholeOutput)
    }

    /// Doubles n; the golden program's array holds 10 values and its product overflows
    /// for large n.
    const GOLDEN: &str = "int main(){int n, a[10]; scanf(\"%d\",&n); a[n % 1000] = n; \
        printf(\"%d\\n\", n * 1000000 / 500000); return 0;}";
    const BUGGY: &str =
        "int main(){int n; scanf(\"%d\",&n); printf(\"%d\\n\", n + n + (n == 3)); return 0;}";

    fn ask(labeller: &mut ReferenceLabeller, n: i64) -> Option<Label> {
        ask_about(BUGGY, labeller, n)
    }

    fn ask_about(buggy: &str, labeller: &mut ReferenceLabeller, n: i64) -> Option<Label> {
        let input = [Num::Int(n)];
        let query = Query {
            reach: None,
            observation: runner(buggy).run(&input),
            input: input.to_vec(),
            reason: AskReason::OraclePredictsBug,
        };
        labeller.label(&query)
    }

    #[test]
    fn no_answer_where_the_golden_run_is_undefined_unless_asked_for() {
        let mut skipping = ReferenceLabeller::new(runner(GOLDEN));
        assert_eq!(ask(&mut skipping, 3).map(|l| l.bug), Some(true));
        assert_eq!(ask(&mut skipping, 4).map(|l| l.bug), Some(false));
        // 5000 overflows `n * 1000000`; 500 writes past the array.
        assert_eq!(ask(&mut skipping, 5000), None);
        assert_eq!(ask(&mut skipping, 500), None);
        assert_eq!(skipping.asked, 2);
        let mut answering = ReferenceLabeller::new(runner(GOLDEN)).answering_undefined(true);
        assert_eq!(ask(&mut answering, 5000).map(|l| l.bug), Some(true));
        assert!(ask(&mut answering, 500).is_some());
        assert_eq!(answering.asked, 2);
    }

    #[test]
    fn undefined_behaviour_on_a_valid_input_is_no_sign_of_an_invalid_one() {
        // The golden program overflows `n * 1000000` already on the valid input 3000.
        let mut labeller = ReferenceLabeller::new(runner(GOLDEN)).knowing_valid(&[Num::Int(3000)]);
        assert_eq!(ask(&mut labeller, 5000).map(|l| l.bug), Some(true));
        // An abnormal end still is.
        assert_eq!(ask(&mut labeller, 500), None);
        // A valid input without undefined behaviour changes nothing.
        let mut labeller = ReferenceLabeller::new(runner(GOLDEN)).knowing_valid(&[Num::Int(3)]);
        assert_eq!(ask(&mut labeller, 5000), None);
    }

    #[test]
    fn undefined_behaviour_that_does_not_change_the_golden_output_is_answered() {
        // Is n a perfect square? For n < 0, sqrt gives NaN and its conversion to int is
        // undefined, but no int squared equals a negative n: "0" either way.
        let golden = "#include <math.h>\nint main(){int n; scanf(\"%d\",&n); int r = sqrt(n); \
            printf(\"%d\\n\", r * r == n); return 0;}";
        let buggy = "#include <math.h>\nint main(){int n; scanf(\"%d\",&n); int r = sqrt(n); \
            printf(\"%d\\n\", r * r == n || n == -4); return 0;}";
        let mut labeller = ReferenceLabeller::new(runner(golden));
        let bug = |l: &mut ReferenceLabeller, n| ask_about(buggy, l, n).map(|l| l.bug);
        assert_eq!(bug(&mut labeller, -4), Some(true));
        assert_eq!(bug(&mut labeller, -5), Some(false));
        assert_eq!(bug(&mut labeller, 16), Some(false));
        // scanf cannot store 5000000000 in an int: no valid input for this program.
        assert_eq!(bug(&mut labeller, 5_000_000_000), None);
        assert_eq!(labeller.asked, 3);
    }

    #[test]
    fn a_used_value_of_a_function_that_fell_off_its_end_is_undefined_behaviour() {
        // code(n) has no case for 5; the golden program prints code(n) + 1 after a call
        // that returned 8 (what the machine then gives), the buggy one prints 9 always.
        let golden = "#include <stdio.h>\nint code(int n) { if (n < 5) return n; if (n > 5) return 8; }\n\
            int main(){int n; scanf(\"%d\",&n); code(9); printf(\"%d\\n\", code(n) + 1); return 0;}";
        let buggy = "int main(){int n; scanf(\"%d\",&n); printf(\"9\\n\"); return 0;}";
        let bug = |l: &mut ReferenceLabeller, n| ask_about(buggy, l, n).map(|l| l.bug);
        let mut labeller = ReferenceLabeller::new(runner(golden));
        assert_eq!(bug(&mut labeller, 9), Some(false));
        assert_eq!(bug(&mut labeller, 2), Some(true));
        // On 5 the golden output (9) changes when every undefined result is 0 (1).
        assert_eq!(bug(&mut labeller, 5), None);
        assert_eq!(labeller.asked, 2);
        let mut answering = ReferenceLabeller::new(runner(golden)).answering_undefined(true);
        assert_eq!(bug(&mut answering, 5), Some(false));
    }
}
