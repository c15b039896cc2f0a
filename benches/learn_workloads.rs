//! Criterion benchmark of the learner on `fixloop bench learn`'s workloads: triangle and two-variable DNF draws, and the learn calls recorded from active-loop runs.
//!
//! Run with `cargo bench --bench learn_workloads` (a row's name as a filter, e.g.
//! `cargo bench --bench learn_workloads -- 'triangle 20'`). One benchmark per table row
//! of `fixloop bench learn`: an iteration makes every call of the row once (a
//! look-ahead's learner is prepared untimed, as the loop has it already), and the
//! throughput is in calls, so criterion's "elem/s" is calls per second. Wall time;
//! `fixloop bench learn` gives thread CPU per call, median and p95, and a JSON record.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use fixloop::oracle::workloads::{self, LearnCall};
use std::hint::black_box;
use std::time::Duration;

fn learn_rows(c: &mut Criterion) {
    let calls = workloads::all().expect("the shipped workloads parse");
    let mut group = c.benchmark_group("learn");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (row, idx) in workloads::by_row(&calls) {
        let row_calls: Vec<&LearnCall> = idx.iter().map(|&i| &calls[i]).collect();
        for call in &row_calls {
            let mut prepared = call.prepare();
            let report = call.execute(prepared.as_mut());
            assert!(
                report.formula.is_none() || call.consistent(&report),
                "{row}: a learned formula contradicts a label"
            );
        }
        group.throughput(Throughput::Elements(row_calls.len() as u64));
        group.bench_function(row, |b| {
            b.iter_batched_ref(
                || row_calls.iter().map(|c| c.prepare()).collect::<Vec<_>>(),
                |prepared| {
                    for (call, learner) in row_calls.iter().zip(prepared.iter_mut()) {
                        black_box(call.execute(learner.as_mut()));
                    }
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, learn_rows);
criterion_main!(benches);
