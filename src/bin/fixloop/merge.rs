//! `fixloop eval merge PARTS...`: the report of an evaluation from its shards' partial reports, exactly as one run prints it.

use crate::eval::{report, SubjectResult};
use crate::eval_setup::{EvalArgs, Timing};
use crate::shard::{join, kind_of, Joined};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fixloop eval merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The partial reports (`fixloop eval --shard I/N ... > part-I.json`), every shard once.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Write every subject's rows (oracle evaluation) to this CSV file.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Leave every clock reading and the thread count out of the report (as
    /// `fixloop eval --no-timing`). Otherwise CPU times are the shards' own, the wall time
    /// is the longest shard's and the thread count the most any shard had.
    #[arg(long)]
    no_timing: bool,
}

/// The evaluation's arguments as the parts ran them, with this command's output options.
fn args_of<R>(joined: &Joined<R>, m: &MergeArgs) -> Result<EvalArgs, String> {
    let mut args: EvalArgs = serde_json::from_value(joined.provenance.settings.clone())
        .map_err(|e| format!("the parts' settings do not read back: {e}"))?;
    args.json = m.json;
    args.csv = m.csv.clone();
    args.no_timing = m.no_timing;
    args.shard = None;
    Ok(args)
}

/// Runs the subcommand.
pub fn main(m: MergeArgs) -> ExitCode {
    let mut parts = Vec::new();
    for p in &m.parts {
        match std::fs::read_to_string(p) {
            Ok(t) => parts.push((p.display().to_string(), t)),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", p.display());
                return ExitCode::from(2);
            }
        }
    }
    let timing = |threads, wall_s| Timing { threads, wall_s };
    let merged = kind_of(&parts[0].0, &parts[0].1).and_then(|kind| {
        if kind == "repair" {
            join::<crate::repair_eval::Row>(&parts).map(|j| {
                let t = timing(j.threads, j.wall_s);
                args_of(&j, &m).map(|a| crate::repair_eval::report(&a, &j.results, Some(t)))
            })
        } else {
            join::<SubjectResult>(&parts).map(|j| {
                let t = timing(j.threads, j.wall_s);
                args_of(&j, &m).map(|a| report(&a, j.results.len(), &j.results, Some(t)))
            })
        }
    });
    match merged.map_err(|e| e.to_string()).and_then(|r| r) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
