//! A bounded memory of a program's runs by exact input, so a repeated fuzzed input is not run again.

use super::num::{Num, NumKey};
use crate::lang::Execution;
use std::collections::{HashMap, VecDeque};

/// Memory a run cache may hold by default (bytes, estimated).
pub const RUN_CACHE_BYTES: usize = 16 << 20;

/// A run as [`super::program::ProgramRunner::execute`] returns it: the execution and
/// the answer read from its stdout.
pub type Run = (Execution, Option<String>);

/// The exact key of an input: integers by value, floats by their bits (`-0.0` and `0.0`
/// differ, since a program can print them differently).
fn exact_key(input: &[Num]) -> Vec<NumKey> {
    input
        .iter()
        .map(|n| match *n {
            Num::Int(i) => NumKey::Int(i),
            Num::Float(f) => NumKey::Float(f.to_bits()),
        })
        .collect()
}

/// Runs of one program under one set of limits, by exact input. Runs are deterministic,
/// so a remembered run is the run: the cache changes costs, never results. Bounded by an
/// estimate of its bytes: when a new run does not fit, the oldest runs are dropped
/// (first in, first out, so the contents depend only on the sequence of inputs).
#[derive(Debug, Default)]
pub struct RunCache {
    runs: HashMap<Vec<NumKey>, Run>,
    order: VecDeque<Vec<NumKey>>,
    bytes: usize,
    max_bytes: usize,
    /// Lookups answered from memory.
    pub hits: u64,
    /// Lookups that had to run the program.
    pub misses: u64,
}

impl RunCache {
    /// An empty cache holding at most about `max_bytes`.
    pub fn new(max_bytes: usize) -> RunCache {
        RunCache {
            max_bytes,
            ..RunCache::default()
        }
    }

    /// Estimated bytes of one entry: the key twice (map and queue), the output, the
    /// answer, the coverage and a fixed overhead for the containers.
    fn size(key: &[NumKey], run: &Run) -> usize {
        2 * std::mem::size_of_val(key)
            + run.0.stdout.len()
            + run.1.as_ref().map_or(0, String::len)
            + run.0.coverage.as_ref().map_or(0, |c| 4 * c.len())
            + 160
    }

    /// The remembered run of `input`, counted as a hit or a miss.
    pub fn get(&mut self, input: &[Num]) -> Option<Run> {
        let hit = self.runs.get(&exact_key(input)).cloned();
        if hit.is_some() {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        hit
    }

    /// Remembers the run of `input` (nothing when the run alone exceeds the cache).
    pub fn insert(&mut self, input: &[Num], run: Run) {
        let key = exact_key(input);
        if self.runs.contains_key(&key) {
            return;
        }
        let size = RunCache::size(&key, &run);
        if size > self.max_bytes {
            return;
        }
        while self.bytes + size > self.max_bytes {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(r) = self.runs.remove(&old) {
                self.bytes -= RunCache::size(&old, &r);
            }
        }
        self.bytes += size;
        self.order.push_back(key.clone());
        self.runs.insert(key, run);
    }

    /// Estimated bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Outcome;

    fn run(out: &str) -> Run {
        (
            Execution {
                stdout: out.as_bytes().to_vec(),
                outcome: Outcome::Exit(0),
                steps: 1,
                undefined: None,
                coverage: None,
            },
            Some(out.to_string()),
        )
    }

    #[test]
    fn a_repeated_input_is_answered_from_memory() {
        let mut c = RunCache::new(RUN_CACHE_BYTES);
        assert_eq!(c.get(&[Num::Int(1)]), None);
        c.insert(&[Num::Int(1)], run("a"));
        assert_eq!(c.get(&[Num::Int(1)]), Some(run("a")));
        assert_eq!((c.hits, c.misses), (1, 1));
    }

    #[test]
    fn negative_zero_is_another_input() {
        let mut c = RunCache::new(RUN_CACHE_BYTES);
        c.insert(&[Num::Float(0.0)], run("0"));
        assert_eq!(c.get(&[Num::Float(-0.0)]), None);
        c.insert(&[Num::Float(-0.0)], run("-0"));
        assert_eq!(c.get(&[Num::Float(-0.0)]), Some(run("-0")));
        assert_eq!(c.get(&[Num::Float(0.0)]), Some(run("0")));
    }

    #[test]
    fn the_oldest_runs_leave_when_memory_is_full() {
        let one = RunCache::size(&exact_key(&[Num::Int(0)]), &run("x"));
        let mut c = RunCache::new(2 * one);
        for i in 0..3 {
            c.insert(&[Num::Int(i)], run("x"));
        }
        assert_eq!(c.bytes(), 2 * one);
        assert_eq!(c.get(&[Num::Int(0)]), None);
        assert_eq!(c.get(&[Num::Int(1)]), Some(run("x")));
        assert_eq!(c.get(&[Num::Int(2)]), Some(run("x")));
    }

    #[test]
    fn a_run_larger_than_the_cache_is_not_kept() {
        let mut c = RunCache::new(100);
        c.insert(&[Num::Int(0)], run(&"y".repeat(200)));
        assert_eq!((c.bytes(), c.get(&[Num::Int(0)])), (0, None));
    }
}
