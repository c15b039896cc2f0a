//! Two-stage work on a few threads: every item is prepared, in index order, and each prepared item's runs follow, costliest item first, with no barrier between the stages.
//!
//! A thread prepares while items are left to prepare, then takes the next run of the
//! costliest prepared item (ties by index, then run: longest-processing-time order),
//! and waits only when nothing is runnable while another thread is still preparing.
//! So no thread idles while the last items are prepared, and with one thread the runs
//! go in longest-processing-time order over all items. The order never changes a result.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// What is left to do.
struct Queue {
    next_prepare: usize,
    preparing: usize,
    /// Runs of prepared items: (cost, item, run), the greatest first.
    runnable: BinaryHeap<(u64, Reverse<usize>, Reverse<usize>)>,
}

enum Task {
    Prepare(usize),
    Run(usize, usize),
    Stop,
}

/// The value behind `m`, also after a thread panicked while holding it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Prepares items `0..n` (`prepare` gives the prepared item and its cost, or `None`
/// for an item without runs) and runs each prepared item `runs` times on `threads`
/// threads. `last_run` sees an item after its last run, before it is dropped. Returns
/// every item's results in run order (none for an item `prepare` gave `None`).
pub fn prepare_then_run<P: Send + Sync, R: Send>(
    n: usize,
    runs: usize,
    threads: usize,
    prepare: impl Fn(usize) -> Option<(P, u64)> + Sync,
    run: impl Fn(usize, usize, &P) -> R + Sync,
    last_run: impl Fn(usize, &P) + Sync,
) -> Vec<Vec<R>> {
    let queue = Mutex::new(Queue {
        next_prepare: 0,
        preparing: 0,
        runnable: BinaryHeap::new(),
    });
    let wake = Condvar::new();
    // A prepared item while its runs are under way (dropped after its last run).
    let items: Vec<Mutex<Option<Arc<P>>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let runs_left: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(runs)).collect();
    let results: Vec<Mutex<Vec<Option<R>>>> = (0..n)
        .map(|_| Mutex::new((0..runs).map(|_| None).collect()))
        .collect();
    let next_task = || {
        let mut q = lock(&queue);
        loop {
            if q.next_prepare < n {
                q.next_prepare += 1;
                q.preparing += 1;
                return Task::Prepare(q.next_prepare - 1);
            }
            if let Some((_, Reverse(i), Reverse(r))) = q.runnable.pop() {
                return Task::Run(i, r);
            }
            if q.preparing == 0 {
                return Task::Stop;
            }
            q = wake.wait(q).unwrap_or_else(PoisonError::into_inner);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                match next_task() {
                    Task::Prepare(i) => {
                        let prepared = prepare(i);
                        let mut q = lock(&queue);
                        q.preparing -= 1;
                        if let Some((value, cost)) = prepared {
                            *lock(&items[i]) = Some(Arc::new(value));
                            q.runnable
                                .extend((0..runs).map(|r| (cost, Reverse(i), Reverse(r))));
                        }
                        wake.notify_all();
                    }
                    Task::Run(i, r) => {
                        // Queued only once prepared, and dropped only after its last run.
                        let Some(value) = lock(&items[i]).clone() else {
                            continue;
                        };
                        lock(&results[i])[r] = Some(run(i, r, &value));
                        if runs_left[i].fetch_sub(1, Ordering::AcqRel) == 1 {
                            last_run(i, &value);
                            lock(&items[i]).take();
                        }
                    }
                    Task::Stop => break,
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .into_iter()
                .flatten()
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order in which `(item, run)` runs start once every item is prepared, given
    /// `(item, cost)` pairs: costliest first, then by index, an item's runs together.
    fn schedule(costs: &[(usize, u64)], runs: usize) -> Vec<(usize, usize)> {
        let mut items = costs.to_vec();
        items.sort_by_key(|&(i, cost)| (Reverse(cost), i));
        items
            .iter()
            .flat_map(|&(i, _)| (0..runs).map(move |run| (i, run)))
            .collect()
    }

    #[test]
    fn costliest_items_run_first_then_by_index_with_runs_together() {
        let costs = [(0, 5), (1, 100), (2, 5), (4, 7)];
        assert_eq!(
            schedule(&costs, 2),
            vec![
                (1, 0),
                (1, 1),
                (4, 0),
                (4, 1),
                (0, 0),
                (0, 1),
                (2, 0),
                (2, 1)
            ]
        );
        assert!(schedule(&costs, 0).is_empty());
    }

    /// Item 3 has no runs; the others cost `(i * 7) % 5`.
    fn cost(i: usize) -> Option<u64> {
        (i != 3).then_some(((i * 7) % 5) as u64)
    }

    #[test]
    fn one_thread_prepares_everything_then_runs_in_schedule_order() {
        let log = Mutex::new(Vec::new());
        let out = prepare_then_run(
            6,
            2,
            1,
            |i| cost(i).map(|c| (i * 10, c)),
            |i, r, p: &usize| {
                lock(&log).push((i, r));
                p + r
            },
            |_, _| {},
        );
        let costs: Vec<(usize, u64)> = (0..6).filter_map(|i| cost(i).map(|c| (i, c))).collect();
        assert_eq!(*lock(&log), schedule(&costs, 2));
        assert_eq!(out[3], Vec::<usize>::new());
        assert_eq!(out[5], vec![50, 51]);
    }

    #[test]
    fn results_and_last_runs_do_not_depend_on_the_thread_count() {
        let by = |threads: usize| {
            let finished = Mutex::new(Vec::new());
            let out = prepare_then_run(
                40,
                3,
                threads,
                |i| cost(i).map(|c| (vec![i; 100], c)),
                |i, r, p: &Vec<usize>| p.iter().sum::<usize>() * 10 + i + r,
                |i, p| lock(&finished).push((i, p.len())),
            );
            let mut finished = finished.into_inner().unwrap();
            finished.sort();
            (out, finished)
        };
        let one = by(1);
        assert_eq!(one.1.len(), 39);
        assert_eq!(one.0[7], vec![7007, 7008, 7009]);
        for threads in [2, 3, 8] {
            assert_eq!(by(threads), one, "{threads} threads");
        }
        assert!(
            prepare_then_run(5, 0, 2, |_| Some(((), 1)), |_, _, _| 1, |_, _| {})
                .iter()
                .all(Vec::is_empty)
        );
    }
}
