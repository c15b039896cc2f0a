//! What a run of the program under repair shows: stdout, outcome, the answer, and the answer as a number for the oracle.

use super::num::Num;
use crate::lang::Undefined;

/// How a run ended, as far as the oracle is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The program ended normally (any exit code).
    Normal,
    /// The program ran out of fuel.
    Timeout,
    /// The program stopped with a runtime error (division by zero, out of bounds, ...).
    RuntimeError,
}

/// One run of a program on one input.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// Everything the program printed (lossy UTF-8).
    pub stdout: String,
    /// How the run ended.
    pub status: Status,
    /// The answer read from stdout (the whole stdout, or the benchmark pattern's match);
    /// `None` when the pattern finds nothing.
    pub answer: Option<String>,
    /// The answer as the oracle's output variable (see [`OutputEncoder`]).
    pub value: Num,
    /// The first undefined behaviour of C the run went through, if any (the run went on
    /// as gcc -O0 would; the input may be outside what the program was written for).
    pub undefined: Option<Undefined>,
    /// How the interpreter's run ended, in its own terms (which limit stopped it, the
    /// runtime error's line); `None` for runners that are not the interpreter.
    pub outcome: Option<crate::lang::Outcome>,
}

/// Runs the program under repair on an input. Implemented for compiled C programs in
/// [`super::program`]; tests use closures over plain functions.
pub trait Runner {
    /// Runs the program on `input` and observes the result.
    fn run(&mut self, input: &[Num]) -> Observation;
}

impl<F: FnMut(&[Num]) -> Observation> Runner for F {
    fn run(&mut self, input: &[Num]) -> Observation {
        self(input)
    }
}

/// Output code of a run that ran out of fuel.
pub const TIMEOUT_CODE: i64 = -1_000_000_001;
/// Output code of a run that stopped with a runtime error.
pub const RUNTIME_ERROR_CODE: i64 = -1_000_000_002;
/// Output code of a run whose answer is empty or missing.
pub const NO_ANSWER_CODE: i64 = -1_000_000_003;

/// Turns answers into the oracle's output variable, consistently within a session:
///
/// - a timeout, a runtime error and an empty/missing answer get the distinct codes
///   [`TIMEOUT_CODE`], [`RUNTIME_ERROR_CODE`], [`NO_ANSWER_CODE`] (far below ordinary
///   outputs, so `out <= c` atoms separate them);
/// - otherwise the first whitespace-separated token that reads as a number is the value
///   (an `i64` as an integer, anything else as a float);
/// - otherwise the first token is a word: `YES` is 1 and `NO` is 0 (case-insensitive),
///   other words get 2, 3, ... in order of first appearance.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutputEncoder {
    words: Vec<String>,
}

impl OutputEncoder {
    /// A fresh encoder (only YES/NO known).
    pub fn new() -> OutputEncoder {
        OutputEncoder::default()
    }

    /// The value of a run with `status` and `answer`.
    pub fn encode(&mut self, status: Status, answer: Option<&str>) -> Num {
        match status {
            Status::Timeout => return Num::Int(TIMEOUT_CODE),
            Status::RuntimeError => return Num::Int(RUNTIME_ERROR_CODE),
            Status::Normal => {}
        }
        let Some(answer) = answer else {
            return Num::Int(NO_ANSWER_CODE);
        };
        let mut first_word = None;
        for tok in answer.split_whitespace() {
            if let Ok(i) = tok.parse::<i64>() {
                return Num::Int(i);
            }
            if tok.bytes().any(|b| b.is_ascii_digit()) {
                if let Ok(f) = tok.parse::<f64>() {
                    if f.is_finite() {
                        return Num::Float(f);
                    }
                }
            }
            first_word.get_or_insert(tok);
        }
        match first_word {
            None => Num::Int(NO_ANSWER_CODE),
            Some(w) => Num::Int(self.word_code(w)),
        }
    }

    /// The code of a word answer.
    pub fn word_code(&mut self, word: &str) -> i64 {
        let w = word.to_ascii_uppercase();
        match w.as_str() {
            "NO" => 0,
            "YES" => 1,
            _ => match self.words.iter().position(|k| *k == w) {
                Some(i) => i as i64 + 2,
                None => {
                    self.words.push(w);
                    self.words.len() as i64 + 1
                }
            },
        }
    }
}

/// What the oracle's output value of a run stands for when it is a code rather than the
/// number printed: `timeout`, `runtime error`, `no output`, or the word printed (`YES`,
/// `isosceles`). `None` when the value is the number the run printed.
pub fn code_meaning(obs: &Observation) -> Option<String> {
    match obs.status {
        Status::Timeout => return Some("timeout".into()),
        Status::RuntimeError => return Some("runtime error".into()),
        Status::Normal => {}
    }
    let answer = obs.answer.as_deref().unwrap_or("");
    let mut first_word = None;
    for tok in answer.split_whitespace() {
        let number = tok.parse::<i64>().is_ok()
            || (tok.bytes().any(|b| b.is_ascii_digit())
                && tok.parse::<f64>().is_ok_and(f64::is_finite));
        if number {
            return None;
        }
        first_word.get_or_insert(tok);
    }
    Some(first_word.map_or_else(|| "no output".to_string(), str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_numbers_words_and_outcomes() {
        let mut e = OutputEncoder::new();
        assert_eq!(e.encode(Status::Normal, Some(" 42\n")), Num::Int(42));
        assert_eq!(
            e.encode(Status::Normal, Some("3.500000\n")),
            Num::Float(3.5)
        );
        assert_eq!(e.encode(Status::Normal, Some("Yes")), Num::Int(1));
        assert_eq!(e.encode(Status::Normal, Some("NO\n")), Num::Int(0));
        assert_eq!(e.encode(Status::Normal, Some("Draw")), Num::Int(2));
        assert_eq!(e.encode(Status::Normal, Some("Alice")), Num::Int(3));
        assert_eq!(e.encode(Status::Normal, Some("draw")), Num::Int(2));
        assert_eq!(
            e.encode(Status::Normal, Some("  \n")),
            Num::Int(NO_ANSWER_CODE)
        );
        assert_eq!(e.encode(Status::Normal, None), Num::Int(NO_ANSWER_CODE));
        assert_eq!(e.encode(Status::Timeout, Some("1")), Num::Int(TIMEOUT_CODE));
        assert_eq!(
            e.encode(Status::RuntimeError, Some("1")),
            Num::Int(RUNTIME_ERROR_CODE)
        );
        assert_eq!(e.encode(Status::Normal, Some("inf 7")), Num::Int(7));
    }
}
