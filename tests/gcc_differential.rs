//! Differential tests against gcc: a seeded generator of random well-typed C programs
//! (mixed int/unsigned/long long/double/float/char/short arithmetic with the usual
//! conversions, bounded loops, arrays, helper functions) compiled with `gcc -std=c99 -O0`
//! and run; the output must match our interpreter byte for byte. Skipped (with a message)
//! when gcc is not installed.

use fixloop::lang::{compile, Limits, Outcome};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// A small deterministic PRNG (xorshift64*), so the programs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, PartialEq)]
enum T {
    Int,
    UInt,
    Long,
    ULong,
    Double,
    Float,
    Char,
    Short,
}

impl T {
    fn c(self) -> &'static str {
        match self {
            T::Int => "int",
            T::UInt => "unsigned",
            T::Long => "long long",
            T::ULong => "unsigned long long",
            T::Double => "double",
            T::Float => "float",
            T::Char => "char",
            T::Short => "short",
        }
    }
    fn fmt(self) -> &'static str {
        match self {
            T::Int | T::Char | T::Short => "%d",
            T::UInt => "%u",
            T::Long => "%lld",
            T::ULong => "%llu",
            T::Double | T::Float => "%.17g",
        }
    }
    fn is_float(self) -> bool {
        matches!(self, T::Double | T::Float)
    }
}

const TYPES: [T; 8] = [
    T::Int,
    T::UInt,
    T::Long,
    T::ULong,
    T::Double,
    T::Float,
    T::Char,
    T::Short,
];

struct Gen {
    rng: Rng,
    vars: Vec<(String, T)>,
}

impl Gen {
    fn constant(&mut self, t: T) -> String {
        let r = &mut self.rng;
        match t {
            T::Double | T::Float => {
                let v = (r.below(2_000_000) as f64 - 1_000_000.0) / (1 + r.below(1000)) as f64;
                format!("{v:?}")
            }
            _ => match r.below(6) {
                0 => format!("{}", r.below(10)),
                1 => format!("{}", r.below(100_000)),
                2 => "2147483647".into(),
                3 => format!("{}", r.below(3_000_000_000)),
                4 => format!("{}LL", r.below(1 << 40)),
                _ => format!("{}", r.below(1000)),
            },
        }
    }

    /// An expression; `int_only` forbids floating operands (for %, shifts, bit ops).
    fn expr(&mut self, depth: u32, int_only: bool) -> String {
        if depth == 0 || self.rng.below(4) == 0 {
            let cands: Vec<_> = self
                .vars
                .iter()
                .filter(|v| !int_only || !v.1.is_float())
                .cloned()
                .collect();
            if !cands.is_empty() && self.rng.below(3) != 0 {
                return self.rng.pick(&cands).0.clone();
            }
            let t = if int_only {
                T::Int
            } else {
                *self.rng.pick(&TYPES)
            };
            return self.constant(t);
        }
        let d = depth - 1;
        match self.rng.below(11) {
            0..=3 => {
                let op = *self.rng.pick(&["+", "-", "*", "+", "-"]);
                format!(
                    "({} {op} {})",
                    self.expr(d, int_only),
                    self.expr(d, int_only)
                )
            }
            4 => format!(
                "({} / ({} % 7 + 8))",
                self.expr(d, int_only),
                self.expr(d, true)
            ),
            5 => format!(
                "({} % ({} % 7 + 8))",
                self.expr(d, true),
                self.expr(d, true)
            ),
            6 => {
                let op = *self.rng.pick(&["&", "|", "^"]);
                format!("({} {op} {})", self.expr(d, true), self.expr(d, true))
            }
            7 => {
                let op = *self.rng.pick(&["<<", ">>"]);
                format!(
                    "({} {op} ({} & 15))",
                    self.expr(d, true),
                    self.expr(d, true)
                )
            }
            8 => {
                let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!("({} {op} {})", self.expr(d, false), self.expr(d, false))
            }
            9 => {
                let t = *self.rng.pick(&TYPES);
                if int_only && t.is_float() {
                    format!("(int)({})", self.expr(d, true))
                } else if t.is_float() {
                    format!("({})({})", t.c(), self.expr(d, false))
                } else {
                    // Keep float->int conversions in range (out of range is UB that gcc folds).
                    format!("({})({})", t.c(), self.expr(d, true))
                }
            }
            _ => format!(
                "({} ? {} : {})",
                self.expr(d, false),
                self.expr(d, int_only),
                self.expr(d, int_only)
            ),
        }
    }

    fn assign(&mut self, out: &mut String, indent: &str) {
        let (name, t) = self.rng.pick(&self.vars).clone();
        let e = self.expr(3, !t.is_float());
        let op = *self.rng.pick(&["=", "=", "+=", "-=", "*="]);
        let _ = writeln!(out, "{indent}{name} {op} {e};");
    }

    fn function(&mut self, k: usize) -> String {
        let mut out = String::new();
        self.vars.clear();
        let n = 3 + self.rng.below(4) as usize;
        let _ = writeln!(out, "static void t{k}(void) {{");
        for i in 0..n {
            let t = *self.rng.pick(&TYPES);
            let init = if t.is_float() {
                self.constant(t)
            } else {
                format!("{}", self.rng.below(2000) as i64 - 1000)
            };
            let _ = writeln!(out, "    {} v{i} = {init};", t.c());
            self.vars.push((format!("v{i}"), t));
        }
        let _ = writeln!(out, "    int arr[8] = {{0}}; int i;");
        for _ in 0..(2 + self.rng.below(4)) {
            match self.rng.below(4) {
                0 => {
                    let trips = 1 + self.rng.below(6);
                    let _ = writeln!(out, "    for (i = 0; i < {trips}; i++) {{");
                    self.assign(&mut out, "        ");
                    let e = self.expr(2, true);
                    let _ = writeln!(out, "        arr[(unsigned)({e}) % 8u] += i;");
                    let _ = writeln!(out, "    }}");
                }
                1 => {
                    let c = self.expr(2, false);
                    let _ = writeln!(out, "    if ({c}) {{");
                    self.assign(&mut out, "        ");
                    let _ = writeln!(out, "    }} else {{");
                    self.assign(&mut out, "        ");
                    let _ = writeln!(out, "    }}");
                }
                2 => {
                    let (name, t) = self.rng.pick(&self.vars).clone();
                    let a = self.expr(2, false);
                    let b = self.expr(2, false);
                    if t.is_float() {
                        let _ = writeln!(out, "    {name} = helper_d({a}, {b});");
                    } else {
                        let a = self.expr(2, true);
                        let _ = writeln!(out, "    {name} = helper_i({a}, {b} > 0);");
                    }
                }
                _ => self.assign(&mut out, "    "),
            }
        }
        let fmts: Vec<&str> = self.vars.iter().map(|v| v.1.fmt()).collect();
        let names: Vec<&str> = self.vars.iter().map(|v| v.0.as_str()).collect();
        let _ = writeln!(
            out,
            "    printf(\"t{k}: {} | %d %d %d\\n\", {}, arr[0], arr[3], arr[7]);",
            fmts.join(" "),
            names.join(", ")
        );
        let _ = writeln!(out, "}}");
        out
    }
}

fn program(seed: u64, n: usize) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        vars: vec![],
    };
    let mut src = String::from(
        "#include <stdio.h>\n\
         static long long helper_i(long long a, int pos) { long long r = 0; int k; for (k = 0; k < 5; k++) r = r * 3 + (pos ? a : -a) % 11; return r; }\n\
         static double helper_d(double a, double b) { return a * 0.5 - b / 3.0; }\n",
    );
    for k in 0..n {
        src.push_str(&g.function(k));
    }
    src.push_str("int main(void) {\n");
    for k in 0..n {
        let _ = writeln!(src, "    t{k}();");
    }
    src.push_str("    return 0;\n}\n");
    src
}

/// Compiles `src` with gcc at -O0 into a fresh folder named after `name` and `tag`: the
/// folder and the executable; `None` when gcc cannot run.
fn gcc_compile(src: &str, name: &str, tag: &str) -> Option<(PathBuf, PathBuf)> {
    let dir = std::env::temp_dir().join(format!("fixloop-{name}-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (c, exe) = (dir.join("p.c"), dir.join("p"));
    std::fs::write(&c, src).ok()?;
    let st = Command::new("gcc")
        .args(["-std=c99", "-O0", "-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lm")
        .status()
        .ok()?;
    assert!(st.success(), "gcc rejected a generated program:\n{src}");
    Some((dir, exe))
}

fn gcc_output(src: &str, tag: &str) -> Option<String> {
    let (dir, exe) = gcc_compile(src, "diff", tag)?;
    let out = Command::new(&exe).output().ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn gcc_available() -> bool {
    Command::new("gcc").arg("--version").output().is_ok()
}

#[test]
fn random_programs_match_gcc() {
    if !gcc_available() {
        eprintln!("gcc not found: skipping the differential test");
        return;
    }
    // 4 batches x 50 functions = 200 random test functions.
    for seed in 1..=4u64 {
        let src = program(seed, 50);
        let Some(want) = gcc_output(&src, &seed.to_string()) else {
            eprintln!("could not run gcc: skipping");
            return;
        };
        assert_eq!(want.lines().count(), 50, "gcc output of seed {seed}");
        let p = compile(&src).unwrap_or_else(|e| panic!("our compiler rejected:\n{e}\n{src}"));
        let exec = p.run(b"", &Limits::default());
        assert_eq!(exec.outcome, Outcome::Exit(0), "seed {seed}");
        let got = String::from_utf8_lossy(&exec.stdout).into_owned();
        if got != want {
            let (gl, wl): (Vec<_>, Vec<_>) = (got.lines().collect(), want.lines().collect());
            let i = (0..gl.len().max(wl.len()))
                .find(|&i| gl.get(i) != wl.get(i))
                .unwrap_or(0);
            let k = wl
                .get(i)
                .or(gl.get(i))
                .and_then(|l| l.split(':').next())
                .unwrap_or("?")
                .to_string();
            let start = src.find(&format!("static void {k}(")).unwrap_or(0);
            let end = src[start..]
                .find("\n}\n")
                .map_or(src.len(), |e| start + e + 3);
            panic!(
                "seed {seed}: first difference at line {i}\n gcc: {:?}\n ours: {:?}\n{}",
                wl.get(i),
                gl.get(i),
                &src[start..end]
            );
        }
    }
}

/// Compiles `src` with gcc once and runs it on every stdin; `None` when gcc cannot run.
fn gcc_outputs(src: &str, tag: &str, stdins: &[String]) -> Option<Vec<(Vec<u8>, i32)>> {
    let (dir, exe) = gcc_compile(src, "gen", tag)?;
    let mut outs = Vec::new();
    for stdin in stdins {
        use std::io::Write as _;
        let mut child = Command::new(&exe)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .ok()?;
        child.stdin.take()?.write_all(stdin.as_bytes()).ok()?;
        let out = child.wait_with_output().ok()?;
        outs.push((out.stdout, out.status.code().unwrap_or(-1)));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Some(outs)
}

/// The fuzzer's program generator in its UB-free mode (int, long long, double and char
/// variables and arrays, loops, recursion, guarded division and conversions) on random
/// stdin inputs: stdout and exit status must equal gcc's. Returns (programs, runs).
fn generated_programs_agree(seed: u64, programs: u64, inputs: usize) -> (u64, usize) {
    use fixloop::fuzzing::cgen::{program, GenConfig};
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    let cfg = GenConfig {
        ub_free: true,
        ..GenConfig::default()
    };
    let mut runs = 0;
    for k in 0..programs {
        let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(k));
        let p = program(&mut rng, &cfg);
        let stdins: Vec<String> = (0..inputs).map(|_| p.stdin(&mut rng, true)).collect();
        let Some(want) = gcc_outputs(&p.source, &format!("{seed}-{k}"), &stdins) else {
            eprintln!("could not run gcc: skipping");
            return (k, runs);
        };
        let ours = compile(&p.source).unwrap_or_else(|e| panic!("rejected:\n{e}\n{}", p.source));
        for (stdin, (out, code)) in stdins.iter().zip(&want) {
            let e = ours.run(stdin.as_bytes(), &Limits::default());
            assert_eq!(
                (String::from_utf8_lossy(&e.stdout), &e.outcome),
                (String::from_utf8_lossy(out), &Outcome::Exit(*code)),
                "program {k} of seed {seed} on stdin {stdin:?}:\n{}",
                p.source
            );
            runs += 1;
        }
    }
    (programs, runs)
}

#[test]
fn generated_programs_with_inputs_match_gcc() {
    if !gcc_available() {
        eprintln!("gcc not found: skipping the differential test");
        return;
    }
    let (programs, runs) = generated_programs_agree(1, 12, 4);
    eprintln!("{programs} programs, {runs} runs agree with gcc");
}

/// The long version (release, `--ignored`): FIXLOOP_DIFF_PROGRAMS programs (default 200) x 8 inputs.
#[test]
#[ignore]
fn many_generated_programs_match_gcc() {
    if !gcc_available() {
        eprintln!("gcc not found: skipping the differential test");
        return;
    }
    let n = std::env::var("FIXLOOP_DIFF_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let seed = std::env::var("FIXLOOP_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let (programs, runs) = generated_programs_agree(seed, n, 8);
    eprintln!("{programs} programs, {runs} runs agree with gcc");
}
