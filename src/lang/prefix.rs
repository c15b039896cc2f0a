//! Input-prefix snapshots: a `main` program's work before its first input read is the same for every input, so it runs once and later runs start from the saved state.

use super::vm::{Snapshot, Vm};
use super::{Execution, Limits};
use std::sync::{Arc, Mutex};

/// A prefix shorter than this many steps is not worth saving: restoring a snapshot
/// copies its memory, which costs about as much as re-running a short prefix.
pub const MIN_PREFIX_STEPS: u64 = 10_000;

/// How a run of a program should start.
pub enum Start {
    /// Run from the beginning, pausing before the first input read so that the state
    /// can be offered with [`PrefixCache::offer`] (the first run of the program).
    Probe,
    /// Run from the beginning (no snapshot applies).
    Scratch,
    /// Continue from this snapshot.
    Snapshot(Arc<Snapshot>),
    /// Nothing to run: under these limits (fuel included) the program ends before its
    /// first input read, so every run's result is this one.
    Whole(Arc<Execution>),
}

/// What the first run under some limits found, and which limits (fuel ignored).
#[derive(Debug)]
struct Probed {
    limits: Limits,
    snapshot: Option<Arc<Snapshot>>,
    /// The whole run, when it ended before reading input, with the fuel it had.
    whole: Option<(u64, Arc<Execution>)>,
}

/// Distinct limits (fuel aside) a program keeps a prefix snapshot for: a labeller runs
/// the golden program under two (as it is, and with every undefined result 0), and repair
/// records coverage where the loop does not.
pub const MAX_PREFIX_LIMITS: usize = 4;

/// A program's prefix snapshots, one per limits it ran under (fuel aside, at most
/// [`MAX_PREFIX_LIMITS`]), shared by every run of it (on any thread).
#[derive(Debug, Default)]
pub struct PrefixCache {
    probed: Mutex<Vec<Probed>>,
}

/// `limits` with fuel cleared: a snapshot applies to every fuel that covers its steps.
fn without_fuel(limits: &Limits) -> Limits {
    Limits {
        fuel: 0,
        ..limits.clone()
    }
}

impl PrefixCache {
    /// How a run under `limits` starts.
    pub fn start(&self, limits: &Limits) -> Start {
        let probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
        let key = without_fuel(limits);
        match probed.iter().find(|p| p.limits == key) {
            None if probed.len() < MAX_PREFIX_LIMITS => Start::Probe,
            None => Start::Scratch,
            Some(p) => match (&p.snapshot, &p.whole) {
                (Some(s), _) if s.steps() <= limits.fuel => Start::Snapshot(Arc::clone(s)),
                (_, Some((fuel, e))) if *fuel == limits.fuel => Start::Whole(Arc::clone(e)),
                _ => Start::Scratch,
            },
        }
    }

    /// Records what a probing run under `limits` found: its machine stopped before the
    /// first input read. The first offer for the limits wins; a prefix shorter than
    /// [`MIN_PREFIX_STEPS`] is recorded as no snapshot.
    pub fn offer(&self, limits: &Limits, paused: &Vm) {
        let snapshot = (paused.steps() >= MIN_PREFIX_STEPS).then(|| Arc::new(paused.snapshot()));
        self.record(limits, snapshot, None);
    }

    /// Records that a probing run under `limits` ended without reading input, as
    /// `execution`: later runs under the same limits and fuel get it without running.
    pub fn offer_whole(&self, limits: &Limits, execution: &Execution) {
        let whole = Some((limits.fuel, Arc::new(execution.clone())));
        self.record(limits, None, whole);
    }

    fn record(
        &self,
        limits: &Limits,
        snapshot: Option<Arc<Snapshot>>,
        whole: Option<(u64, Arc<Execution>)>,
    ) {
        let mut probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
        let key = without_fuel(limits);
        if probed.len() < MAX_PREFIX_LIMITS && !probed.iter().any(|p| p.limits == key) {
            probed.push(Probed {
                limits: key,
                snapshot,
                whole,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compile, Execution, Limits, Program, SKIP_PREFIX};
    use super::Start;

    /// A prefix of 30 000+ steps that writes globals on many pages, the heap, a local
    /// array of `main`, stdout and the random state, then reads input in a nested call.
    const TABLE: &str = r#"
        #include <stdio.h>
        #include <stdlib.h>
        long long f[100000];
        int *h;
        int read_n(void) { int n; if (scanf("%d", &n) != 1) return -1; return n; }
        int main(void) {
            int loc[50];
            int k;
            f[0] = 1;
            for (k = 1; k < 100000; k++) f[k] = f[k - 1] * 3 % 1000003;
            h = malloc(40 * sizeof(int));
            for (k = 0; k < 40; k++) { h[k] = k * k; loc[k] = rand() % 100; }
            printf("ready\n");
            int n = read_n();
            while (n >= 0) {
                if (n >= 100000) { int z = 0; printf("%d\n", n / z); }
                printf("%lld %d %d %d\n", f[n], h[n % 40], loc[n % 40], rand() % 1000);
                while (n > 99990) { }
                n = read_n();
            }
            return 0;
        }
    "#;

    fn from_scratch(p: &Program, input: &[u8], limits: &Limits) -> Execution {
        SKIP_PREFIX.with(|x| x.set(true));
        let e = p.run(input, limits);
        SKIP_PREFIX.with(|x| x.set(false));
        e
    }

    fn limits(fuel: u64) -> Limits {
        Limits {
            fuel,
            record_coverage: true,
            ..Limits::default()
        }
    }

    #[test]
    fn snapshot_starts_equal_runs_from_scratch() {
        let p = compile(TABLE).expect("compiles");
        let inputs: [&[u8]; 7] = [
            b"5\n",
            b"0 1 2 99999\n",
            b"",
            b"x",
            b"100000\n",
            b"99995\n",
            b"7 8 9 10 11 12 13 14 15 16 17 18 19 20",
        ];
        // The first run probes; every later one starts from the snapshot.
        assert!(matches!(
            p.inner.prefix.start(&limits(1 << 20)),
            Start::Probe
        ));
        let first = p.run(inputs[0], &limits(1 << 20));
        let Start::Snapshot(snap) = p.inner.prefix.start(&limits(1 << 20)) else {
            panic!("no snapshot after the first run");
        };
        assert_eq!(first, from_scratch(&p, inputs[0], &limits(1 << 20)));
        let s = snap.steps();
        for fuel in [30_000, s - 1, s, s + 1, s + 50, 400_000, 1 << 20] {
            for input in inputs {
                let l = limits(fuel);
                let e = p.run(input, &l);
                assert_eq!(
                    e,
                    from_scratch(&p, input, &l),
                    "fuel {fuel}, input {input:?}"
                );
            }
        }
        let timeout = p.run(b"99995\n", &limits(1 << 20));
        assert_eq!(timeout.outcome, super::super::Outcome::Timeout);
        assert_eq!(timeout.steps, 1 << 20);
    }

    #[test]
    fn other_limits_get_their_own_snapshot_and_low_fuel_starts_from_scratch() {
        let p = compile(TABLE).expect("compiles");
        p.run(b"1\n", &limits(1 << 20));
        let Start::Snapshot(s) = p.inner.prefix.start(&limits(1 << 20)) else {
            panic!("no snapshot after the first run");
        };
        assert!(s.steps() > 200_000 && s.steps() < 200_200, "{}", s.steps());
        assert!(matches!(
            p.inner.prefix.start(&limits(s.steps() - 1)),
            Start::Scratch
        ));
        assert!(matches!(
            p.inner.prefix.start(&limits(s.steps())),
            Start::Snapshot(_)
        ));
        // Other limits probe once, then start from a snapshot of their own, with the
        // results of runs from scratch.
        let no_coverage = Limits {
            record_coverage: false,
            ..limits(1 << 20)
        };
        assert!(matches!(p.inner.prefix.start(&no_coverage), Start::Probe));
        let first = p.run(b"3\n", &no_coverage);
        assert_eq!(first, from_scratch(&p, b"3\n", &no_coverage));
        assert!(matches!(
            p.inner.prefix.start(&no_coverage),
            Start::Snapshot(_)
        ));
        assert_eq!(
            p.run(b"4\n", &no_coverage),
            from_scratch(&p, b"4\n", &no_coverage)
        );
        // A prefix that ends at a limit is every run under those limits.
        let tight = Limits {
            memory_bytes: 100_000,
            ..limits(1 << 20)
        };
        let e = p.run(b"1\n", &tight);
        assert_eq!(e, from_scratch(&p, b"1\n", &tight));
        assert_eq!(e.outcome, super::super::Outcome::MemoryLimit);
        assert!(matches!(p.inner.prefix.start(&tight), Start::Whole(_)));
        assert_eq!(p.run(b"2\n", &tight), e);
        // Past MAX_PREFIX_LIMITS distinct limits, runs start from scratch.
        let more = Limits {
            output_bytes: 12_345,
            ..limits(1 << 20)
        };
        assert_eq!(super::MAX_PREFIX_LIMITS, 4);
        p.run(b"1\n", &more);
        let fifth = Limits {
            output_bytes: 54_321,
            ..limits(1 << 20)
        };
        assert!(matches!(p.inner.prefix.start(&fifth), Start::Scratch));
        assert_eq!(p.run(b"5\n", &fifth), from_scratch(&p, b"5\n", &fifth));
    }

    #[test]
    fn a_run_that_ends_before_reading_input_is_every_run_under_those_limits() {
        // The prefix outlasts the fuel: every run times out there, whatever the input.
        let p = compile(
            "int t[1000]; int main(void){int i=0, n; while (1) { t[i % 1000] += i; i++; } \
             scanf(\"%d\", &n); return 0;}",
        )
        .expect("compiles");
        let first = p.run(b"1", &limits(50_000));
        assert_eq!(first.outcome, super::super::Outcome::Timeout);
        let Start::Whole(whole) = p.inner.prefix.start(&limits(50_000)) else {
            panic!("no whole run recorded");
        };
        assert_eq!(*whole, first);
        for input in [&b"2"[..], b"", b"x y z"] {
            assert_eq!(
                p.run(input, &limits(50_000)),
                from_scratch(&p, input, &limits(50_000))
            );
        }
        // Another fuel runs.
        assert!(matches!(
            p.inner.prefix.start(&limits(60_000)),
            Start::Scratch
        ));
        assert_eq!(p.run(b"1", &limits(60_000)).steps, 60_000);
    }

    #[test]
    fn short_prefixes_keep_no_snapshot_and_programs_without_input_keep_their_run() {
        let short =
            compile("int main(void){int n; scanf(\"%d\",&n); printf(\"%d\\n\", n); return 0;}")
                .expect("compiles");
        assert_eq!(short.run(b"4", &limits(1000)).stdout, b"4\n");
        assert!(matches!(
            short.inner.prefix.start(&limits(1000)),
            Start::Scratch
        ));
        let silent = compile("int main(void){long s=0; for(int i=0;i<20000;i++) s+=i; printf(\"%ld\\n\", s); return 0;}")
            .expect("compiles");
        let e = silent.run(b"", &limits(1 << 20));
        assert_eq!(e.stdout, b"199990000\n");
        // It reads no input: its one run is every run under these limits.
        assert!(matches!(
            silent.inner.prefix.start(&limits(1 << 20)),
            Start::Whole(_)
        ));
        assert_eq!(silent.run(b"", &limits(1 << 20)), e);
        assert_eq!(from_scratch(&silent, b"7", &limits(1 << 20)), e);
    }
}
