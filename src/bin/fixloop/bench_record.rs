//! `fixloop bench record`: the learn calls of real active-loop runs on corpus subjects, saved as a workload file.

use fixloop::active::eval::{run_seed, EvalConfig, Prepared};
use fixloop::active::formula::{value_of, variable_names, FormulaOracle};
use fixloop::active::{BugOracle, Example, LearnStatus, Num};
use fixloop::corpus::Subject;
use fixloop::oracle::{self, workloads::LearnCall};
use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// Arguments of `fixloop bench record`.
#[derive(clap::Args)]
pub struct RecordArgs {
    /// Subject JSON files.
    subjects: Vec<PathBuf>,
    /// Label budget of each run.
    #[arg(long, default_value_t = 20)]
    labels: usize,
    /// Base seed (as `fixloop eval --seed`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run number of each subject (as the eval's runs 0, 1, 2).
    #[arg(long, default_value_t = 0)]
    run: usize,
    /// Write the calls here, one JSON object per line.
    #[arg(long)]
    out: PathBuf,
}

/// The loop's oracle, noting every learn call it is asked for.
struct Recorder {
    inner: FormulaOracle,
    workload: String,
    calls: Rc<RefCell<Vec<LearnCall>>>,
}

fn example(e: &Example) -> oracle::Example {
    oracle::Example {
        point: e.point.iter().map(value_of).collect(),
        bug: e.bug,
    }
}

impl Recorder {
    fn note(&self, examples: &[Example], extra: Option<&Example>) {
        let Some(arity) = examples.first().map(|e| e.point.len()) else {
            return;
        };
        self.calls.borrow_mut().push(LearnCall {
            workload: self.workload.clone(),
            vars: variable_names(arity),
            // FormulaOracle's choice: ties go to the output.
            preferred_var: Some(arity - 1),
            examples: examples.iter().map(example).collect(),
            look_ahead: extra.map(example),
        });
    }
}

impl BugOracle for Recorder {
    fn learn(&mut self, examples: &[Example]) -> LearnStatus {
        self.note(examples, None);
        self.inner.learn(examples)
    }

    fn predict(&self, point: &[Num]) -> bool {
        self.inner.predict(point)
    }

    fn predict_with(
        &mut self,
        examples: &[Example],
        extra: &Example,
        query: &[Num],
    ) -> Option<bool> {
        self.note(examples, Some(extra));
        self.inner.predict_with(examples, extra, query)
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn set_conflict_budget(&mut self, budget: Option<u64>) {
        self.inner.set_conflict_budget(budget)
    }

    fn conflicts_used(&self) -> u64 {
        self.inner.conflicts_used()
    }

    fn budget_exhausted(&self) -> bool {
        self.inner.budget_exhausted()
    }
}

/// Runs the subcommand.
pub fn main(a: RecordArgs) -> ExitCode {
    let config = EvalConfig {
        label_budgets: vec![a.labels],
        ..EvalConfig::default()
    };
    let mut lines = String::new();
    for path in &a.subjects {
        let subject = match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| Subject::from_json(&t).map_err(|e| e.to_string()))
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let prepared = match Prepared::new(&subject, &config) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: skipped: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let calls = Rc::new(RefCell::new(Vec::new()));
        let seed = run_seed(a.seed, prepared.id(), a.run);
        let rows = prepared.run(&config, a.run, seed, || Recorder {
            inner: FormulaOracle::new(),
            workload: format!("loop {}", subject.id),
            calls: calls.clone(),
        });
        let calls = calls.take();
        let look_aheads = calls.iter().filter(|c| c.look_ahead.is_some()).count();
        eprintln!(
            "{}: {} learn calls ({} look-ahead), final oracle {}",
            subject.id,
            calls.len(),
            look_aheads,
            rows.last().map_or("-", |r| r.formula.as_str())
        );
        for c in calls {
            lines.push_str(&c.to_line());
            lines.push('\n');
        }
    }
    if let Err(e) = std::fs::write(&a.out, lines) {
        eprintln!("{}: {e}", a.out.display());
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
