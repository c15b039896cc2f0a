//! Test inputs as numbers: parsing an input line and exact keys for deduplication.

pub use crate::lang::Num;

/// A hashable key for a value: integers by value, floats by bit pattern (`-0.0` folded
/// into `0.0`, so equal values give equal keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NumKey {
    /// Key of an integer.
    Int(i64),
    /// Key of a float: its bits.
    Float(u64),
}

/// The deduplication key of one value.
pub fn key(n: &Num) -> NumKey {
    match *n {
        Num::Int(i) => NumKey::Int(i),
        Num::Float(f) => NumKey::Float(if f == 0.0 { 0 } else { f.to_bits() }),
    }
}

/// Reads a test input line (whitespace-separated numbers) as values: a token that is an
/// `i64` is an integer, any other finite number is a float. `None` when a token is not a
/// number.
pub fn parse_input(text: &str) -> Option<Vec<Num>> {
    text.split_whitespace()
        .map(|tok| {
            if let Ok(i) = tok.parse::<i64>() {
                Some(Num::Int(i))
            } else {
                tok.parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .map(Num::Float)
            }
        })
        .collect()
}

/// Writes values as one input line, the way the interpreter feeds them to `main`.
pub fn format_input(values: &[Num]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
