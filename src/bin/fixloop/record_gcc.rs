//! `fixloop corpus record-gcc DIR --out FILE`: builds every subject's programs with gcc, runs them on every test and records exact outputs for `corpus check`.

use crate::corpus_check::corpora;
use crate::eval_setup::parallel_map;
use fixloop::corpus::check::load_dir;
use fixloop::corpus::gcc_record::{GccRecord, GccRun, Header, FORMAT, VERSION};
use fixloop::corpus::Subject;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fixloop corpus record-gcc`.
#[derive(clap::Args)]
pub struct RecordArgs {
    /// A folder of subject JSON files, or a folder of such folders.
    dir: PathBuf,
    /// The record file to write (zlib-compressed JSON Lines).
    #[arg(long)]
    out: PathBuf,
    /// Compile command, `X` standing for the program (a subject's `meta.compile` wins,
    /// as IntroClass records its own). The corpus README's flags by default.
    #[arg(long, default_value = "gcc -std=c99 X.c -o X -lm")]
    compile: String,
    /// Time limit of one run in milliseconds (wall clock); the run is killed past it.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Largest stdout kept per run, in bytes (the rest is read and dropped).
    #[arg(long, default_value_t = 1 << 20)]
    stdout_cap: usize,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Only subjects whose id contains one of these substrings (repeatable).
    #[arg(long)]
    only: Vec<String>,
}

/// Runs the subcommand.
pub fn main(a: RecordArgs) -> ExitCode {
    let mut subjects: Vec<Subject> = Vec::new();
    for (_, path) in corpora(&a.dir) {
        match load_dir(&path) {
            Ok((s, bad)) => {
                for (f, e) in bad {
                    eprintln!("{f}: {e}");
                }
                subjects.extend(s);
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
    }
    subjects.retain(|s| a.only.is_empty() || a.only.iter().any(|o| s.id.contains(o.as_str())));
    if subjects.is_empty() {
        eprintln!("error: no subjects under {}", a.dir.display());
        return ExitCode::from(1);
    }
    let gcc = match native::gcc_version(&a.compile) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let header = Header {
        format: FORMAT.into(),
        version: VERSION,
        gcc,
        compile: a.compile.clone(),
        timeout_ms: a.timeout_ms,
        stdout_cap: a.stdout_cap,
    };
    let threads = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = parallel_map(subjects.len(), threads, |i| {
        let s = &subjects[i];
        let r = native::record_subject(s, i, &header);
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        eprintln!("[{n}/{}] {}", subjects.len(), s.id);
        r
    });
    let mut record = GccRecord::new(header);
    let (mut runs, mut unstable, mut abnormal, mut not_compiled) = (0, 0, 0, 0);
    for (s, (buggy, golden)) in subjects.iter().zip(results) {
        for program in [&buggy, &golden] {
            match program {
                Ok(rs) => {
                    runs += rs.len();
                    unstable += rs.iter().filter(|r| !r.stable).count();
                    abnormal += rs.iter().filter(|r| !r.exited()).count();
                }
                Err(e) => {
                    not_compiled += 1;
                    eprintln!("{}: gcc did not compile it: {e}", s.id);
                }
            }
        }
        record.insert(s, buggy, golden);
    }
    if let Err(e) = std::fs::write(&a.out, record.to_bytes()) {
        eprintln!("error: cannot write {}: {e}", a.out.display());
        return ExitCode::from(1);
    }
    println!(
        "{} subjects, {runs} runs ({unstable} unstable, {abnormal} not ended normally), {not_compiled} programs gcc did not compile; wrote {}",
        subjects.len(),
        a.out.display()
    );
    ExitCode::SUCCESS
}

/// Building and running with gcc: native only (wasm32 has no processes).
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::*;
    use fixloop::corpus::gcc_record::GccEnd;
    use std::io::{Read, Write};
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    use wait_timeout::ChildExt;

    /// The first line of `gcc --version` for the compiler of `compile`.
    pub fn gcc_version(compile: &str) -> Result<String, String> {
        let gcc = compile.split_whitespace().next().unwrap_or("gcc");
        let out = Command::new(gcc)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run {gcc}: {e}"))?;
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string())
    }

    /// Compiles `source` as `dir/name` with `command` (`X` for the program); the
    /// executable's path, or gcc's first error line.
    fn build(command: &str, source: &str, dir: &Path, name: &str) -> Result<PathBuf, String> {
        let exe = dir.join(name);
        let c = dir.join(format!("{name}.c"));
        std::fs::write(&c, source).map_err(|e| e.to_string())?;
        let words: Vec<String> = command
            .split_whitespace()
            .map(|w| match w {
                "X" => exe.display().to_string(),
                "X.c" => c.display().to_string(),
                w => w.to_string(),
            })
            .collect();
        let (gcc, args) = words.split_first().ok_or("empty compile command")?;
        let out = Command::new(gcc)
            .args(args)
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(exe)
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            Err(err
                .lines()
                .find(|l| l.contains("error"))
                .or_else(|| err.lines().next())
                .unwrap_or("gcc failed")
                .to_string())
        }
    }

    /// One run of `exe` on `stdin`: how it ended, its stdout (at most `cap` bytes) and
    /// whether it printed more.
    fn run_once(
        exe: &Path,
        stdin: &[u8],
        timeout: Duration,
        cap: usize,
    ) -> (GccEnd, Vec<u8>, bool) {
        let child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else {
            return (GccEnd::Signal(0), Vec::new(), false);
        };
        let input = stdin.to_vec();
        let mut pipe_in = child.stdin.take();
        let writer = std::thread::spawn(move || {
            if let Some(p) = pipe_in.as_mut() {
                // A program that exits without reading its input closes the pipe.
                let _ = p.write_all(&input);
            }
        });
        let mut pipe_out = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut more = false;
            let mut buf = [0u8; 8192];
            while let Some(Ok(n)) = pipe_out.as_mut().map(|p| p.read(&mut buf)) {
                if n == 0 {
                    break;
                }
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                more |= n > room;
            }
            (kept, more)
        });
        let end = match child.wait_timeout(timeout) {
            Ok(Some(status)) => end_of(status),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                GccEnd::Timeout
            }
        };
        let _ = writer.join();
        let (stdout, more) = reader.join().unwrap_or_default();
        (end, stdout, more)
    }

    #[cfg(unix)]
    fn end_of(status: std::process::ExitStatus) -> GccEnd {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(c), _) => GccEnd::Exit(c),
            (None, Some(s)) => GccEnd::Signal(s),
            (None, None) => GccEnd::Signal(0),
        }
    }

    #[cfg(not(unix))]
    fn end_of(status: std::process::ExitStatus) -> GccEnd {
        status.code().map_or(GccEnd::Signal(0), GccEnd::Exit)
    }

    /// A test's run, twice unless the first timed out: stable when both agree.
    fn run_test(exe: &Path, stdin: &[u8], header: &Header) -> GccRun {
        let timeout = Duration::from_millis(header.timeout_ms);
        let (end, stdout, truncated) = run_once(exe, stdin, timeout, header.stdout_cap);
        let stable = end == GccEnd::Timeout || {
            let (end2, stdout2, _) = run_once(exe, stdin, timeout, header.stdout_cap);
            end2 == end && stdout2 == stdout
        };
        GccRun {
            end,
            stdout,
            stable,
            truncated,
        }
    }

    /// Builds and runs both programs of `subject` (number `i`, for a private folder).
    pub fn record_subject(
        subject: &Subject,
        i: usize,
        header: &Header,
    ) -> (Result<Vec<GccRun>, String>, Result<Vec<GccRun>, String>) {
        let dir = std::env::temp_dir().join(format!("fixloop-gcc-{}-{i}", std::process::id()));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            let e = format!("cannot make {}: {e}", dir.display());
            return (Err(e.clone()), Err(e));
        }
        let command = subject
            .meta
            .get("compile")
            .and_then(|c| c.as_str())
            .unwrap_or(&header.compile);
        let record = |name: &str, source: &str| {
            let exe = build(command, source, &dir, name)?;
            Ok(subject
                .all_tests()
                .map(|t| run_test(&exe, t.input.as_bytes(), header))
                .collect())
        };
        let buggy = record("buggy", &subject.buggy);
        let golden = record("golden", &subject.golden);
        let _ = std::fs::remove_dir_all(&dir);
        (buggy, golden)
    }
}

/// wasm32 has no processes: the recorder says so.
#[cfg(target_arch = "wasm32")]
mod native {
    use super::*;

    pub fn gcc_version(_: &str) -> Result<String, String> {
        Err("record-gcc runs gcc-built programs: not available on this platform".into())
    }

    pub fn record_subject(
        _: &Subject,
        _: usize,
        _: &Header,
    ) -> (Result<Vec<GccRun>, String>, Result<Vec<GccRun>, String>) {
        let e = "not available on this platform".to_string();
        (Err(e.clone()), Err(e))
    }
}
