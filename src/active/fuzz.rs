//! The mutational fuzzer: new inputs of the same shape around the seeds - small and large steps, sign flips, type limits and the program's own constants - or Learn2fix's stacked operators.

use super::num::{key, Num, NumKey};
use crate::lang::inputs::{InputType, ProgramInputs};
use rand::rngs::StdRng;
use rand::RngExt;
use std::collections::HashSet;

/// The kind of an input position; mutants keep the kind of every position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An integer position.
    Int,
    /// A floating-point position.
    Float,
}

impl Kind {
    /// The kind of a value.
    pub fn of(n: &Num) -> Kind {
        match n {
            Num::Int(_) => Kind::Int,
            Num::Float(_) => Kind::Float,
        }
    }
}

/// An inclusive range an input position must stay in ("n is between 1 and 100").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
}

impl Range {
    /// Whether `n` lies in the range.
    pub fn contains(&self, n: &Num) -> bool {
        let v = match *n {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        };
        self.min <= v && v <= self.max
    }
}

/// How mutants are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FuzzProfile {
    /// Around the seed (the default): one position, several, or all of them get one
    /// [`Step`] each (sometimes the same step for all, sometimes two stacked), so most
    /// mutants are neighbours of the seed of its magnitude and sign - `47 50` gives `47 49`,
    /// `46 50`, `94 50` - with now and then a sign flip, a type limit or one of the
    /// program's constants.
    #[default]
    Neighbourhood,
    /// Learn2fix's operators ([`Op`]) stacked on every position (the fuzzer of sessions
    /// made before the neighbourhood fuzzer; their replays keep it).
    Classic,
}

/// How far from its seed a [`FuzzProfile::Neighbourhood`] mutant may go. The active loop
/// starts [`Reach::Like`] and widens it when the nearer inputs stop telling its committee
/// anything ([`crate::active::ActiveConfig::near_first`]); [`Reach::Far`] is the
/// profile as it always was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Reach {
    /// Most like the seed: small steps (1, 2, a few percent, another position's value)
    /// that keep the signs of the numbers and their equalities and order (`2 2 2` gives
    /// `3 3 3`; `5 3 4` gives `6 3 4`, never `5 5 4`).
    Like,
    /// Near the seed: every neighbourhood step but sign flips, 0, 1 and the type's
    /// limits, keeping the sign of every number.
    Near,
    /// Anywhere the neighbourhood fuzzer goes.
    #[default]
    Far,
}

impl Reach {
    /// The next wider reach (`None` from [`Reach::Far`]).
    pub fn wider(self) -> Option<Reach> {
        match self {
            Reach::Like => Some(Reach::Near),
            Reach::Near => Some(Reach::Far),
            Reach::Far => None,
        }
    }

    /// Whether a mutant at this reach may take `step`.
    fn allows(self, step: Step) -> bool {
        match self {
            Reach::Far => true,
            Reach::Near => !matches!(
                step,
                Step::Negate | Step::Zero | Step::One | Step::TypeMin | Step::TypeMax
            ),
            Reach::Like => matches!(
                step,
                Step::Add(1 | 2)
                    | Step::Sub(1 | 2)
                    | Step::PercentUp
                    | Step::PercentDown
                    | Step::OtherPosition
            ),
        }
    }
}

/// The signs of an input's numbers and the order between every two of them: inputs with
/// the same shape are alike ([`Reach::Like`]).
pub fn shape_of(input: &[Num]) -> Vec<std::cmp::Ordering> {
    let v: Vec<f64> = input.iter().map(|n| n.as_f64()).collect();
    let cmp = |a: f64, b: f64| a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal);
    let mut out: Vec<std::cmp::Ordering> = v.iter().map(|&x| cmp(x, 0.0)).collect();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            out.push(cmp(v[i], v[j]));
        }
    }
    out
}

/// One per-position mutation step of the [`FuzzProfile::Neighbourhood`] fuzzer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Add `n` (1, 2 or 10).
    Add(i64),
    /// Subtract `n` (1, 2 or 10).
    Sub(i64),
    /// Add 1 to 5 percent of the magnitude (at least 1).
    PercentUp,
    /// Subtract 1 to 5 percent of the magnitude (at least 1).
    PercentDown,
    /// A random value within a tenth of the magnitude (at least 10) either side.
    Near,
    /// Multiply by 2.
    Double,
    /// Divide by 2 (truncating for integers).
    Halve,
    /// Flip the sign.
    Negate,
    /// 0.
    Zero,
    /// 1.
    One,
    /// The smallest value of the position's type.
    TypeMin,
    /// The largest value of the position's type.
    TypeMax,
    /// One of the program's constants, or a neighbour (`c - 1`, `c`, `c + 1`).
    ProgramConstant,
    /// The value of another input position (ties between inputs).
    OtherPosition,
}

/// The neighbourhood steps with their weights: small steps most often.
pub const STEPS: [(Step, u32); 18] = [
    (Step::Add(1), 4),
    (Step::Sub(1), 4),
    (Step::Add(2), 2),
    (Step::Sub(2), 2),
    (Step::Add(10), 2),
    (Step::Sub(10), 2),
    (Step::PercentUp, 2),
    (Step::PercentDown, 2),
    (Step::Near, 2),
    (Step::Double, 2),
    (Step::Halve, 2),
    (Step::Negate, 2),
    (Step::Zero, 1),
    (Step::One, 1),
    (Step::TypeMin, 1),
    (Step::TypeMax, 1),
    (Step::ProgramConstant, 3),
    (Step::OtherPosition, 2),
];

/// One per-position mutation operator (Learn2fix's list, [`FuzzProfile::Classic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Keep the value.
    Keep,
    /// Add 1.
    Inc,
    /// Subtract 1.
    Dec,
    /// Add 10.
    Add10,
    /// Subtract 10.
    Sub10,
    /// Multiply by 10.
    Times10,
    /// Divide by 10 (truncating for integers).
    Div10,
    /// A random value near the current one (within half its magnitude, at least 5).
    Near,
    /// A random small value in `-16..=16`.
    Small,
    /// A boundary value: 0, 1, -1 or a type limit.
    Boundary,
}

/// All operators, drawn uniformly.
pub const OPS: [Op; 10] = [
    Op::Keep,
    Op::Inc,
    Op::Dec,
    Op::Add10,
    Op::Sub10,
    Op::Times10,
    Op::Div10,
    Op::Near,
    Op::Small,
    Op::Boundary,
];

/// Integer boundary values: C `int` and `long long` limits besides 0, 1, -1.
const INT_BOUNDARIES: [i64; 7] = [
    0,
    1,
    -1,
    i32::MAX as i64,
    i32::MIN as i64,
    i64::MAX,
    i64::MIN,
];

/// Float boundary values (finite: inputs are typed as text).
const FLOAT_BOUNDARIES: [f64; 5] = [0.0, 1.0, -1.0, 1e9, -1e9];

/// Fuzzer settings.
#[derive(Debug, Clone, PartialEq)]
pub struct FuzzConfig {
    /// Largest number of operators stacked on one position (k); each position gets
    /// `1..=k`. Default 2.
    pub max_stack: usize,
    /// Optional range per input position (missing entries: unbounded).
    pub ranges: Vec<Option<Range>>,
    /// Attempts to find a new (not yet seen) input before giving up. Default 1000.
    pub max_attempts: usize,
    /// Share of mutants (of inputs with more than one position) in which one position,
    /// drawn uniformly, gets the operators and the others keep the seed's values; the rest
    /// mutate every position. Default 0, Learn2fix's fuzzer: measured at 0.25 and 0.5 on
    /// Codeflaws it moved single subjects both ways and the median accuracy by less than
    /// run-to-run noise (docs/results-oracle.md), so replays and links stay as they were.
    /// [`FuzzProfile::Classic`] only (the neighbourhood fuzzer chooses positions itself).
    pub single_position_share: f64,
    /// How mutants are made. Default [`FuzzProfile::Neighbourhood`].
    pub profile: FuzzProfile,
    /// What the program reads (each position's type for its limits) and its constants,
    /// for [`FuzzProfile::Neighbourhood`]. Default: nothing known (`int` limits, no
    /// constants).
    pub program: ProgramInputs,
}

impl Default for FuzzConfig {
    fn default() -> Self {
        FuzzConfig {
            max_stack: 2,
            ranges: Vec::new(),
            max_attempts: 1000,
            single_position_share: 0.0,
            profile: FuzzProfile::default(),
            program: ProgramInputs::default(),
        }
    }
}

/// Why the fuzzer produced no new input: a fact about the inputs it can reach
/// (duplicates only, or no seed), not a budget; the loop's `StopReason::Fuzzer` carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FuzzStop {
    /// `max_attempts` mutants in a row were all duplicates.
    #[error("no new input after {0} attempts")]
    Exhausted(usize),
    /// There was no seed to mutate.
    #[error("no seed to mutate")]
    NoSeed,
}

/// The fuzzer: input shape (kinds per position), settings, and the set of inputs seen.
/// Randomness comes from the caller's seeded generator, so runs replay exactly.
#[derive(Debug, Clone)]
pub struct Fuzzer {
    kinds: Vec<Kind>,
    config: FuzzConfig,
    seen: HashSet<Vec<NumKey>>,
}

impl Fuzzer {
    /// A fuzzer for inputs shaped like `template` (length and kinds); the template counts
    /// as seen.
    pub fn new(template: &[Num], config: FuzzConfig) -> Fuzzer {
        let mut fuzzer = Fuzzer {
            kinds: template.iter().map(Kind::of).collect(),
            config,
            seen: HashSet::new(),
        };
        fuzzer.mark_seen(template);
        fuzzer
    }

    /// The kinds of the input positions.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// The settings.
    pub fn config(&self) -> &FuzzConfig {
        &self.config
    }

    /// Records `input` as seen, so [`Fuzzer::next`] never returns it.
    pub fn mark_seen(&mut self, input: &[Num]) {
        self.seen.insert(input.iter().map(key).collect());
    }

    /// Whether `input` was seen.
    pub fn is_seen(&self, input: &[Num]) -> bool {
        self.seen
            .contains(&input.iter().map(key).collect::<Vec<_>>())
    }

    /// Number of distinct inputs seen.
    pub fn seen_count(&self) -> usize {
        self.seen.len()
    }

    /// One mutant of `seed` (not deduplicated) by the configured [`FuzzProfile`]; every
    /// position keeps its kind and stays in its range.
    pub fn mutate(&self, seed: &[Num], rng: &mut StdRng) -> Vec<Num> {
        self.mutate_within(seed, rng, Reach::Far)
    }

    /// [`Fuzzer::mutate`] within `reach` (the classic profile ignores it; [`Reach::Like`]
    /// does not check the shape: [`Fuzzer::next_within`] does).
    fn mutate_within(&self, seed: &[Num], rng: &mut StdRng, reach: Reach) -> Vec<Num> {
        match self.config.profile {
            FuzzProfile::Neighbourhood => self.neighbour(seed, rng, reach),
            FuzzProfile::Classic => self.mutate_classic(seed, rng),
        }
    }

    /// [`FuzzProfile::Neighbourhood`]: half the mutants change one position, a quarter a
    /// random subset, a quarter all of them; a mutant of several positions applies one
    /// step to all of them in half the cases (`2 2 2` to `3 3 3`); a changed position gets
    /// a second step in a quarter of the cases.
    fn neighbour(&self, seed: &[Num], rng: &mut StdRng, reach: Reach) -> Vec<Num> {
        let n = self.kinds.len();
        let start: Vec<Num> = self
            .kinds
            .iter()
            .enumerate()
            .map(|(i, &kind)| coerce(seed.get(i).copied().unwrap_or(Num::Int(0)), kind))
            .collect();
        let chosen: Vec<bool> = match (n, rng.random_range(0..4u32)) {
            (0, _) => Vec::new(),
            (1, _) | (_, 0 | 1) => {
                let only = rng.random_range(0..n);
                (0..n).map(|i| i == only).collect()
            }
            (_, 2) => {
                let mut subset: Vec<bool> = (0..n).map(|_| rng.random_bool(0.5)).collect();
                if !subset.contains(&true) {
                    subset[rng.random_range(0..n)] = true;
                }
                subset
            }
            _ => vec![true; n],
        };
        let several = chosen.iter().filter(|&&c| c).count() > 1;
        let shared = (several && rng.random_bool(0.5)).then(|| draw_step(rng, reach));
        (0..n)
            .map(|i| {
                let range = self.config.ranges.get(i).copied().flatten();
                let fits = range.is_none_or(|r| r.contains(&start[i]));
                if !chosen[i] && fits {
                    return start[i];
                }
                let kind = self.kinds[i];
                // A number the position's known type cannot hold is read as undefined
                // behaviour: a question nobody can answer, so such mutants are drawn again.
                let limits = self.config.program.slot(i).and_then(|s| s.ty.int_limits());
                let fits_type = |v: &Num| match (*v, limits) {
                    (Num::Int(x), Some((min, max))) => (min..=max).contains(&x),
                    _ => true,
                };
                for _ in 0..8 {
                    let first = shared.unwrap_or_else(|| draw_step(rng, reach));
                    let mut v = self.step(first, i, &start, rng);
                    if rng.random_bool(0.25) {
                        let second = draw_step(rng, reach);
                        let mut stacked = start.clone();
                        stacked[i] = v;
                        v = self.step(second, i, &stacked, rng);
                    }
                    if range.is_none_or(|r| r.contains(&v)) && fits_type(&v) && v != start[i] {
                        return v;
                    }
                }
                match range {
                    Some(r) => uniform_in(r, kind, rng),
                    None => start[i],
                }
            })
            .collect()
    }

    /// One neighbourhood step on position `i` of `values` (the others as they are).
    fn step(&self, step: Step, i: usize, values: &[Num], rng: &mut StdRng) -> Num {
        let slot = self.config.program.slot(i).map(|s| s.ty);
        let constants = &self.config.program.constants;
        let other = (values.len() > 1).then(|| {
            let j = rng.random_range(0..values.len() - 1);
            values[if j >= i { j + 1 } else { j }]
        });
        let constant = (!constants.is_empty()).then(|| {
            let c = constants[rng.random_range(0..constants.len())];
            c.saturating_add(rng.random_range(-1..=1))
        });
        let percent = rng.random_range(1..=5i64);
        match values[i] {
            Num::Int(x) => {
                let (min, max) = slot
                    .and_then(InputType::int_limits)
                    .unwrap_or((i32::MIN as i64, i32::MAX as i64));
                let part = (x.unsigned_abs() as i128 * percent as i128 / 100).max(1) as i64;
                Num::Int(match step {
                    Step::Add(d) => x.saturating_add(d),
                    Step::Sub(d) => x.saturating_sub(d),
                    Step::PercentUp => x.saturating_add(part),
                    Step::PercentDown => x.saturating_sub(part),
                    Step::Near => {
                        let d = (x.unsigned_abs() / 10).clamp(10, i64::MAX as u64 / 2) as i64;
                        x.saturating_add(rng.random_range(-d..=d))
                    }
                    Step::Double => x.saturating_mul(2),
                    Step::Halve => x / 2,
                    Step::Negate => x.saturating_neg(),
                    Step::Zero => 0,
                    Step::One => 1,
                    Step::TypeMin => min,
                    Step::TypeMax => max,
                    Step::ProgramConstant => constant.unwrap_or(x),
                    Step::OtherPosition => match other {
                        Some(Num::Int(y)) => y,
                        Some(Num::Float(y)) => y as i64,
                        None => x,
                    },
                })
            }
            Num::Float(x) => {
                let part = (x.abs() * percent as f64 / 100.0).max(0.01);
                let y = match step {
                    Step::Add(d) => x + d as f64,
                    Step::Sub(d) => x - d as f64,
                    Step::PercentUp => round2(x + part),
                    Step::PercentDown => round2(x - part),
                    Step::Near => {
                        let d = (x.abs() / 10.0).max(10.0);
                        round2(x + rng.random_range(-d..=d))
                    }
                    Step::Double => x * 2.0,
                    Step::Halve => x / 2.0,
                    Step::Negate => -x,
                    Step::Zero => 0.0,
                    Step::One => 1.0,
                    Step::TypeMin => -1e9,
                    Step::TypeMax => 1e9,
                    Step::ProgramConstant => constant.map_or(x, |c| c as f64),
                    Step::OtherPosition => other.map_or(x, |o| o.as_f64()),
                };
                Num::Float(if y.is_finite() { y } else { x })
            }
        }
    }

    /// [`FuzzProfile::Classic`]: every position (in a share of mutants,
    /// [`FuzzConfig::single_position_share`], one position) gets a stack of `1..=k`
    /// operators.
    fn mutate_classic(&self, seed: &[Num], rng: &mut StdRng) -> Vec<Num> {
        let share = self.config.single_position_share.clamp(0.0, 1.0);
        let only = (self.kinds.len() > 1 && share > 0.0 && rng.random_bool(share))
            .then(|| rng.random_range(0..self.kinds.len()));
        self.kinds
            .iter()
            .enumerate()
            .map(|(i, &kind)| {
                let start = coerce(seed.get(i).copied().unwrap_or(Num::Int(0)), kind);
                let range = self.config.ranges.get(i).copied().flatten();
                if only.is_some_and(|j| j != i) && range.is_none_or(|r| r.contains(&start)) {
                    return start;
                }
                mutate_value(start, kind, range, self.config.max_stack.max(1), rng)
            })
            .collect()
    }

    /// A new input: a mutant of a seed drawn uniformly from `seeds` (for the
    /// neighbourhood fuzzer, after repeats, of a repeated mutant), never seen before (it
    /// is then marked seen).
    pub fn next(&mut self, seeds: &[&[Num]], rng: &mut StdRng) -> Result<Vec<Num>, FuzzStop> {
        self.next_within(seeds, rng, Reach::Far)
    }

    /// [`Fuzzer::next`] within `reach`: a [`Reach::Like`] mutant also has its seed's
    /// [`shape_of`] (signs, equalities and order of the numbers), a [`Reach::Near`] one
    /// its signs.
    pub fn next_within(
        &mut self,
        seeds: &[&[Num]],
        rng: &mut StdRng,
        reach: Reach,
    ) -> Result<Vec<Num>, FuzzStop> {
        if seeds.is_empty() {
            return Err(FuzzStop::NoSeed);
        }
        let reach = match self.config.profile {
            FuzzProfile::Neighbourhood => reach,
            FuzzProfile::Classic => Reach::Far,
        };
        // After 16 repeats in a row the neighbourhood fuzzer walks on from a repeated
        // mutant (up to 8 steps from a seed), so when the seeds' near neighbours are used
        // up it reaches further out.
        let walk = self.config.profile == FuzzProfile::Neighbourhood;
        let mut last: Option<Vec<Num>> = None;
        for attempt in 0..self.config.max_attempts {
            let (mutant, seed) = match last
                .take()
                .filter(|_| walk && attempt >= 16 && attempt % 8 != 0)
            {
                Some(from) => (self.mutate_within(&from, rng, reach), from),
                None => {
                    let seed = seeds[rng.random_range(0..seeds.len())];
                    (self.mutate_within(seed, rng, reach), seed.to_vec())
                }
            };
            let alike = match reach {
                Reach::Like => shape_of(&mutant) == shape_of(&seed),
                Reach::Near => {
                    let n = seed.len();
                    shape_of(&mutant)[..n] == shape_of(&seed)[..n]
                }
                Reach::Far => true,
            };
            if !alike {
                continue;
            }
            let k: Vec<NumKey> = mutant.iter().map(key).collect();
            if self.seen.insert(k) {
                return Ok(mutant);
            }
            last = Some(mutant);
        }
        Err(FuzzStop::Exhausted(self.config.max_attempts))
    }
}

/// A neighbourhood step `reach` allows, drawn by its weight in [`STEPS`].
fn draw_step(rng: &mut StdRng, reach: Reach) -> Step {
    let allowed = || STEPS.iter().filter(|s| reach.allows(s.0));
    let total: u32 = allowed().map(|s| s.1).sum();
    let mut at = rng.random_range(0..total);
    for &(step, weight) in allowed() {
        if at < weight {
            return step;
        }
        at -= weight;
    }
    STEPS[0].0
}

/// `n` as a value of `kind` (a float seed at an integer position is truncated).
fn coerce(n: Num, kind: Kind) -> Num {
    match (n, kind) {
        (Num::Int(i), Kind::Float) => Num::Float(i as f64),
        (Num::Float(f), Kind::Int) => Num::Int(f as i64),
        (n, _) => n,
    }
}

/// Applies a stack of operators to one value, honouring `range`: a result outside the
/// range is drawn again (a few times), then replaced by a uniform value in the range.
fn mutate_value(
    start: Num,
    kind: Kind,
    range: Option<Range>,
    max_stack: usize,
    rng: &mut StdRng,
) -> Num {
    for _ in 0..8 {
        let depth = rng.random_range(1..=max_stack);
        let mut v = start;
        for _ in 0..depth {
            let op = OPS[rng.random_range(0..OPS.len())];
            v = apply(op, v, rng);
        }
        match range {
            Some(r) if !r.contains(&v) => continue,
            _ => return v,
        }
    }
    let r = range.expect("only a range can reject a value");
    uniform_in(r, kind, rng)
}

/// A uniform value of `kind` in `r` (an empty integer range gives its clamped lower end).
fn uniform_in(r: Range, kind: Kind, rng: &mut StdRng) -> Num {
    match kind {
        Kind::Int => {
            let lo = r.min.ceil().clamp(i64::MIN as f64, i64::MAX as f64) as i64;
            let hi = r.max.floor().clamp(i64::MIN as f64, i64::MAX as f64) as i64;
            if lo <= hi {
                Num::Int(rng.random_range(lo..=hi))
            } else {
                Num::Int(lo)
            }
        }
        Kind::Float => {
            if r.min < r.max && r.min.is_finite() && r.max.is_finite() {
                Num::Float(rng.random_range(r.min..=r.max))
            } else {
                Num::Float(if r.min.is_finite() { r.min } else { 0.0 })
            }
        }
    }
}

/// One operator on one value; integers saturate instead of overflowing, floats stay finite.
pub fn apply(op: Op, v: Num, rng: &mut StdRng) -> Num {
    match v {
        Num::Int(x) => Num::Int(match op {
            Op::Keep => x,
            Op::Inc => x.saturating_add(1),
            Op::Dec => x.saturating_sub(1),
            Op::Add10 => x.saturating_add(10),
            Op::Sub10 => x.saturating_sub(10),
            Op::Times10 => x.saturating_mul(10),
            Op::Div10 => x / 10,
            Op::Near => {
                let d = (x.unsigned_abs() / 2).clamp(5, i64::MAX as u64 / 2) as i64;
                x.saturating_add(rng.random_range(-d..=d))
            }
            Op::Small => rng.random_range(-16..=16),
            Op::Boundary => INT_BOUNDARIES[rng.random_range(0..INT_BOUNDARIES.len())],
        }),
        Num::Float(x) => {
            let y = match op {
                Op::Keep => x,
                Op::Inc => x + 1.0,
                Op::Dec => x - 1.0,
                Op::Add10 => x + 10.0,
                Op::Sub10 => x - 10.0,
                Op::Times10 => x * 10.0,
                Op::Div10 => x / 10.0,
                Op::Near => {
                    let d = (x.abs() / 2.0).max(5.0);
                    round2(x + rng.random_range(-d..=d))
                }
                Op::Small => round2(rng.random_range(-16.0..=16.0)),
                Op::Boundary => FLOAT_BOUNDARIES[rng.random_range(0..FLOAT_BOUNDARIES.len())],
            };
            Num::Float(if y.is_finite() { y } else { x })
        }
    }
}

/// Rounds a random float to two decimals, so a person can read and type it.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
