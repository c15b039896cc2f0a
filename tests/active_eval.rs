//! The batch evaluation pipeline on real corpus subjects (compile, failing train test, loop, metrics, replay).

mod active_support;

use active_support::NearestLearner;
use fixloop::active::eval::{aggregate, run_seed, EvalConfig, InputRanges, Prepared};
use fixloop::active::observe::TIMEOUT_CODE;
use fixloop::active::program::ProgramRunner;
use fixloop::active::{FuzzFuel, Num, Runner, Status};
use fixloop::corpus::Subject;

fn subject(path: &str) -> Option<Subject> {
    let text = std::fs::read_to_string(path).ok()?;
    Subject::from_json(&text).ok()
}

#[test]
fn evaluates_a_codeflaws_subject() {
    let Some(s) = subject("../../shared/benchmarks/codeflaws/1-A-bug-18353198-18353306.json")
    else {
        eprintln!("corpus not found, skipping");
        return;
    };
    let config = EvalConfig {
        label_budgets: vec![0, 5, 10],
        ..EvalConfig::default()
    };
    let p = Prepared::new(&s, &config).expect("subject prepares");
    assert!(p.failing_train_tests() >= 1);
    let seed = run_seed(1, &s.id, 0);
    let rows = p.run(&config, 0, seed, NearestLearner::default);
    assert_eq!(rows.len(), 3);
    for (r, b) in rows.iter().zip([0, 5, 10]) {
        assert_eq!(r.label_budget, b);
        assert!(r.labelled <= b);
        assert!(r.validation >= 20);
        assert!(r.validation_failing >= 1, "{r:?}");
        assert!(r.generated_failing <= r.generated);
        assert!((0.0..=1.0).contains(&r.accuracy()));
    }
    assert_eq!(rows[2].labelled, 10);
    let again = p.run(&config, 0, seed, NearestLearner::default);
    assert_eq!(rows, again, "same seed, same run");
    let agg = aggregate(&rows);
    assert_eq!(agg.len(), 3);
    assert_eq!(agg[1].rows, 1);
}

#[test]
fn real_learner_replays_labels_formulas_and_metrics() {
    let Some(s) = subject("../../shared/benchmarks/codeflaws/1-A-bug-18353198-18353306.json")
    else {
        eprintln!("corpus not found, skipping");
        return;
    };
    let config = EvalConfig {
        label_budgets: vec![2, 4],
        active: fixloop::active::ActiveConfig {
            max_generated: 30,
            ..Default::default()
        },
        ..EvalConfig::default()
    };
    let p = Prepared::new(&s, &config).expect("subject prepares");
    let seed = run_seed(7, &s.id, 0);
    let a = p.run(
        &config,
        0,
        seed,
        fixloop::active::formula::FormulaOracle::new,
    );
    let b = p.run(
        &config,
        0,
        seed,
        fixloop::active::formula::FormulaOracle::new,
    );
    assert_eq!(a, b);
    assert!(!a[1].formula.is_empty());
}

/// A subject reading one `long n` and printing `s`: `body` computes `s`, and the buggy
/// program then runs `bug`; two train tests and one held-out test, each an (input,
/// output) pair.
fn one_number_subject(
    id: &str,
    body: &str,
    bug: &str,
    train: [(&str, &str); 2],
    heldout: (&str, &str),
) -> Subject {
    let program = |bug: &str| {
        format!(
            "#include <stdio.h>\nint main(void) {{ long n, i, s = 0; scanf(\"%ld\", &n); {body} {bug} printf(\"%ld\\n\", s); return 0; }}\n"
        )
    };
    let json = serde_json::json!({
        "id": id,
        "buggy": program(bug),
        "golden": program(""),
        "tests": {
            "train": [{"input": train[0].0, "output": train[0].1, "name": "t1"},
                      {"input": train[1].0, "output": train[1].1, "name": "t2"}],
            "heldout": [{"input": heldout.0, "output": heldout.1, "name": "h1"}]
        }
    });
    Subject::from_json(&json.to_string()).expect("subject parses")
}

/// A loop-heavy subject: the answer is a sum over `0..n`, wrong for n = 3.
fn looping_subject() -> Subject {
    one_number_subject(
        "looping",
        "for (i = 0; i < n; i++) s += i;",
        "if (n == 3) s++;",
        [("3\n", "3\n"), ("40\n", "780\n")],
        ("5\n", "10\n"),
    )
}

#[test]
fn fuzzed_runs_get_a_multiple_of_the_slowest_train_test() {
    let s = looping_subject();
    let limits = fixloop::lang::Limits::default();
    let slowest = ["3", "40"]
        .iter()
        .flat_map(|n| {
            [&s.buggy, &s.golden].map(|src| {
                let p = fixloop::lang::compile(src).expect("compiles");
                let input = fixloop::active::num::parse_input(n).expect("numeric");
                p.run_test(&input, &limits).steps
            })
        })
        .max()
        .expect("runs");
    assert!(slowest > 40, "the loop costs steps: {slowest}");
    let config = EvalConfig {
        fuzz_fuel: FuzzFuel {
            multiple: 3,
            floor: 1,
            cap: 10_000_000,
        },
        ..EvalConfig::default()
    };
    let p = Prepared::new(&s, &config).expect("subject prepares");
    assert_eq!(p.fuzz_fuel(), 3 * slowest);
    // The floor wins for a cheap subject, and --fuel caps everything.
    let floor = EvalConfig::default();
    assert_eq!(
        Prepared::new(&s, &floor).expect("prepares").fuzz_fuel(),
        100_000
    );
    let capped = EvalConfig {
        limits: fixloop::lang::Limits {
            fuel: 50,
            ..Default::default()
        },
        ..EvalConfig::default()
    };
    assert_eq!(
        Prepared::new(&s, &capped).expect("prepares").fuzz_fuel(),
        50
    );
}

#[test]
fn a_runaway_fuzzed_input_stops_at_the_fuzz_fuel_as_a_timeout() {
    let s = looping_subject();
    let buggy = fixloop::lang::compile(&s.buggy).expect("compiles");
    let runner = ProgramRunner::new(
        buggy,
        fixloop::lang::Limits::default(),
        fixloop::corpus::AnswerExtractor::WholeOutput,
    );
    let input = fixloop::active::num::parse_input("400000").expect("numeric");
    let (full, _) = runner.execute(&input);
    assert_eq!(full.outcome, fixloop::lang::Outcome::Exit(0));
    let mut small = runner.with_fuel(100_000);
    let (exec, _) = small.execute(&input);
    assert_eq!(exec.outcome, fixloop::lang::Outcome::Timeout);
    assert!(exec.steps <= 100_000);
    let obs = small.run(&input);
    assert_eq!(obs.status, Status::Timeout);
    assert_eq!(obs.value, Num::Int(TIMEOUT_CODE));
}

/// The answer is wrong for n = 3 and for every `n < below`; train inputs 3 and
/// `example`.
fn negative_bug_subject(below: i64, example: i64) -> Subject {
    let train_input = format!("{example}\n");
    let train_output = format!("{}\n", example * 2);
    one_number_subject(
        "negative",
        "s = n * 2;",
        &format!("if (n == 3 || n < {below}) s++;"),
        [("3\n", "6\n"), (&train_input, &train_output)],
        ("-5\n", "-10\n"),
    )
}

/// Failing inputs the fuzzer generates in one run on `s` with `input_ranges`.
fn generated_failing(s: &Subject, input_ranges: InputRanges) -> usize {
    let config = EvalConfig {
        label_budgets: vec![10],
        input_ranges,
        ..EvalConfig::default()
    };
    let p = Prepared::new(s, &config).expect("subject prepares");
    let rows = p.run(&config, 0, run_seed(3, &s.id, 0), NearestLearner::default);
    rows[0].generated_failing
}

#[test]
fn input_ranges_keep_fuzzed_inputs_out_of_negative_numbers() {
    // Train tests 3 and 40, both non-negative. Unbounded, the fuzzer reaches negative
    // inputs (Dec, Small, Boundary) and so the failing ones; kept non-negative, the only
    // failing input is the initial one.
    let s = negative_bug_subject(0, 40);
    assert!(generated_failing(&s, InputRanges::Unbounded) > 0);
    assert_eq!(
        generated_failing(&s, InputRanges::NonNegativeWhereTrainIs),
        0
    );
    assert_eq!(
        generated_failing(&s, InputRanges::NonNegativeWhereFailingTestIs),
        0
    );
}

#[test]
fn a_negative_train_example_leaves_the_position_unbounded_only_for_train_ranges() {
    // The second train test is -40: the examples allow negative numbers, the initial
    // failing test (3) does not show one. Inputs below -100 fail.
    let s = negative_bug_subject(-100, -40);
    assert!(generated_failing(&s, InputRanges::NonNegativeWhereTrainIs) > 0);
    assert_eq!(
        generated_failing(&s, InputRanges::NonNegativeWhereFailingTestIs),
        0
    );
}
