//! The golden program as labeller: a run is a bug when its answer differs from the golden program's.

use super::num::Num;
use super::observe::{Observation, Status};
use super::program::{status_of, ProgramRunner};
use super::session::{Label, Labeller, Query};
use crate::compare::outputs_match;

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

/// Labels by running the golden (fixed) program: "bug" when the buggy run's answer
/// differs from the golden one; the expected output is the golden answer (the whole
/// stdout for Codeflaws, the extracted answer for IntroClass).
#[derive(Debug, Clone)]
pub struct ReferenceLabeller {
    golden: ProgramRunner,
    /// Questions answered.
    pub asked: usize,
}

impl ReferenceLabeller {
    /// A labeller running `golden` (with the same limits and answer extractor as the
    /// buggy program).
    pub fn new(golden: ProgramRunner) -> ReferenceLabeller {
        ReferenceLabeller { golden, asked: 0 }
    }

    /// The verdict on the buggy run `obs` of `input`.
    pub fn judge(&self, input: &[Num], obs: &Observation) -> Label {
        let (exec, answer) = self.golden.execute(input);
        let gstatus = status_of(&exec.outcome);
        Label {
            bug: differs(
                obs.status,
                obs.answer.as_deref(),
                gstatus,
                answer.as_deref(),
            ),
            expected: answer,
        }
    }
}

impl Labeller for ReferenceLabeller {
    fn label(&mut self, query: &Query) -> Label {
        self.asked += 1;
        self.judge(&query.input, &query.observation)
    }
}
