//! Random well-typed C programs (int, long long, double, char; arrays, loops, recursion) with matching stdin inputs, hostile or free of undefined behaviour.
//!
//! With [`GenConfig::ub_free`] the programs have one meaning in C (signed arithmetic
//! goes through unsigned and back, divisions and conversions are guarded, indices are
//! reduced modulo the array size, loops and recursion are bounded), so gcc's output is
//! the reference (`tests/gcc_differential.rs`). Without it, they also divide by zero,
//! overflow, index out of bounds, recurse without bound, loop forever and declare huge
//! arrays: the interpreter must turn each into a typed [`Outcome`](crate::lang::Outcome).

use rand::rngs::StdRng;
use rand::RngExt;
use std::fmt::Write as _;

/// Generator settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Only programs without undefined behaviour (for comparison with gcc). Default false.
    pub ub_free: bool,
    /// Most top-level statements in `main`. Default 8.
    pub max_stmts: usize,
    /// Most nesting of blocks (loops, ifs). Default 2.
    pub max_block_depth: u32,
    /// Most nesting of expression operators. Default 3.
    pub max_expr_depth: u32,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            ub_free: false,
            max_stmts: 8,
            max_block_depth: 2,
            max_expr_depth: 3,
        }
    }
}

/// A C scalar type of the generated programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType {
    /// `int`.
    Int,
    /// `long long`.
    Long,
    /// `double`.
    Double,
    /// `char`.
    Char,
}

const TYPES: [CType; 4] = [CType::Int, CType::Long, CType::Double, CType::Char];

impl CType {
    fn c(self) -> &'static str {
        match self {
            CType::Int => "int",
            CType::Long => "long long",
            CType::Double => "double",
            CType::Char => "char",
        }
    }
    fn scan(self) -> &'static str {
        match self {
            CType::Int | CType::Char => "%d",
            CType::Long => "%lld",
            CType::Double => "%lf",
        }
    }
    fn tag(self) -> char {
        match self {
            CType::Int => 'i',
            CType::Long => 'l',
            CType::Double => 'd',
            CType::Char => 'c',
        }
    }
}

/// A generated program and the types of the numbers it reads from stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenProgram {
    /// The C source.
    pub source: String,
    /// The `scanf` variables, in input order (`Char` is never read).
    pub inputs: Vec<CType>,
}

impl GenProgram {
    /// One stdin line for the program: in-range values (boundaries, small numbers,
    /// random ones) when `ub_free`, otherwise anything including out-of-range numbers,
    /// garbage and missing values.
    pub fn stdin(&self, rng: &mut StdRng, ub_free: bool) -> String {
        let mut parts = Vec::with_capacity(self.inputs.len());
        for &t in &self.inputs {
            if !ub_free && rng.random_range(0..40) == 0 {
                let junk = [
                    "",
                    "x",
                    "-",
                    "99999999999999999999999",
                    "1e999",
                    "nan",
                    "--1",
                ];
                parts.push(junk[rng.random_range(0..junk.len())].to_string());
                continue;
            }
            parts.push(match t {
                CType::Double => double_value(rng, ub_free),
                CType::Long => long_value(rng).to_string(),
                _ => {
                    let v = long_value(rng);
                    if ub_free || rng.random_range(0..4) != 0 {
                        (v as i32).to_string()
                    } else {
                        v.to_string()
                    }
                }
            });
        }
        parts.join(" ") + "\n"
    }
}

fn long_value(rng: &mut StdRng) -> i64 {
    match rng.random_range(0..8) {
        0 => [
            0,
            1,
            -1,
            i32::MAX as i64,
            i32::MIN as i64,
            i64::MAX,
            i64::MIN,
            255,
        ][rng.random_range(0..8)],
        1 => rng.random_range(-1_000_000_000_000i64..=1_000_000_000_000),
        2 => rng.random_range(i64::MIN..=i64::MAX),
        3 => rng.random_range(-100_000..=100_000),
        _ => rng.random_range(-20..=20),
    }
}

fn double_value(rng: &mut StdRng, ub_free: bool) -> String {
    match rng.random_range(0..6) {
        0 if !ub_free => {
            ["1e308", "-1e308", "5e-324", "0.0", "-0.0"][rng.random_range(0..5)].to_string()
        }
        1 => format!(
            "{}",
            rng.random_range(-1_000_000i64..=1_000_000) as f64 / 1024.0
        ),
        2 => format!("{:.3}", rng.random_range(-1e6..1e6)),
        _ => format!("{}", rng.random_range(-50..=50)),
    }
}

struct Gen<'a> {
    rng: &'a mut StdRng,
    cfg: &'a GenConfig,
    /// Scalar variables: (name, type).
    vars: Vec<(String, CType)>,
    /// Global arrays: (name, element type, length).
    arrays: Vec<(String, CType, u64)>,
    loop_depth: u32,
}

impl Gen<'_> {
    fn chance(&mut self, n: u32) -> bool {
        self.rng.random_range(0..n) == 0
    }

    fn hostile(&mut self, n: u32) -> bool {
        !self.cfg.ub_free && self.chance(n)
    }

    fn constant(&mut self, t: CType) -> String {
        match t {
            CType::Double => {
                let v = self.rng.random_range(-4000i64..=4000) as f64 / 8.0;
                format!("{v:?}")
            }
            CType::Char => format!("{}", self.rng.random_range(-128..=127)),
            CType::Int => {
                let v: i64 = match self.rng.random_range(0..6) {
                    0 => [i32::MAX as i64, i32::MIN as i64, -1, 0][self.rng.random_range(0..4)],
                    1 => self.rng.random_range(-100_000..=100_000),
                    _ => self.rng.random_range(-10..=10),
                };
                int_literal(v, false)
            }
            CType::Long => {
                let v: i64 = match self.rng.random_range(0..6) {
                    0 => [i64::MAX, i64::MIN, -1, 1 << 40][self.rng.random_range(0..4)],
                    1 => self.rng.random_range(-10_000_000_000i64..=10_000_000_000),
                    _ => self.rng.random_range(-10..=10),
                };
                int_literal(v, true)
            }
        }
    }

    fn var_of(&mut self, t: CType) -> Option<String> {
        let c: Vec<&String> = self
            .vars
            .iter()
            .filter(|v| v.1 == t)
            .map(|v| &v.0)
            .collect();
        (!c.is_empty()).then(|| c[self.rng.random_range(0..c.len())].clone())
    }

    fn array_of(&mut self, t: CType) -> Option<(String, u64)> {
        let c: Vec<(String, u64)> = self
            .arrays
            .iter()
            .filter(|a| a.1 == t)
            .map(|a| (a.0.clone(), a.2))
            .collect();
        (!c.is_empty()).then(|| c[self.rng.random_range(0..c.len())].clone())
    }

    /// An index into an array of `len` elements (hostile: possibly out of bounds).
    fn index(&mut self, len: u64, depth: u32) -> String {
        let e = self.expr(CType::Int, depth.min(1));
        if self.hostile(6) {
            e
        } else {
            format!("(int)((unsigned)({e}) % {len}u)")
        }
    }

    fn leaf(&mut self, t: CType) -> String {
        match self.rng.random_range(0..5) {
            0 | 1 => self.var_of(t).unwrap_or_else(|| self.constant(t)),
            2 => match self.array_of(t) {
                Some((a, len)) => format!("{a}[{}]", self.index(len, 0)),
                None => self.constant(t),
            },
            _ => self.constant(t),
        }
    }

    /// An expression of C type `t`.
    fn expr(&mut self, t: CType, depth: u32) -> String {
        if depth == 0 || self.chance(4) {
            return self.leaf(t);
        }
        let d = depth - 1;
        match t {
            CType::Int => self.int_expr(d),
            CType::Long => self.long_expr(d),
            CType::Double => self.double_expr(d),
            CType::Char => format!("(char)({})", self.expr(CType::Int, d)),
        }
    }

    fn cond(&mut self, d: u32) -> String {
        let t = TYPES[self.rng.random_range(0..4)];
        let op = ["<", "<=", ">", ">=", "==", "!="][self.rng.random_range(0..6)];
        format!("({} {op} {})", self.expr(t, d), self.expr(t, d))
    }

    fn int_expr(&mut self, d: u32) -> String {
        let hostile = !self.cfg.ub_free;
        let (a, b) = (self.expr(CType::Int, d), self.expr(CType::Int, d));
        match self.rng.random_range(0..14) {
            0..=2 => {
                let op = ["+", "-", "*"][self.rng.random_range(0..3)];
                if hostile && self.chance(2) {
                    format!("({a} {op} {b})")
                } else {
                    format!("(int)((unsigned)({a}) {op} (unsigned)({b}))")
                }
            }
            3 | 4 => {
                let op = ["/", "%"][self.rng.random_range(0..2)];
                if hostile && self.chance(2) {
                    format!("({a} {op} {b})")
                } else {
                    let f = if op == "/" { "sdiv" } else { "smod" };
                    format!("{f}({a}, {b})")
                }
            }
            5 => {
                let op = ["&", "|", "^"][self.rng.random_range(0..3)];
                format!("({a} {op} {b})")
            }
            6 => {
                if hostile && self.chance(2) {
                    let op = ["<<", ">>"][self.rng.random_range(0..2)];
                    format!("({a} {op} {b})")
                } else if self.chance(2) {
                    format!("(int)((unsigned)({a}) << (({b}) & 31))")
                } else {
                    format!("(({a}) >> (({b}) & 31))")
                }
            }
            7 => self.cond(d),
            8 => {
                let op = ["&&", "||"][self.rng.random_range(0..2)];
                format!("({a} {op} {b})")
            }
            9 => {
                let c = self.cond(d);
                format!("({c} ? {a} : {b})")
            }
            10 => {
                let x = self.expr(CType::Double, d);
                if hostile && self.chance(2) {
                    format!("(int)({x})")
                } else {
                    format!("d2i({x})")
                }
            }
            11 => format!("(int)({})", self.expr(CType::Long, d)),
            12 => {
                if hostile && self.chance(3) {
                    format!("(int)rec({a})")
                } else if self.chance(2) {
                    format!("(int)rec(({a}) % 40)")
                } else {
                    let (arr, len) = self.array_of(CType::Int).unwrap_or(("gi".into(), 1));
                    let n = if hostile && self.chance(3) {
                        a
                    } else {
                        format!("(int)((unsigned)({a}) % {}u)", len + 1)
                    };
                    format!("isum({arr}, {n})")
                }
            }
            _ => {
                if hostile && self.chance(2) {
                    format!("(-{a})")
                } else {
                    format!("(~{a})")
                }
            }
        }
    }

    fn long_expr(&mut self, d: u32) -> String {
        let hostile = !self.cfg.ub_free;
        let (a, b) = (self.expr(CType::Long, d), self.expr(CType::Long, d));
        match self.rng.random_range(0..9) {
            0..=2 => {
                let op = ["+", "-", "*"][self.rng.random_range(0..3)];
                if hostile && self.chance(2) {
                    format!("({a} {op} {b})")
                } else {
                    format!("(long long)((unsigned long long)({a}) {op} (unsigned long long)({b}))")
                }
            }
            3 => {
                let op = ["/", "%"][self.rng.random_range(0..2)];
                if hostile && self.chance(2) {
                    format!("({a} {op} {b})")
                } else {
                    let f = if op == "/" { "ldiv_" } else { "lmod_" };
                    format!("{f}({a}, {b})")
                }
            }
            4 => format!("(long long)({})", self.expr(CType::Int, d)),
            5 => {
                let x = self.expr(CType::Double, d);
                if hostile && self.chance(2) {
                    format!("(long long)({x})")
                } else {
                    format!("d2l({x})")
                }
            }
            6 => {
                if hostile && self.chance(3) {
                    format!("rec({a})")
                } else {
                    format!("rec(({a}) % 60)")
                }
            }
            7 => format!("(({a}) >> (({b}) & 63))"),
            _ => {
                let c = self.cond(d);
                format!("({c} ? {a} : {b})")
            }
        }
    }

    fn double_expr(&mut self, d: u32) -> String {
        let hostile = !self.cfg.ub_free;
        let (a, b) = (self.expr(CType::Double, d), self.expr(CType::Double, d));
        match self.rng.random_range(0..7) {
            0..=2 => {
                let op = ["+", "-", "*"][self.rng.random_range(0..3)];
                format!("({a} {op} {b})")
            }
            3 => {
                if hostile && self.chance(2) {
                    format!("({a} / {b})")
                } else {
                    format!("({a} / (({b}) == 0.0 ? 1.0 : ({b})))")
                }
            }
            4 => format!("(double)({})", self.expr(CType::Int, d)),
            5 => format!("(double)({})", self.expr(CType::Long, d)),
            _ => format!("sqrt(fabs({a}))"),
        }
    }

    fn assign(&mut self, out: &mut String, ind: &str) {
        let t = TYPES[self.rng.random_range(0..4)];
        let depth = self.cfg.max_expr_depth;
        let e = self.expr(t, depth);
        if self.chance(3) {
            if let Some((arr, len)) = self.array_of(t) {
                let i = self.index(len, 1);
                let _ = writeln!(out, "{ind}{arr}[{i}] = {e};");
                return;
            }
        }
        match self.var_of(t) {
            Some(v) => {
                let _ = writeln!(out, "{ind}{v} = {e};");
            }
            None => self.print(out, ind, t, e),
        }
    }

    fn print(&mut self, out: &mut String, ind: &str, t: CType, e: String) {
        let f = match t {
            CType::Int | CType::Char => "%d",
            CType::Long => "%lld",
            CType::Double => ["%.17g", "%.3f", "%g", "%e"][self.rng.random_range(0..4)],
        };
        let _ = writeln!(out, "{ind}printf(\"{f}\\n\", {e});");
    }

    fn stmt(&mut self, out: &mut String, ind: &str, block_depth: u32) {
        let nested = block_depth < self.cfg.max_block_depth;
        match self.rng.random_range(0..12) {
            0..=4 => self.assign(out, ind),
            5 => {
                let t = TYPES[self.rng.random_range(0..4)];
                let e = self.expr(t, self.cfg.max_expr_depth);
                self.print(out, ind, t, e);
            }
            6 | 7 if nested => {
                let c = self.cond(2);
                let _ = writeln!(out, "{ind}if ({c}) {{");
                self.block(out, ind, block_depth + 1);
                if self.chance(2) {
                    let _ = writeln!(out, "{ind}}} else {{");
                    self.block(out, ind, block_depth + 1);
                }
                let _ = writeln!(out, "{ind}}}");
            }
            8..=10 if nested => {
                let k = format!("k{}", self.loop_depth);
                let bound = if self.hostile(8) {
                    if self.chance(3) {
                        let _ = writeln!(out, "{ind}while (1) {{");
                        self.loop_body(out, ind, block_depth);
                        let _ = writeln!(out, "{ind}}}");
                        return;
                    }
                    self.expr(CType::Int, 1)
                } else if self.chance(2) {
                    format!("{}", self.rng.random_range(0..12))
                } else {
                    let e = self.expr(CType::Int, 1);
                    format!("(int)((unsigned)({e}) % 12u)")
                };
                let _ = writeln!(out, "{ind}for ({k} = 0; {k} < {bound}; {k}++) {{");
                self.loop_body(out, ind, block_depth);
                let _ = writeln!(out, "{ind}}}");
            }
            11 if self.hostile(2) => {
                // A variable-length array of an input-dependent (maybe negative or huge) size.
                let n = self.expr(CType::Int, 1);
                let i = self.expr(CType::Int, 1);
                let _ = writeln!(
                    out,
                    "{ind}{{ int vla[{n}]; vla[{i}] = 1; gi[0] = vla[0]; }}"
                );
            }
            _ => self.assign(out, ind),
        }
    }

    fn loop_body(&mut self, out: &mut String, ind: &str, block_depth: u32) {
        self.loop_depth += 1;
        let inner = format!("{ind}    ");
        if self.chance(3) {
            let c = self.cond(1);
            let _ = writeln!(out, "{inner}if ({c}) break;");
        }
        self.block_items(out, &inner, block_depth + 1);
        self.loop_depth -= 1;
    }

    fn block(&mut self, out: &mut String, ind: &str, block_depth: u32) {
        let inner = format!("{ind}    ");
        self.block_items(out, &inner, block_depth);
    }

    fn block_items(&mut self, out: &mut String, ind: &str, block_depth: u32) {
        for _ in 0..self.rng.random_range(1..=3) {
            self.stmt(out, ind, block_depth);
        }
    }
}

fn int_literal(v: i64, long: bool) -> String {
    let suffix = if long { "LL" } else { "" };
    if v == i64::MIN {
        "(-9223372036854775807LL - 1)".into()
    } else if v == i32::MIN as i64 && !long {
        "(-2147483647 - 1)".into()
    } else if v < 0 {
        format!("(-{}{suffix})", -v)
    } else {
        format!("{v}{suffix}")
    }
}

/// The fixed prelude: guarded arithmetic helpers, a bounded-or-not recursion, an array sum.
const PRELUDE: &str = "#include <stdio.h>
#include <math.h>
static int sdiv(int a, int b) { return (b == 0 || (a == -2147483647 - 1 && b == -1)) ? 0 : a / b; }
static int smod(int a, int b) { return (b == 0 || (a == -2147483647 - 1 && b == -1)) ? 0 : a % b; }
static long long ldiv_(long long a, long long b) { return (b == 0 || (a == -9223372036854775807LL - 1 && b == -1)) ? 0 : a / b; }
static long long lmod_(long long a, long long b) { return (b == 0 || (a == -9223372036854775807LL - 1 && b == -1)) ? 0 : a % b; }
static int d2i(double x) { return (x > -2147483648.0 && x < 2147483647.0) ? (int)x : 0; }
static long long d2l(double x) { return (x > -9.2e18 && x < 9.2e18) ? (long long)x : 0; }
static long long rec(long long n) { if (n <= 0) return 1; return (long long)((unsigned long long)rec(n - 1) * 3ULL + (unsigned long long)(n % 7)); }
static int isum(int *a, int n) { int s = 0, j; for (j = 0; j < n; j++) s = (int)((unsigned)s + (unsigned)a[j]); return s; }
";

/// Generates one program (see the module docs for what `ub_free` changes).
pub fn program(rng: &mut StdRng, cfg: &GenConfig) -> GenProgram {
    let mut g = Gen {
        rng,
        cfg,
        vars: vec![],
        arrays: vec![],
        loop_depth: 0,
    };
    let mut src = String::from(PRELUDE);
    // Globals: one array per type (hostile: sometimes huge), always `gi` for isum.
    for t in TYPES {
        let len: u64 = if g.hostile(30) {
            [1 << 20, 1 << 24, 1 << 28, 1 << 31, 4_000_000_000][g.rng.random_range(0..5)]
        } else {
            g.rng.random_range(1..=16)
        };
        let name = format!("g{}", t.tag());
        let _ = writeln!(src, "{} {name}[{len}];", t.c());
        g.arrays.push((name, t, len));
    }
    src.push_str("int main(void) {\n");
    let _ = writeln!(src, "    int k0, k1, k2, k3;");
    let mut inputs = vec![];
    for i in 0..g.rng.random_range(1..=4) {
        let t = [CType::Int, CType::Long, CType::Double][g.rng.random_range(0..3)];
        let name = format!("{}{i}", t.tag());
        let _ = writeln!(src, "    {} {name} = 0;", t.c());
        inputs.push((name.clone(), t));
        g.vars.push((name, t));
    }
    for i in 0..g.rng.random_range(2..=5) {
        let t = TYPES[g.rng.random_range(0..4)];
        let name = format!("v{}{i}", t.tag());
        let init = g.constant(t);
        let _ = writeln!(src, "    {} {name} = {init};", t.c());
        g.vars.push((name, t));
    }
    let fmt: Vec<&str> = inputs.iter().map(|v| v.1.scan()).collect();
    let addrs: Vec<String> = inputs.iter().map(|v| format!("&{}", v.0)).collect();
    let _ = writeln!(
        src,
        "    if (scanf(\"{}\", {}) != {}) return 1;",
        fmt.join(" "),
        addrs.join(", "),
        inputs.len()
    );
    let _ = writeln!(src, "    k0 = k1 = k2 = k3 = 0;");
    for _ in 0..g.rng.random_range(1..=cfg.max_stmts.max(1)) {
        g.stmt(&mut src, "    ", 0);
    }
    let vars = g.vars.clone();
    for (name, t) in vars {
        let f = match t {
            CType::Int | CType::Char => "%d",
            CType::Long => "%lld",
            CType::Double => "%.17g",
        };
        let _ = writeln!(src, "    printf(\"{name}={f}\\n\", {name});");
    }
    let _ = writeln!(
        src,
        "    printf(\"arr=%d %lld %.17g %d\\n\", gi[0], gl[0], gd[0], gc[0]);"
    );
    src.push_str("    return 0;\n}\n");
    GenProgram {
        source: src,
        inputs: inputs.into_iter().map(|v| v.1).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::compile;
    use rand::SeedableRng;

    #[test]
    fn generated_programs_compile_and_replay() {
        for ub_free in [false, true] {
            let cfg = GenConfig {
                ub_free,
                ..GenConfig::default()
            };
            for seed in 0..40 {
                let p = program(&mut StdRng::seed_from_u64(seed), &cfg);
                assert_eq!(p, program(&mut StdRng::seed_from_u64(seed), &cfg));
                if let Err(e) = compile(&p.source) {
                    assert!(e.to_string().contains("size of array"), "{e}\n{}", p.source);
                }
            }
        }
    }
}
