//! `fixloop learn`: learn a bug oracle from a labelled CSV and evaluate it.

use clap::Args;
use fixloop::oracle::{accuracy, learn, Example, LearnConfig, LearnReport, Value};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `fixloop learn`.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Training CSV: a header naming the variables, then rows of values; the last column
    /// is `label` with `bug` or `ok`. Non-numeric values are mapped to small integer codes
    /// per column (first seen = 0).
    pub train: PathBuf,
    /// Test CSV in the same format: report accuracy and conditional accuracy on it.
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Largest formula size tried, in literals.
    #[arg(long)]
    pub max_literals: Option<usize>,
}

/// Per-column codes for word values, shared by the training and test files.
#[derive(Default)]
struct Codes(HashMap<(usize, String), i64>, HashMap<usize, i64>);

impl Codes {
    fn value(&mut self, col: usize, text: &str) -> Value {
        if let Some(v) = Value::parse(text) {
            return v;
        }
        let next = self.1.entry(col).or_insert(0);
        let code = *self.0.entry((col, text.to_string())).or_insert_with(|| {
            let c = *next;
            *next += 1;
            c
        });
        Value::Int(code)
    }
}

fn read_csv(path: &PathBuf, codes: &mut Codes) -> Result<(Vec<String>, Vec<Example>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, header)) = lines.next() else {
        return Err(format!("{}: empty file", path.display()));
    };
    let cols: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
    if cols.last().map(String::as_str) != Some("label") {
        return Err(format!(
            "{}: the last column must be `label`",
            path.display()
        ));
    }
    let vars = cols[..cols.len() - 1].to_vec();
    let mut out = Vec::new();
    for (no, line) in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if cells.len() != cols.len() {
            return Err(format!(
                "{}:{}: {} cells, expected {}",
                path.display(),
                no + 1,
                cells.len(),
                cols.len()
            ));
        }
        let bug = match cells[cells.len() - 1].to_ascii_lowercase().as_str() {
            "bug" | "fail" | "1" | "true" => true,
            "ok" | "pass" | "0" | "false" => false,
            other => {
                return Err(format!(
                    "{}:{}: label `{other}` is not `bug` or `ok`",
                    path.display(),
                    no + 1
                ))
            }
        };
        let point = cells[..cells.len() - 1]
            .iter()
            .enumerate()
            .map(|(i, c)| codes.value(i, c))
            .collect();
        out.push(Example { point, bug });
    }
    Ok((vars, out))
}

fn json_num(x: Option<f64>) -> serde_json::Value {
    x.map_or(serde_json::Value::Null, serde_json::Value::from)
}

/// Runs the subcommand.
pub fn run(args: LearnArgs) -> ExitCode {
    match run_inner(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fixloop learn: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(args: &LearnArgs) -> Result<ExitCode, String> {
    let mut codes = Codes::default();
    let (vars, train) = read_csv(&args.train, &mut codes)?;
    let test = match &args.eval {
        Some(p) => {
            let (tv, test) = read_csv(p, &mut codes)?;
            if tv != vars {
                return Err(format!(
                    "{}: columns differ from the training file",
                    p.display()
                ));
            }
            Some(test)
        }
        None => None,
    };
    let mut config = LearnConfig::default();
    if let Some(m) = args.max_literals {
        config.max_literals = m;
    }
    let start = Instant::now();
    let report: LearnReport = learn(&vars, &train, &config);
    let learn_ms = start.elapsed().as_secs_f64() * 1e3;
    let (acc, cond) = match (&report.formula, &test) {
        (Some(f), Some(t)) => accuracy(f, t),
        _ => (None, None),
    };
    let train_acc = report.formula.as_ref().and_then(|f| accuracy(f, &train).0);
    // Write errors (a closed pipe) are ignored: the exit code still tells the outcome.
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "formula": report.formula.as_ref().map(|f| f.to_string()),
            "literals": report.literals,
            "clauses": report.clauses,
            "consistent": report.consistent(),
            "stop": report.stop.to_string(),
            "train_accuracy": json_num(train_acc),
            "accuracy": json_num(acc),
            "conditional_accuracy": json_num(cond),
            "examples": report.examples,
            "pool_size": report.pool_size,
            "sat_calls": report.sat_calls,
            "learn_ms": learn_ms,
        });
        let _ = writeln!(out, "{obj}");
    } else {
        let _ = write!(out, "{report}");
        let _ = writeln!(out, "time:      {learn_ms:.2} ms");
        if test.is_some() {
            let pct =
                |x: Option<f64>| x.map_or("n/a".to_string(), |x| format!("{:.1}%", 100.0 * x));
            let _ = writeln!(
                out,
                "eval:      accuracy {}, conditional accuracy (bug rows) {}",
                pct(acc),
                pct(cond)
            );
        }
    }
    Ok(if report.consistent() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
