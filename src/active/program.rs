//! The program under repair as a [`Runner`]: a compiled C program, run under limits, its answer read and encoded.

use super::num::Num;
use super::observe::{Observation, OutputEncoder, Runner, Status};
use super::run_cache::{Run, RunCache};
use crate::corpus::AnswerExtractor;
use crate::lang::{Limits, Outcome, Program};
use std::sync::{Arc, Mutex, PoisonError};

/// How a run ended for the oracle: normal exit, timeout, or any other abnormal end.
pub fn status_of(outcome: &Outcome) -> Status {
    match outcome {
        Outcome::Exit(_) => Status::Normal,
        Outcome::Timeout => Status::Timeout,
        _ => Status::RuntimeError,
    }
}

/// A compiled program with its limits and answer extractor; owns the output encoder of
/// the session, so word answers keep their codes. Optionally remembers its runs
/// ([`ProgramRunner::with_run_cache`]); clones share that memory.
#[derive(Debug, Clone)]
pub struct ProgramRunner {
    program: Program,
    limits: Limits,
    extractor: AnswerExtractor,
    encoder: OutputEncoder,
    cache: Option<Arc<Mutex<RunCache>>>,
}

impl ProgramRunner {
    /// A runner for `program`.
    pub fn new(program: Program, limits: Limits, extractor: AnswerExtractor) -> ProgramRunner {
        ProgramRunner {
            program,
            limits,
            extractor,
            encoder: OutputEncoder::new(),
            cache: None,
        }
    }

    /// This runner remembering up to about `max_bytes` of runs by exact input, shared
    /// with its clones (e.g. every run of one corpus subject): a repeated input is not
    /// run again. Runs are deterministic, so results do not change.
    pub fn with_run_cache(mut self, max_bytes: usize) -> ProgramRunner {
        self.cache = Some(Arc::new(Mutex::new(RunCache::new(max_bytes))));
        self
    }

    /// Hits and misses of the run cache (`None` without one).
    pub fn run_cache_stats(&self) -> Option<(u64, u64)> {
        let cache = self.cache.as_ref()?;
        let cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
        Some((cache.hits, cache.misses))
    }

    /// The same program and answer extractor with `fuel` steps per run (and a fresh
    /// output encoder, and no run cache).
    pub fn with_fuel(&self, fuel: u64) -> ProgramRunner {
        self.with_limits(Limits {
            fuel,
            ..self.limits.clone()
        })
    }

    /// The same program and answer extractor under `limits` (and a fresh output
    /// encoder, and no run cache).
    pub fn with_limits(&self, limits: Limits) -> ProgramRunner {
        ProgramRunner::new(self.program.clone(), limits, self.extractor.clone())
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

    /// Runs the program without encoding (e.g. for a golden program), or recalls the
    /// run from the run cache.
    pub fn execute(&self, input: &[Num]) -> Run {
        let lock =
            |c: &Arc<Mutex<RunCache>>| c.lock().unwrap_or_else(PoisonError::into_inner).get(input);
        if let Some(run) = self.cache.as_ref().and_then(lock) {
            return run;
        }
        let exec = self.program.run_test(input, &self.limits);
        let stdout = String::from_utf8_lossy(&exec.stdout);
        let answer = self.extractor.answer(&stdout);
        let run = (exec, answer);
        if let Some(cache) = &self.cache {
            cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(input, run.clone());
        }
        run
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
            undefined: exec.undefined,
            outcome: Some(exec.outcome),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::compile;

    #[test]
    fn a_cached_runner_answers_a_repeated_input_from_memory_with_the_same_run() {
        let program =
            compile("int main(){int n; scanf(\"%d\",&n); printf(\"%d\\n\", n*n); return 0;}")
                .expect("compiles");
        let plain = ProgramRunner::new(program, Limits::default(), AnswerExtractor::WholeOutput);
        let cached = plain.clone().with_run_cache(1 << 20);
        let shared = cached.clone();
        let input = [Num::Int(7)];
        let first = cached.execute(&input);
        assert_eq!(first, plain.execute(&input));
        assert_eq!(shared.execute(&input), first);
        assert_eq!(cached.run_cache_stats(), Some((1, 1)));
        assert_eq!(plain.run_cache_stats(), None);
        assert_eq!(cached.with_fuel(10).run_cache_stats(), None);
    }
}
