//! Fuel for fuzzed inputs, sized from the known tests: a multiple of the slowest one's step count, within a floor and a cap.

/// How much fuel a run of a fuzzed input gets: `multiple` times the steps of the slowest
/// known test, at least `floor` and at most `cap`. A fuzzed input such as a type limit
/// or a x10 mutant can make a loop-heavy program run away; with a fixed large fuel each
/// such run costs the whole fuel (10^7 steps). Sized from the known tests, a runaway
/// input stops at a small multiple of the work a real test needs and ends like any
/// run out of fuel ([`crate::lang::Outcome::Timeout`], the oracle's timeout code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuzzFuel {
    /// Fuel = this many times the slowest known test's steps. Default 100.
    pub multiple: u64,
    /// Least fuel. Default 100 000.
    pub floor: u64,
    /// Most fuel (the ordinary run limit). Default 10 000 000.
    pub cap: u64,
}

impl Default for FuzzFuel {
    fn default() -> Self {
        FuzzFuel {
            multiple: 100,
            floor: 100_000,
            cap: 10_000_000,
        }
    }
}

impl FuzzFuel {
    /// The fuel for fuzzed runs when the slowest known test took `slowest_steps` steps
    /// (the cap wins over the floor when they cross).
    pub fn fuel(&self, slowest_steps: u64) -> u64 {
        slowest_steps
            .saturating_mul(self.multiple)
            .max(self.floor)
            .min(self.cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiple_of_the_slowest_test_within_floor_and_cap() {
        let f = FuzzFuel::default();
        assert_eq!(f.fuel(0), 100_000);
        assert_eq!(f.fuel(999), 100_000);
        assert_eq!(f.fuel(5_000), 500_000);
        assert_eq!(f.fuel(100_000), 10_000_000);
        assert_eq!(f.fuel(u64::MAX), 10_000_000);
        let crossed = FuzzFuel {
            multiple: 10,
            floor: 1_000,
            cap: 500,
        };
        assert_eq!(crossed.fuel(1), 500);
    }
}
