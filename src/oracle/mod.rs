//! The bug-oracle learner: readable linear formulas learned from labelled tests.
//!
//! Given tests labelled "bug" or "ok" (points: input numbers and the output, as exact
//! [`Value`]s), the learner finds the smallest formula - fewest literals, then fewest
//! clauses, CNF or DNF - over linear atoms (`x <= c`, `x = c`, `x = y`, `x - y <= c`,
//! `x + y <= c`, `a.x <= b`) that is true on every bug and false on every ok test, or
//! says why it stopped ([`StopReason`]).
//!
//! How: a pool of template atoms with constants taken from the data ([`pool`](self)
//! internals: boundary points only, round constants mid-gap and on the side that may be
//! "ok", duplicates and dominated atoms pruned) is searched by varisat with selector
//! variables and a cardinality bound that grows 1, 2, ... so the first answer is a
//! smallest formula. When no pool formula fits the limits, an exact-rational simplex
//! ([`Simplex`]) looks for one separating half-space. A [`Learner`] keeps one incremental
//! solver per normal form, so the active loop's look-one-ahead committee reuses the pool,
//! the encoding and the learned clauses.
//! [`learn_cegis`] is Incal's incremental mode: learn on a subset, add the misclassified
//! examples, repeat.
//!
//! The module does no I/O, never reads a clock and never panics on user data: every
//! limit is a count ([`LearnConfig`]).
//!
//! Cost model: sizes 1 to 3 are settled by an exhaustive bitset search over the whole
//! pool (sub-millisecond for tens of examples), sizes 4 and 5 by an exhaustive search
//! that branches on the point fewest literals can settle and buckets small groups by the
//! points they hold on (bounded by `max_exhaustive_steps`; SAT takes over past it); sizes
//! 6 and up go to varisat over the simplest `max_sat_pool` literals, bounded by
//! `max_sat_calls` and `max_conflicts` (varisat 0.2 has no conflict-limit API: the
//! learner counts learned clauses in varisat's proof stream and stops the solver through
//! it). Hard random targets of 6+ literals are the latency tail (see
//! `benches/oracle_learn.rs`).
//!
//! ```
//! use fixloop::oracle::{learn, Example, Formula, LearnConfig, StopReason, Value};
//!
//! let vars: Vec<String> = ["a", "b", "out"].iter().map(|s| s.to_string()).collect();
//! let ex = |a: i64, b: i64, out: i64, bug| Example {
//!     point: vec![Value::Int(a), Value::Int(b), Value::Int(out)],
//!     bug,
//! };
//! // The program is wrong when a = b and it prints 2.
//! let data = [
//!     ex(3, 3, 2, true), ex(5, 5, 2, true), ex(3, 3, 1, false),
//!     ex(4, 2, 2, false), ex(1, 6, 1, false), ex(7, 7, 2, true),
//! ];
//! let report = learn(&vars, &data, &LearnConfig::default());
//! assert_eq!(report.stop, StopReason::Found);
//! let f = report.formula.unwrap();
//! assert_eq!(f.to_string(), "(a = b) and (out = 2)");
//! assert!(f.eval(&[Value::Int(9), Value::Int(9), Value::Int(2)]));
//! // Printing and parsing round-trip.
//! assert_eq!(Formula::parse(&f.to_string(), &vars).unwrap(), f);
//! ```

#![warn(missing_docs)]

mod cegis;
mod conflicts;
mod formula;
mod fxhash;
mod learner;
mod medium;
mod number;
mod parser;
mod pool;
mod sat;
mod simplex;
mod small;
pub mod triangle;
#[cfg(all(test, target_arch = "wasm32"))]
mod wasm_tests;
pub mod workloads;

pub use cegis::{learn_cegis, CegisConfig, CegisReport};
pub use formula::{Atom, AtomDisplay, Form, Formula, Rel};
pub use learner::{Hypothesis, Learner};
pub use number::Value;
pub use parser::ParseError;
pub use simplex::{separate, Separation, Simplex, SimplexError};

use std::fmt;

/// A labelled test: the point (inputs then output, in variable order) and whether the run
/// shows the bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Example {
    /// The values, one per variable.
    pub point: Vec<Value>,
    /// `true` for "bug", `false` for "ok".
    pub bug: bool,
}

/// Limits and switches of the learner. All limits are counts; the defaults suit the
/// active loop (tens of examples, a handful of variables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnConfig {
    /// Largest formula size tried, in literals. Default 6.
    pub max_literals: usize,
    /// Most clauses (CNF) or terms (DNF). Default 4.
    pub max_clauses: usize,
    /// Most pool literals kept after pruning (simplest first). Default 600.
    pub max_pool: usize,
    /// Most pool literals (simplest first) the SAT search selects from, for sizes of 4
    /// literals and up (sizes 1 to 3 are searched exhaustively over the whole pool).
    /// This bounds the cost of one SAT call. Default 150.
    pub max_sat_pool: usize,
    /// Most steps (candidate literals and buckets looked at) of the exhaustive search for
    /// formulas of four literals, and again of five; past it the SAT search settles that
    /// size. Default 1 000 000.
    pub max_exhaustive_steps: u64,
    /// Most SAT calls in one learn call. Default 400.
    pub max_sat_calls: usize,
    /// Most SAT conflicts (learned clauses) in one learn call, over all its SAT calls;
    /// beyond it the learn stops with [`StopReason::ConflictLimit`]. Counted from
    /// varisat's proof stream and noticed at its next buffer flush, so a call may overrun
    /// by a few hundred conflicts; always deterministic. Default 200 000.
    pub max_conflicts: u64,
    /// Try CNF formulas. Default true.
    pub cnf: bool,
    /// Try DNF formulas. Default true.
    pub dnf: bool,
    /// Equality atoms `x = c`, `x != c`, `x = y`, `x != y`. Default true.
    pub equality_atoms: bool,
    /// Most distinct constants per variable for `x = c` (most frequent first). Default 32.
    pub max_equality_constants: usize,
    /// Two-variable atoms `x - y <= c`, `x + y <= c` (and `x = y`). Default true.
    pub pair_atoms: bool,
    /// Of the two-variable atoms, also the sums `x + y <= c` (differences are always
    /// there). Default true.
    pub pair_sums: bool,
    /// Three-variable atoms `x + y - z <= c`. Default true.
    pub triple_atoms: bool,
    /// Three-variable atoms only up to this many variables. Default 5.
    pub triple_atoms_max_vars: usize,
    /// Remainder atoms `x % m = r`, `x % m != r` over integer variables, for moduli
    /// 2 to `max_modulus` (parity, digits, "every third"). Default true.
    pub remainder_atoms: bool,
    /// Largest modulus of a remainder atom. Default 10.
    pub max_modulus: i64,
    /// Moduli above `max_modulus` also offered for remainder atoms (a repair offers the
    /// program's own constants and their products, e.g. 100 and 400 for a leap-year
    /// test). Default none.
    pub extra_moduli: Vec<i64>,
    /// Fall back to a simplex half-space when the pool has no formula. Default true.
    pub simplex: bool,
    /// Pivot budget of one separation attempt. Default 20 000.
    pub max_pivots: usize,
    /// Largest coefficient tried when snapping a half-space to small integers. Default 10.
    pub snap_max_coeff: i64,
    /// Of equally simple atoms, those over this variable come first, so ties between
    /// smallest formulas go to it. Default `None` (variable order).
    pub preferred_var: Option<usize>,
    /// Of equally small formulas, one without atoms over this variable wins, whatever
    /// its tier and complexity (atoms over it rank above every other atom's tier).
    /// Default `None`.
    pub avoided_var: Option<usize>,
    /// Of equally small formulas, one without remainder atoms wins, as with
    /// [`LearnConfig::avoided_var`]. Default false.
    pub avoid_remainders: bool,
    /// Atoms left out of the pool (with their negations): a learn call without them
    /// finds the other formulas that fit the examples. Default none.
    pub excluded_atoms: Vec<Atom>,
}

impl Default for LearnConfig {
    fn default() -> Self {
        LearnConfig {
            max_literals: 6,
            max_clauses: 4,
            max_pool: 600,
            max_sat_pool: 150,
            max_exhaustive_steps: 1_000_000,
            max_sat_calls: 400,
            max_conflicts: 200_000,
            cnf: true,
            dnf: true,
            equality_atoms: true,
            max_equality_constants: 32,
            pair_atoms: true,
            pair_sums: true,
            triple_atoms: true,
            triple_atoms_max_vars: 5,
            remainder_atoms: true,
            max_modulus: 10,
            extra_moduli: Vec::new(),
            simplex: true,
            max_pivots: 20_000,
            snap_max_coeff: 10,
            preferred_var: None,
            avoided_var: None,
            avoid_remainders: false,
            excluded_atoms: Vec::new(),
        }
    }
}

/// Why a learn call stopped.
///
/// The learner's own, apart from the repair engines' `Stop` (`repair::budget`): the
/// oracle does not depend on repair, its bounds (literals, pool, SAT calls, conflicts)
/// are its own, and `Contradiction` is a verdict on the labels. Repair's synthesiser
/// reads it into a `Stop` in one place (`repair::synth::synthesize_condition`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A formula consistent with every example was found (it is a smallest one over the
    /// pool, or a single simplex half-space).
    Found,
    /// The same point is labelled both bug and ok: no formula can be consistent.
    Contradiction {
        /// The point.
        point: Vec<Value>,
    },
    /// No pool formula within the literal and clause limits, and no half-space.
    NoFormulaWithinLimits {
        /// The literal limit used.
        max_literals: usize,
        /// The clause limit used.
        max_clauses: usize,
    },
    /// Like `NoFormulaWithinLimits`, but the pool had been cut to its size limit
    /// (`max_pool`, or `max_sat_pool` for the SAT search).
    PoolLimit {
        /// The pool limit used.
        max_pool: usize,
    },
    /// The SAT call budget ran out.
    SatCallLimit {
        /// The budget used.
        max_sat_calls: usize,
    },
    /// The conflict budget of the SAT search ran out.
    ConflictLimit {
        /// The budget used.
        max_conflicts: u64,
    },
    /// The conflict budget of the whole session (all its learn calls together, see
    /// [`Learner::set_conflict_budget`]) ran out.
    SessionConflictLimit {
        /// The session's budget.
        budget: u64,
    },
    /// Invalid input (wrong number of values in a point).
    Invalid(String),
    /// The SAT solver failed (it is rebuilt on the next call).
    Solver(String),
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Found => write!(f, "found a consistent formula"),
            StopReason::Contradiction { point } => {
                let p: Vec<String> = point.iter().map(Value::to_string).collect();
                write!(
                    f,
                    "contradictory labels: ({}) is labelled both bug and ok",
                    p.join(", ")
                )
            }
            StopReason::NoFormulaWithinLimits {
                max_literals,
                max_clauses,
            } => write!(
                f,
                "no formula within {max_literals} literals and {max_clauses} clauses"
            ),
            StopReason::PoolLimit { max_pool } => {
                write!(
                    f,
                    "no formula over the pool, which was cut to {max_pool} atoms"
                )
            }
            StopReason::SatCallLimit { max_sat_calls } => {
                write!(f, "SAT call budget of {max_sat_calls} used up")
            }
            StopReason::ConflictLimit { max_conflicts } => {
                write!(f, "SAT conflict budget of {max_conflicts} used up")
            }
            StopReason::SessionConflictLimit { budget } => {
                write!(f, "session SAT conflict budget of {budget} used up")
            }
            StopReason::Invalid(m) => write!(f, "invalid input: {m}"),
            StopReason::Solver(m) => write!(f, "SAT solver error: {m}"),
        }
    }
}

/// The outcome of one learn call, with the numbers that explain it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnReport {
    /// The formula (present exactly when `stop` is [`StopReason::Found`]).
    pub formula: Option<Formula>,
    /// Why the learner stopped.
    pub stop: StopReason,
    /// Literals of the formula (0 when none).
    pub literals: usize,
    /// Clauses or terms of the formula.
    pub clauses: usize,
    /// Distinct examples used.
    pub examples: usize,
    /// Pool literals after pruning.
    pub pool_size: usize,
    /// Whether the pool hit `max_pool`.
    pub pool_truncated: bool,
    /// SAT calls made.
    pub sat_calls: usize,
    /// SAT conflicts (learned clauses) of those calls.
    pub conflicts: u64,
    /// Whether the formula is a simplex half-space.
    pub simplex_used: bool,
}

impl LearnReport {
    /// The report of `formula` (or none), stopped for `stop`, from `examples` examples,
    /// before any pool or solver work is counted.
    pub(crate) fn new(formula: Option<Formula>, stop: StopReason, examples: usize) -> Self {
        LearnReport {
            literals: formula.as_ref().map_or(0, Formula::literals),
            clauses: formula.as_ref().map_or(0, Formula::clauses),
            formula,
            stop,
            examples,
            pool_size: 0,
            pool_truncated: false,
            sat_calls: 0,
            conflicts: 0,
            simplex_used: false,
        }
    }

    /// Whether a formula consistent with the examples was found.
    pub fn consistent(&self) -> bool {
        self.stop == StopReason::Found && self.formula.is_some()
    }
}

impl fmt::Display for LearnReport {
    /// A short multi-line summary, like egg's runner report.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.formula {
            Some(formula) => writeln!(f, "formula:   {formula}")?,
            None => writeln!(f, "formula:   (none)")?,
        }
        writeln!(
            f,
            "size:      {} literals, {} clauses",
            self.literals, self.clauses
        )?;
        writeln!(f, "stop:      {}", self.stop)?;
        writeln!(
            f,
            "search:    {} examples, {} pool atoms{}, {} SAT calls, {} conflicts{}",
            self.examples,
            self.pool_size,
            if self.pool_truncated { " (cut)" } else { "" },
            self.sat_calls,
            self.conflicts,
            if self.simplex_used {
                ", simplex half-space"
            } else {
                ""
            }
        )
    }
}

/// Errors of the oracle API (bad input; learning outcomes are [`StopReason`]s).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    /// A point has the wrong number of values.
    #[error("a point has {found} values, expected {expected}")]
    Arity {
        /// Number of variables.
        expected: usize,
        /// Values given.
        found: usize,
    },
}

/// Learns once from `examples` (a fresh [`Learner`]); see [`Learner::learn`].
pub fn learn(vars: &[String], examples: &[Example], config: &LearnConfig) -> LearnReport {
    match Learner::with_examples(vars.to_vec(), config.clone(), examples) {
        Ok(mut l) => l.learn(),
        Err(e) => LearnReport::new(None, StopReason::Invalid(e.to_string()), 0),
    }
}

/// Share of `examples` on which `formula` agrees with the label, and the same share over
/// the bug examples only (conditional accuracy); `None` where there are no examples.
pub fn accuracy(formula: &Formula, examples: &[Example]) -> (Option<f64>, Option<f64>) {
    let (mut ok, mut n, mut bok, mut bn) = (0usize, 0usize, 0usize, 0usize);
    for e in examples {
        let right = formula.eval(&e.point) == e.bug;
        n += 1;
        ok += right as usize;
        if e.bug {
            bn += 1;
            bok += right as usize;
        }
    }
    let share = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
    (share(ok, n), share(bok, bn))
}
