//! Where a patch moved a boundary: from an input the patch changes, the nearest inputs along each integer position where its change stops, found by doubling steps and bisection.
//!
//! A patch that changes a comparison or a constant moves the place where the program's
//! answer changes. Codeflaws 104-A's `if (n <= 10 || n >= 23)` repairs the failing input
//! `25` but not `22`: the inputs on both sides of the edge the patch drew (`22` and `23`)
//! are the ones to ask about before calling it the fix. [`boundary_inputs`] walks from a
//! changed seed along one integer position at a time, in both directions, by steps 1, 2,
//! 4, ... until the change stops (or a bound is reached), then bisects to the adjacent
//! pair: the last changed and the first unchanged value. Both are returned.

use crate::lang::Num;

/// The inclusive bounds one integer position may take (its type, the session's range,
/// the signs the tests show).
pub type Bounds = (i64, i64);

/// The inputs on both sides of each edge of the change region along every integer
/// position of `seed`, nearest first per direction; `changed(input)` says whether the
/// patch changes the program's answer there (`None`: the run budget is spent, stop).
/// Positions without bounds (`None`, e.g. floats) are not walked. The seed itself is not
/// returned; an input is returned once.
pub fn boundary_inputs(
    seed: &[Num],
    bounds: &[Option<Bounds>],
    changed: &mut dyn FnMut(&[Num]) -> Option<bool>,
) -> Vec<Vec<Num>> {
    let mut out: Vec<Vec<Num>> = Vec::new();
    for (i, &b) in bounds.iter().enumerate().take(seed.len()) {
        let (Some((lo, hi)), Num::Int(start)) = (b, seed[i]) else {
            continue;
        };
        if !(lo..=hi).contains(&start) {
            continue;
        }
        for dir in [-1i64, 1] {
            let Some(edge) = walk(seed, i, start, dir, (lo, hi), changed) else {
                continue;
            };
            for value in edge {
                let mut input = seed.to_vec();
                input[i] = Num::Int(value);
                if input != seed && !out.contains(&input) {
                    out.push(input);
                }
            }
        }
    }
    out
}

/// From `start` (changed) along position `i` in direction `dir`: the last changed and the
/// first unchanged value, adjacent; `None` when the bound comes first or the budget ends.
fn walk(
    seed: &[Num],
    i: usize,
    start: i64,
    dir: i64,
    (lo, hi): Bounds,
    changed: &mut dyn FnMut(&[Num]) -> Option<bool>,
) -> Option<[i64; 2]> {
    let mut probe = |v: i64| {
        let mut input = seed.to_vec();
        input[i] = Num::Int(v);
        changed(&input)
    };
    let mut inside = start;
    let mut step: i64 = 1;
    let mut outside = loop {
        let next = inside.checked_add(dir.checked_mul(step)?)?;
        // Past the bound: try the bound itself once, then stop.
        let next = next.clamp(lo, hi);
        if next == inside {
            return None;
        }
        if probe(next)? {
            inside = next;
            step = step.saturating_mul(2);
        } else {
            break next;
        }
    };
    while (outside - inside).abs() > 1 {
        let mid = inside + (outside - inside) / 2;
        if probe(mid)? {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    Some([inside, outside])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<Num> {
        v.iter().map(|&x| Num::Int(x)).collect()
    }

    #[test]
    fn the_edge_of_a_moved_threshold_is_found_on_both_sides() {
        // 104-A's wrong patch: it changes the answer for n >= 23 (and nothing else).
        let mut runs = 0;
        let mut changed = |input: &[Num]| {
            runs += 1;
            Some(matches!(input[0], Num::Int(n) if n >= 23))
        };
        let found = boundary_inputs(&ints(&[25]), &[Some((1, 1_000_000))], &mut changed);
        assert_eq!(found, vec![ints(&[23]), ints(&[22])]);
        // Doubling then bisection: a few dozen runs, not a scan of a million values.
        assert!(runs < 60, "{runs} runs");
    }

    #[test]
    fn a_single_changed_value_gives_its_neighbours() {
        // `x < 7` -> `x <= 7` changes the answer at 7 alone.
        let mut changed = |input: &[Num]| Some(input[0] == Num::Int(7));
        let found = boundary_inputs(&ints(&[7]), &[Some((i64::MIN, i64::MAX))], &mut changed);
        assert_eq!(found, vec![ints(&[6]), ints(&[8])]);
    }

    #[test]
    fn positions_are_walked_one_at_a_time_within_their_bounds() {
        // Changed where a == b == c and a >= 2; position 1 may not go below 2.
        let mut changed = |x: &[Num]| Some(x[0] == x[1] && x[1] == x[2] && x[0] != Num::Int(1));
        let found = boundary_inputs(
            &ints(&[2, 2, 2]),
            &[Some((0, 100)), Some((2, 100)), None],
            &mut changed,
        );
        assert_eq!(
            found,
            vec![ints(&[1, 2, 2]), ints(&[3, 2, 2]), ints(&[2, 3, 2])]
        );
    }

    #[test]
    fn a_change_up_to_the_bound_has_no_edge_and_a_spent_budget_stops() {
        let mut always = |_: &[Num]| Some(true);
        assert!(boundary_inputs(&ints(&[5]), &[Some((0, 9))], &mut always).is_empty());
        let mut spent = |_: &[Num]| None;
        assert!(boundary_inputs(&ints(&[5]), &[Some((0, 9))], &mut spent).is_empty());
    }
}
