//! Input-prefix snapshots: a `main` program's work before its first input read is the same for every input, so it runs once and later runs start from the saved state.

use super::vm::{Snapshot, Vm};
use super::Limits;
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
}

/// What the first run found, and under which limits (fuel ignored).
#[derive(Debug)]
struct Probed {
    limits: Limits,
    snapshot: Option<Arc<Snapshot>>,
}

/// A program's prefix snapshot, shared by every run of it (on any thread).
#[derive(Debug, Default)]
pub struct PrefixCache {
    probed: Mutex<Option<Probed>>,
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
        match &*probed {
            None => Start::Probe,
            Some(p) => match &p.snapshot {
                Some(s) if s.steps() <= limits.fuel && p.limits == without_fuel(limits) => {
                    Start::Snapshot(Arc::clone(s))
                }
                _ => Start::Scratch,
            },
        }
    }

    /// Records what a probing run under `limits` found: `paused` is its machine stopped
    /// before the first input read, `None` when it ended without reading input. The
    /// first offer wins; a prefix shorter than [`MIN_PREFIX_STEPS`] is recorded as no
    /// snapshot.
    pub fn offer(&self, limits: &Limits, paused: Option<&Vm>) {
        let mut probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
        if probed.is_none() {
            *probed = Some(Probed {
                limits: without_fuel(limits),
                snapshot: paused
                    .filter(|vm| vm.steps() >= MIN_PREFIX_STEPS)
                    .map(|vm| Arc::new(vm.snapshot())),
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
    fn other_limits_or_fuel_below_the_prefix_start_from_scratch() {
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
        let no_coverage = Limits {
            record_coverage: false,
            ..limits(1 << 20)
        };
        assert!(matches!(p.inner.prefix.start(&no_coverage), Start::Scratch));
        let tight = Limits {
            memory_bytes: 100_000,
            ..limits(1 << 20)
        };
        assert!(matches!(p.inner.prefix.start(&tight), Start::Scratch));
        let e = p.run(b"1\n", &tight);
        assert_eq!(e, from_scratch(&p, b"1\n", &tight));
        assert_eq!(e.outcome, super::super::Outcome::MemoryLimit);
    }

    #[test]
    fn short_prefixes_and_programs_without_input_keep_no_snapshot() {
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
        assert!(matches!(
            silent.inner.prefix.start(&limits(1 << 20)),
            Start::Scratch
        ));
        assert_eq!(silent.run(b"", &limits(1 << 20)), e);
    }
}
