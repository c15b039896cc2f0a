//! The program under repair as a [`Runner`]: a compiled C program, run under limits, its answer read and encoded.

use super::num::Num;
use super::observe::{Observation, OutputEncoder, Runner, Status};
use crate::corpus::AnswerExtractor;
use crate::lang::{Execution, Limits, Outcome, Program};

/// How a run ended for the oracle: normal exit, timeout, or any other abnormal end.
pub fn status_of(outcome: &Outcome) -> Status {
    match outcome {
        Outcome::Exit(_) => Status::Normal,
        Outcome::Timeout => Status::Timeout,
        _ => Status::RuntimeError,
    }
}

/// A compiled program with its limits and answer extractor; owns the output encoder of
/// the session, so word answers keep their codes.
#[derive(Debug, Clone)]
pub struct ProgramRunner {
    program: Program,
    limits: Limits,
    extractor: AnswerExtractor,
    encoder: OutputEncoder,
}

impl ProgramRunner {
    /// A runner for `program`.
    pub fn new(program: Program, limits: Limits, extractor: AnswerExtractor) -> ProgramRunner {
        ProgramRunner {
            program,
            limits,
            extractor,
            encoder: OutputEncoder::new(),
        }
    }

    /// The same program and answer extractor with `fuel` steps per run (and a fresh
    /// output encoder).
    pub fn with_fuel(&self, fuel: u64) -> ProgramRunner {
        ProgramRunner::new(
            self.program.clone(),
            Limits {
                fuel,
                ..self.limits.clone()
            },
            self.extractor.clone(),
        )
    }

    /// This runner with `encoder` in place of its own (e.g. a session's word codes on
    /// a runner with other limits).
    pub fn with_encoder(mut self, encoder: OutputEncoder) -> ProgramRunner {
        self.encoder = encoder;
        self
    }

    /// The execution limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The compiled program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The session's output encoder (word answers keep their codes), e.g. for the
    /// repair engine's view of the learned oracle.
    pub fn encoder(&self) -> &OutputEncoder {
        &self.encoder
    }

    /// Runs the program without encoding (e.g. for a golden program).
    pub fn execute(&self, input: &[Num]) -> (Execution, Option<String>) {
        let exec = self.program.run_test(input, &self.limits);
        let stdout = String::from_utf8_lossy(&exec.stdout);
        let answer = self.extractor.answer(&stdout);
        (exec, answer)
    }
}

impl Runner for ProgramRunner {
    fn run(&mut self, input: &[Num]) -> Observation {
        let (exec, answer) = self.execute(input);
        let status = status_of(&exec.outcome);
        Observation {
            value: self.encoder.encode(status, answer.as_deref()),
            stdout: String::from_utf8_lossy(&exec.stdout).into_owned(),
            status,
            answer,
        }
    }
}
