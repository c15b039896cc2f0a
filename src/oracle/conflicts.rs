//! A conflict budget for varisat 0.2 (which has no conflict-limit API): count learned clauses in its proof stream and fail the stream once the budget is spent.
//!
//! varisat writes one `AtClause` proof step per conflict (the learned clause). With
//! `Solver::write_proof(meter, ProofFormat::Varisat)` those steps arrive here; the
//! [`ConflictMeter`] decodes the stream just far enough to count them and returns an I/O
//! error once the count passes the limit, which makes `solve()` return early with
//! `SolverError::ProofIoError`. That error leaves the solver unusable, so the caller
//! drops it and rebuilds (the learner does: see `sat::Encoding::broken`).
//!
//! Granularity: varisat buffers proof output (8 KiB) and always flushes when `solve()`
//! returns, so the limit is noticed at the next buffer flush (a few hundred conflicts
//! late at most) and the count is exact after every call. Everything is a count:
//! the same instance stops at the same point on every run and every platform.
//!
//! The native format is used because varisat's DRAT writers reject incremental clauses
//! and assumptions, which the learner relies on; it is documented in
//! `varisat-internal-proof` (`binary_format.rs`, `vli_enc.rs`), pinned by Cargo.lock, and
//! an unknown step code is an error, so a format change cannot go unnoticed.

use std::cell::Cell;
use std::io;
use std::rc::Rc;

/// Step codes of varisat's native proof format (`varisat-internal-proof` 0.2.2).
mod code {
    pub const SOLVER_VAR_NAME_UPDATE: u64 = 0;
    pub const SOLVER_VAR_NAME_REMOVE: u64 = 1;
    pub const USER_VAR_NAME_UPDATE: u64 = 2;
    pub const USER_VAR_NAME_REMOVE: u64 = 3;
    pub const DELETE_VAR: u64 = 4;
    pub const CHANGE_SAMPLING_MODE_SAMPLE: u64 = 5;
    pub const CHANGE_SAMPLING_MODE_WITNESS: u64 = 6;
    pub const AT_CLAUSE_RED: u64 = 7;
    pub const AT_CLAUSE_IRRED: u64 = 8;
    pub const UNIT_CLAUSES: u64 = 9;
    pub const DELETE_CLAUSE_REDUNDANT: u64 = 10;
    pub const DELETE_CLAUSE_SIMPLIFIED: u64 = 11;
    pub const DELETE_CLAUSE_SATISFIED: u64 = 12;
    pub const CHANGE_HASH_BITS: u64 = 13;
    pub const MODEL: u64 = 14;
    pub const ADD_CLAUSE: u64 = 15;
    pub const ASSUMPTIONS: u64 = 16;
    pub const FAILED_ASSUMPTIONS: u64 = 17;
    pub const END: u64 = 0x9ac3_391f_4294_c211;
}

/// What the scanner reads next inside a step.
#[derive(Clone, Copy, Debug)]
enum Field {
    /// One number.
    Scalar,
    /// A length, followed by `length * per_item` numbers.
    Array { per_item: u64 },
    /// This many numbers still to skip.
    Items(u64),
}

/// The fields of a step with the given code, in reading order; `None` for an unknown code.
fn layout(step: u64) -> Option<&'static [Field]> {
    use code::*;
    use Field::*;
    const LITS: Field = Array { per_item: 1 };
    Some(match step {
        SOLVER_VAR_NAME_UPDATE | USER_VAR_NAME_UPDATE => &[Scalar, Scalar],
        SOLVER_VAR_NAME_REMOVE
        | USER_VAR_NAME_REMOVE
        | DELETE_VAR
        | CHANGE_SAMPLING_MODE_SAMPLE
        | CHANGE_SAMPLING_MODE_WITNESS
        | CHANGE_HASH_BITS => &[Scalar],
        // Literals, then propagation hashes.
        AT_CLAUSE_RED | AT_CLAUSE_IRRED | FAILED_ASSUMPTIONS => &[LITS, LITS],
        // (literal, hash) pairs.
        UNIT_CLAUSES => &[Array { per_item: 2 }],
        DELETE_CLAUSE_REDUNDANT
        | DELETE_CLAUSE_SIMPLIFIED
        | DELETE_CLAUSE_SATISFIED
        | MODEL
        | ADD_CLAUSE
        | ASSUMPTIONS => &[LITS],
        END => &[],
        _ => return None,
    })
}

/// Streaming decoder of varisat's native proof steps; reports each completed step's code.
#[derive(Debug, Default)]
struct StepScanner {
    /// Bytes of the number being read (at most 10).
    num: [u8; 10],
    num_len: usize,
    /// Code of the step being read (`None` between steps).
    step: Option<u64>,
    /// Fields still to read in this step, the next one last.
    pending: Vec<Field>,
}

/// The proof stream did not decode: varisat's format is not the one this scanner knows.
#[derive(Debug)]
struct UnknownStep(u64);

impl StepScanner {
    /// Encoded length of a number from its first one or two bytes (`vli_enc`: the count
    /// of trailing zero bits of the little-endian prefix, plus one, capped at 10).
    fn encoded_len(&self) -> Option<usize> {
        match self.num[0] {
            0 if self.num_len < 2 => None,
            0 => Some(if self.num[1] & 1 == 1 { 9 } else { 10 }),
            b => Some(b.trailing_zeros() as usize + 1),
        }
    }

    /// Value of a complete number of `len` bytes.
    fn value(&self, len: usize) -> u64 {
        let lo = u64::from_le_bytes(self.num[..8].try_into().unwrap_or([0; 8]));
        if len <= 8 {
            let mask = if len == 8 {
                !0
            } else {
                (1u64 << (8 * len)) - 1
            };
            (lo & mask) >> len
        } else {
            let mut hi_bytes = [0u8; 8];
            hi_bytes[..len - 8].copy_from_slice(&self.num[8..len]);
            let hi = u64::from_le_bytes(hi_bytes);
            (lo >> len) | (hi << (64 - len))
        }
    }

    /// Feeds one byte; returns the code of a step that this byte completed.
    fn feed(&mut self, byte: u8) -> Result<Option<u64>, UnknownStep> {
        self.num[self.num_len] = byte;
        self.num_len += 1;
        let Some(len) = self.encoded_len() else {
            return Ok(None);
        };
        if self.num_len < len {
            return Ok(None);
        }
        let v = self.value(len);
        self.num = [0; 10];
        self.num_len = 0;
        match self.step {
            None => {
                let fields = layout(v).ok_or(UnknownStep(v))?;
                self.pending.clear();
                self.pending.extend(fields.iter().rev());
                self.step = Some(v);
            }
            Some(_) => match self.pending.pop() {
                Some(Field::Array { per_item }) if v > 0 => {
                    self.pending.push(Field::Items(v.saturating_mul(per_item)))
                }
                Some(Field::Items(n)) if n > 1 => self.pending.push(Field::Items(n - 1)),
                _ => {}
            },
        }
        if self.pending.is_empty() {
            Ok(self.step.take())
        } else {
            Ok(None)
        }
    }
}

/// The count shared between a [`ConflictMeter`] (owned by the solver) and its owner.
#[derive(Debug, Default)]
pub(crate) struct ConflictCount {
    conflicts: Cell<u64>,
    limit: Cell<u64>,
    tripped: Cell<bool>,
}

impl ConflictCount {
    /// Conflicts counted so far (exact after each `solve()` returns).
    pub fn conflicts(&self) -> u64 {
        self.conflicts.get()
    }

    /// Allows `budget` more conflicts from now on.
    pub fn allow(&self, budget: u64) {
        self.limit.set(self.conflicts.get().saturating_add(budget));
        self.tripped.set(false);
    }

    /// Whether the last failure of the proof stream was this budget running out.
    pub fn tripped(&self) -> bool {
        self.tripped.get()
    }
}

/// The proof sink handed to varisat: counts conflicts, fails once over the limit.
pub(crate) struct ConflictMeter {
    count: Rc<ConflictCount>,
    scanner: StepScanner,
}

impl ConflictMeter {
    /// A meter and the handle its owner reads (no budget until [`ConflictCount::allow`]).
    pub fn new() -> (ConflictMeter, Rc<ConflictCount>) {
        let count = Rc::new(ConflictCount::default());
        (
            ConflictMeter {
                count: count.clone(),
                scanner: StepScanner::default(),
            },
            count,
        )
    }
}

impl io::Write for ConflictMeter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            match self.scanner.feed(b) {
                Ok(Some(code::AT_CLAUSE_RED | code::AT_CLAUSE_IRRED)) => {
                    let c = &self.count.conflicts;
                    c.set(c.get() + 1);
                }
                Ok(_) => {}
                Err(UnknownStep(s)) => {
                    return Err(io::Error::other(format!(
                        "unknown varisat proof step {s}: the conflict meter needs updating"
                    )))
                }
            }
        }
        if self.count.conflicts.get() > self.count.limit.get() {
            self.count.tripped.set(true);
            return Err(io::Error::other("conflict limit reached"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use varisat::{ExtendFormula, Lit, ProofFormat, Solver};

    /// varisat's variable-length encoding (`vli_enc::write_u64`), for the decoder test.
    fn encode(value: u64) -> Vec<u8> {
        let bits = 64 - value.leading_zeros();
        let blocks = (bits * (64 / 7)) / 64;
        if value < (1 << (8 * 7)) {
            let v = ((value << 1) | 1) << blocks;
            v.to_le_bytes()[..(blocks + 1) as usize].to_vec()
        } else {
            let lo = ((value << 1) | 1) << blocks;
            let hi = value >> (64 - (blocks + 1));
            let mut out = lo.to_le_bytes().to_vec();
            out.extend_from_slice(&hi.to_le_bytes()[..blocks as usize + 1 - 8]);
            out
        }
    }

    #[test]
    fn decodes_numbers_of_every_length() {
        for v in [
            0,
            1,
            127,
            128,
            1 << 20,
            (1 << 56) - 1,
            1 << 56,
            code::END,
            u64::MAX,
        ] {
            let mut s = StepScanner::default();
            let bytes = encode(v);
            for (i, &b) in bytes.iter().enumerate() {
                s.num[s.num_len] = b;
                s.num_len += 1;
                let len = s.encoded_len();
                if i + 1 < bytes.len() {
                    assert!(len.is_none_or(|l| l > i + 1), "{v}: early end");
                } else {
                    assert_eq!(len, Some(bytes.len()), "{v}");
                    assert_eq!(s.value(bytes.len()), v);
                }
            }
        }
    }

    #[test]
    fn counts_learned_clause_steps_in_a_stream() {
        let mut stream = Vec::new();
        let mut put = |nums: &[u64]| nums.iter().for_each(|&n| stream.extend(encode(n)));
        put(&[code::SOLVER_VAR_NAME_UPDATE, 4, 7]);
        put(&[code::AT_CLAUSE_RED, 3, 2, 5, 9, 2, 1000, 1 << 40]);
        put(&[code::UNIT_CLAUSES, 2, 4, 5, 6, 7]);
        put(&[code::AT_CLAUSE_IRRED, 0, 0]);
        put(&[code::MODEL, 0, code::END]);
        let (mut meter, count) = ConflictMeter::new();
        count.allow(10);
        meter.write_all(&stream).unwrap();
        assert_eq!(count.conflicts(), 2);
        assert!(meter.write_all(&encode(99)).is_err(), "unknown step code");
    }

    /// Pigeonhole: `n + 1` pigeons, `n` holes (unsatisfiable, needs many conflicts).
    fn pigeonhole(solver: &mut Solver, n: usize) {
        let p: Vec<Vec<Lit>> = (0..=n)
            .map(|_| (0..n).map(|_| solver.new_lit()).collect())
            .collect();
        for row in &p {
            solver.add_clause(row);
        }
        for h in 0..n {
            let hole: Vec<Lit> = p.iter().map(|row| row[h]).collect();
            for (i, &a) in hole.iter().enumerate() {
                for &b in &hole[i + 1..] {
                    solver.add_clause(&[!a, !b]);
                }
            }
        }
    }

    #[test]
    fn a_small_budget_stops_the_solver_and_a_large_one_does_not() {
        let (meter, count) = ConflictMeter::new();
        let mut solver = Solver::new();
        solver.write_proof(meter, ProofFormat::Varisat);
        pigeonhole(&mut solver, 7);
        count.allow(50);
        assert!(solver.solve().is_err());
        assert!(count.tripped());
        assert!(count.conflicts() > 50, "{}", count.conflicts());

        let (meter, count) = ConflictMeter::new();
        let mut solver = Solver::new();
        solver.write_proof(meter, ProofFormat::Varisat);
        pigeonhole(&mut solver, 5);
        count.allow(u64::MAX / 2);
        assert!(!solver.solve().unwrap());
        assert!(!count.tripped());
        let used = count.conflicts();
        assert!(used > 10, "pigeonhole 6->5 needs conflicts, counted {used}");
        // The count is deterministic.
        let (meter, again) = ConflictMeter::new();
        let mut solver = Solver::new();
        solver.write_proof(meter, ProofFormat::Varisat);
        pigeonhole(&mut solver, 5);
        again.allow(u64::MAX / 2);
        assert!(!solver.solve().unwrap());
        assert_eq!(again.conflicts(), used);
    }

    /// varisat's own proof checker agrees: its new clauses are the learned clauses (at
    /// least the non-unit ones; duplicates are not new) plus top-level units, which the
    /// meter does not count as conflicts.
    #[test]
    fn agrees_with_varisat_s_checker() {
        use varisat::checker::{CheckedProofStep, CheckerData, ProofProcessor};
        #[derive(Default)]
        struct Learned {
            all: u64,
            non_unit: u64,
        }
        impl ProofProcessor for Learned {
            fn process_step(
                &mut self,
                step: &CheckedProofStep,
                _: CheckerData,
            ) -> Result<(), anyhow::Error> {
                if let CheckedProofStep::AtClause { clause, .. } = step {
                    self.all += 1;
                    self.non_unit += u64::from(clause.len() > 1);
                }
                Ok(())
            }
        }
        let mut learned = Learned::default();
        let (meter, count) = ConflictMeter::new();
        {
            let mut solver = Solver::new();
            solver.write_proof(meter, ProofFormat::Varisat);
            solver.add_proof_processor(&mut learned);
            pigeonhole(&mut solver, 5);
            count.allow(u64::MAX / 2);
            assert!(!solver.solve().unwrap());
        }
        let n = count.conflicts();
        assert!(
            learned.non_unit <= n && n <= learned.all,
            "meter {n}, checker {} new clauses ({} non-unit)",
            learned.all,
            learned.non_unit
        );
    }
}
