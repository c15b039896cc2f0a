//! Exact numbers for the oracle: `i64` when integral and small, big rationals otherwise.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// An exact number: a test input or output as the oracle sees it.
///
/// Invariant: a value that is an integer fitting in `i64` is always [`Value::Int`], so two
/// equal numbers are equal structurally (and hash alike). Floats enter exactly through
/// [`Value::from_f64`]; decisions never use floating point.
#[derive(Clone, Debug)]
pub enum Value {
    /// An integer in `i64` range.
    Int(i64),
    /// Any other rational (non-integral, or integral but outside `i64`).
    Rat(BigRational),
}

impl Value {
    /// Zero.
    pub const ZERO: Value = Value::Int(0);

    /// The exact value of a finite float (`None` for NaN and infinities).
    pub fn from_f64(f: f64) -> Option<Value> {
        if !f.is_finite() {
            return None;
        }
        if f.fract() == 0.0 && f.abs() < 9.0e18 {
            return Some(Value::Int(f as i64));
        }
        BigRational::from_float(f).map(Value::from_rational)
    }

    /// A value from a big rational, normalised to [`Value::Int`] when possible.
    pub fn from_rational(r: BigRational) -> Value {
        if r.is_integer() {
            if let Some(i) = r.numer().to_i64() {
                return Value::Int(i);
            }
        }
        Value::Rat(r)
    }

    /// The fraction `num / den` (`None` when `den` is zero).
    pub fn fraction(num: i64, den: i64) -> Option<Value> {
        if den == 0 {
            return None;
        }
        Some(Value::from_rational(BigRational::new(
            BigInt::from(num),
            BigInt::from(den),
        )))
    }

    /// The value as a big rational.
    pub fn to_rational(&self) -> BigRational {
        match self {
            Value::Int(i) => BigRational::from_integer(BigInt::from(*i)),
            Value::Rat(r) => r.clone(),
        }
    }

    /// Whether the value is an integer (of any size).
    pub fn is_integer(&self) -> bool {
        match self {
            Value::Int(_) => true,
            Value::Rat(r) => r.is_integer(),
        }
    }

    /// The value as `i64` when it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Rat(_) => None,
        }
    }

    /// A float approximation, for display and plotting only (never for a decision).
    pub fn to_f64(&self) -> f64 {
        match self {
            Value::Int(i) => *i as f64,
            Value::Rat(r) => r.to_f64().unwrap_or(f64::NAN),
        }
    }

    /// `num / den` as `i128`s when both fit (den > 0), for fast exact comparisons.
    #[inline]
    pub(crate) fn as_i128_fraction(&self) -> Option<(i128, i128)> {
        match self {
            Value::Int(i) => Some((*i as i128, 1)),
            Value::Rat(r) => Some((r.numer().to_i128()?, r.denom().to_i128()?)),
        }
    }

    /// Parses `12`, `-3.25`, `1e-3`, `7/2` exactly (`None` on anything else).
    pub fn parse(text: &str) -> Option<Value> {
        let t = text.trim();
        if t.is_empty() || t.len() > 4096 {
            return None;
        }
        if let Some((n, d)) = t.split_once('/') {
            let n = Value::parse(n)?.to_rational();
            let d = Value::parse(d)?.to_rational();
            if d.is_zero() {
                return None;
            }
            return Some(Value::from_rational(n / d));
        }
        if let Ok(i) = t.parse::<i64>() {
            return Some(Value::Int(i));
        }
        let (mantissa, exp) = match t.find(['e', 'E']) {
            Some(pos) => (&t[..pos], t[pos + 1..].parse::<i32>().ok()?),
            None => (t, 0),
        };
        if !(-4000..=4000).contains(&exp) {
            return None;
        }
        let (neg, digits) = match mantissa.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
        };
        let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part.bytes().all(|b| b.is_ascii_digit())
            || !frac_part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let all: String = format!("{int_part}{frac_part}");
        let mut num: BigInt = if all.is_empty() {
            BigInt::zero()
        } else {
            all.parse().ok()?
        };
        if neg {
            num = -num;
        }
        let scale = exp - frac_part.len() as i32;
        let ten = BigInt::from(10);
        let r = if scale >= 0 {
            BigRational::from_integer(num * num_traits::pow(ten, scale as usize))
        } else {
            BigRational::new(num, num_traits::pow(ten, (-scale) as usize))
        };
        Some(Value::from_rational(r))
    }

    /// The simplest number `c` with `lo < c <= hi`: [`Value::simplest_in`] mirrored, so
    /// the gap's upper end may be the constant instead of its lower end.
    pub fn simplest_in_upper(lo: &Value, hi: &Value) -> Value {
        let neg = |v: &Value| Value::from_rational(-v.to_rational());
        neg(&Value::simplest_in(&neg(hi), &neg(lo)))
    }

    /// The simplest number `c` with `lo <= c < hi` (fewest decimal digits, then nearest
    /// the midpoint); `lo` itself when `hi <= lo`.
    ///
    /// Used for threshold constants: any `c` in the gap classifies the data alike, and a
    /// round constant in the middle of the gap is what a person would write.
    pub fn simplest_in(lo: &Value, hi: &Value) -> Value {
        if hi <= lo {
            return lo.clone();
        }
        if let (Value::Int(l), Value::Int(h)) = (lo, hi) {
            return Value::Int(simplest_int(*l, *h));
        }
        let lo_r = lo.to_rational();
        let hi_r = hi.to_rational();
        let mid = (&lo_r + &hi_r) / BigRational::from_integer(BigInt::from(2));
        let ten = BigInt::from(10);
        // Try steps 10^k for k from coarse to fine.
        let width = &hi_r - &lo_r;
        let mut k: i32 = 0;
        // Start with the largest power of ten not above the width, then go up a bit in
        // case a round multiple still fits.
        let mut p = BigRational::one();
        while p > width && k > -40 {
            p /= BigRational::from_integer(ten.clone());
            k -= 1;
        }
        while p <= width && k < 40 {
            p *= BigRational::from_integer(ten.clone());
            k += 1;
        }
        for _ in 0..80 {
            // Multiples of p in [lo, hi): ceil(lo/p)*p .. ; choose the nearest to mid.
            let first = (&lo_r / &p).ceil();
            let last_excl = (&hi_r / &p).ceil();
            if first < last_excl {
                let m = (&mid / &p).floor();
                let mut best: Option<BigRational> = None;
                for cand in [m.clone(), m + BigRational::one()] {
                    let c = if cand < first {
                        first.clone()
                    } else if cand >= last_excl {
                        &last_excl - BigRational::one()
                    } else {
                        cand
                    };
                    let v = c * &p;
                    best = Some(match best {
                        None => v,
                        Some(b) => {
                            if (&v - &mid).abs() < (&b - &mid).abs() {
                                v
                            } else {
                                b
                            }
                        }
                    });
                }
                if let Some(b) = best {
                    return Value::from_rational(b);
                }
            }
            p /= BigRational::from_integer(ten.clone());
        }
        // Fall back to the exact midpoint (always inside [lo, hi)).
        Value::from_rational(mid)
    }
}

/// `simplest_in` for integers `lo < hi`: the roundest integer in `[lo, hi)` nearest the
/// midpoint.
fn simplest_int(lo: i64, hi: i64) -> i64 {
    let bound = lo.unsigned_abs().max(hi.unsigned_abs());
    let Some((first, last_excl, p)) = round_multiples(lo, hi, bound) else {
        return lo;
    };
    // The multiple m*p nearest the midpoint: m = round(mid / p), clamped to
    // first..last_excl. Every intermediate is at most about 4 * bound: in i64 when that
    // fits (i128 multiplication and division are library calls on wasm32).
    macro_rules! nearest {
        ($t:ty) => {{
            let (first, last_excl, p) = (first as $t, last_excl as $t, p as $t);
            let mid2 = lo as $t + hi as $t; // twice the midpoint
            let m = mid2.div_euclid(2 * p);
            let mut best = first;
            for cand in [m, m + 1] {
                let c = cand.clamp(first, last_excl - 1);
                if (2 * c * p - mid2).abs() < (2 * best * p - mid2).abs() {
                    best = c;
                }
            }
            (best * p) as i64
        }};
    }
    if bound < 1 << 60 {
        nearest!(i64)
    } else {
        nearest!(i128)
    }
}

/// The largest power of ten `p` (from 10^18 down) with a multiple in `[lo, hi)`, and the
/// multipliers of those multiples, `first..last_excl`. A power above
/// `bound = max(|lo|, |hi|)` has one there only if 0 is in the gap: those are skipped.
fn round_multiples(lo: i64, hi: i64, bound: u64) -> Option<(i64, i64, i64)> {
    let spans_zero = lo <= 0 && 0 < hi;
    POWERS_OF_TEN.iter().rev().find_map(|&p| {
        if !spans_zero && p as u64 > bound {
            return None;
        }
        let first = lo.div_euclid(p) + i64::from(lo.rem_euclid(p) != 0);
        let last_excl = hi.div_euclid(p) + i64::from(hi.rem_euclid(p) != 0);
        (first < last_excl).then_some((first, last_excl, p))
    })
}

/// `10^k` for `k` in `0..=18`.
const POWERS_OF_TEN: [i64; 19] = {
    let mut t = [1i64; 19];
    let mut k = 1;
    while k < 19 {
        t[k] = t[k - 1] * 10;
        k += 1;
    }
    t
};

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}

impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value::Int(i as i64)
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Rat(a), Value::Rat(b)) => a == b,
            _ => false, // normalisation invariant
        }
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Value::Int(i) => {
                0u8.hash(state);
                i.hash(state);
            }
            Value::Rat(r) => {
                1u8.hash(state);
                r.hash(state);
            }
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            _ => self.to_rational().cmp(&other.to_rational()),
        }
    }
}

impl fmt::Display for Value {
    /// Integers as integers, terminating decimals as decimals (`3.5`), others as `p/q`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Rat(r) => {
                if r.is_integer() {
                    return write!(f, "{}", r.numer());
                }
                // Terminating decimal iff the denominator is 2^a 5^b.
                let mut d = r.denom().clone();
                let (two, five) = (BigInt::from(2), BigInt::from(5));
                let (mut a, mut b) = (0usize, 0usize);
                while d.is_even() {
                    d /= &two;
                    a += 1;
                }
                while (&d % &five).is_zero() {
                    d /= &five;
                    b += 1;
                }
                let digits = a.max(b);
                if d.is_one() && digits <= 30 {
                    let scaled =
                        r * BigRational::from_integer(num_traits::pow(BigInt::from(10), digits));
                    let n = scaled.to_integer();
                    let neg = n.is_negative();
                    let s = n.abs().to_string();
                    let s = format!("{s:0>width$}", width = digits + 1);
                    let (ip, fp) = s.split_at(s.len() - digits);
                    write!(f, "{}{}.{}", if neg { "-" } else { "" }, ip, fp)
                } else {
                    write!(f, "{}/{}", r.numer(), r.denom())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplest_int_is_the_round_multiple_nearest_the_middle() {
        // A seeded walk over gaps of every size, sign and magnitude (both arithmetic
        // paths, below and above 2^60), against a direct search in i128.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let scale = 1u64 << (next() % 63);
            let lo = (next() % scale) as i64 * if next() % 2 == 0 { 1 } else { -1 };
            let width = 1 + (next() % scale.max(2)) as i64;
            let Some(hi) = lo.checked_add(width) else {
                continue;
            };
            // The coarsest power of ten with a multiple in [lo, hi), then its multiple
            // nearest the midpoint (the lower one on a tie).
            let (lo_w, hi_w) = (lo as i128, hi as i128);
            let p = (0..=18u32)
                .rev()
                .map(|k| 10i128.pow(k))
                .find(|&p| {
                    lo_w.div_euclid(p) + i128::from(lo_w.rem_euclid(p) != 0)
                        < hi_w.div_euclid(p) + i128::from(hi_w.rem_euclid(p) != 0)
                })
                .unwrap();
            let first = lo_w.div_euclid(p) + i128::from(lo_w.rem_euclid(p) != 0);
            let last = hi_w.div_euclid(p) + i128::from(hi_w.rem_euclid(p) != 0) - 1;
            let mid2 = lo_w + hi_w;
            let want = (first..=last.min(first + 4))
                .chain((last - 4).max(first)..=last)
                .chain({
                    let m = mid2.div_euclid(2 * p);
                    [m - 1, m, m + 1, m + 2]
                        .into_iter()
                        .filter(|c| (first..=last).contains(c))
                })
                .min_by_key(|&c| ((2 * c * p - mid2).abs(), c))
                .unwrap()
                * p;
            assert_eq!(simplest_int(lo, hi) as i128, want, "{lo} {hi}");
        }
    }

    #[test]
    fn parse_and_print_round_trip() {
        for s in ["0", "-3", "3.5", "-0.25", "7/3", "-7/3", "0.001"] {
            let v = Value::parse(s).unwrap();
            assert_eq!(Value::parse(&v.to_string()).unwrap(), v, "{s}");
        }
        assert_eq!(Value::parse("1e3").unwrap(), Value::Int(1000));
        assert_eq!(Value::parse("4/2").unwrap(), Value::Int(2));
        assert!(Value::parse("1/0").is_none());
        assert!(Value::parse("abc").is_none());
        assert!(Value::parse("").is_none());
    }

    #[test]
    fn floats_are_exact() {
        assert_eq!(Value::from_f64(2.0).unwrap(), Value::Int(2));
        assert_eq!(
            Value::from_f64(0.5).unwrap(),
            Value::fraction(1, 2).unwrap()
        );
        assert!(Value::from_f64(f64::NAN).is_none());
        let tiny = Value::from_f64(1e-300).unwrap();
        assert!(tiny > Value::ZERO && tiny < Value::from_f64(1e-299).unwrap());
        let huge = Value::from_f64(1e300).unwrap();
        assert!(huge > Value::Int(i64::MAX));
    }

    #[test]
    fn simplest_constants() {
        let s = |a: i64, b: i64| Value::simplest_in(&Value::Int(a), &Value::Int(b));
        assert_eq!(s(3, 7), Value::Int(5));
        assert_eq!(s(3, 4), Value::Int(3));
        assert_eq!(s(95, 130), Value::Int(100));
        assert_eq!(s(-4, 0), Value::Int(-2));
        let h = Value::simplest_in(
            &Value::parse("0.1").unwrap(),
            &Value::parse("0.35").unwrap(),
        );
        assert_eq!(h, Value::parse("0.2").unwrap());
    }

    #[test]
    fn simplest_constants_with_the_upper_end() {
        let s = |a: i64, b: i64| Value::simplest_in_upper(&Value::Int(a), &Value::Int(b));
        // The upper end may be the constant, the lower end may not.
        assert_eq!(s(-4, 0), Value::Int(0));
        assert_eq!(s(-34, 0), Value::Int(0));
        assert_eq!(s(3, 4), Value::Int(4));
        assert_eq!(s(3, 7), Value::Int(5));
        assert_eq!(s(95, 130), Value::Int(100));
        assert_eq!(s(i64::MIN, i64::MIN + 1), Value::Int(i64::MIN + 1));
    }
}
