//! Test inputs as numbers: parsing an input line and exact keys for deduplication.

// TEMPORARY until `lang::Num` is merged: there must be one Num type, the language's.
/// One input value of a test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer value.
    Int(i64),
    /// A floating-point value.
    Float(f64),
}

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

/// Writes values as one input line, the way a user would type them.
pub fn format_input(values: &[Num]) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match v {
            Num::Int(n) => out.push_str(&n.to_string()),
            Num::Float(f) => out.push_str(&format_float(*f)),
        }
    }
    out
}

/// Shortest round-tripping text of a float that still reads as a float (`2.0`, not `2`).
pub fn format_float(f: f64) -> String {
    let s = format!("{f:?}");
    s
}
