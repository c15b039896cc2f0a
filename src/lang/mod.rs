//! The C-subset language: parsing, diagnostics, compilation and fuel-bounded execution.
//!
//! ```
//! use fixloop::lang::{compile, Limits, Outcome};
//! let p = compile("#include <stdio.h>\nint main(){int a,b; scanf(\"%d %d\",&a,&b); printf(\"%d\\n\", a/b); return 0;}").unwrap();
//! let ok = p.run(b"7 2\n", &Limits::default());
//! assert_eq!(ok.stdout, b"3\n");
//! let err = p.run(b"7 0\n", &Limits::default());
//! assert_eq!(err.outcome.to_string(), "runtime error at line 2: division by zero");
//! ```
//!
//! Pipeline: [`parser::parse`] gives an [`ast::TranslationUnit`] and diagnostics; `compile`
//! resolves names and types and emits a typed stack bytecode ([`bytecode`]) once; [`vm`]
//! runs it any number of times with an explicit frame stack (C recursion never recurses on
//! the Rust stack), bounded by [`Limits`].
//!
//! Semantics follow gcc -std=c99 -O0 on x86-64 Linux, with these documented choices:
//! - a read of a scalar local whose address is never taken, before anything was written
//!   to it, stops the run: "undefined behaviour: read of uninitialised variable `x`",
//!   noted as [`UndefinedKind::UninitialisedRead`] (C11 6.3.2.1p2; gcc's program reads
//!   stack garbage). An unwritten array element, structure member, address-taken scalar
//!   or `malloc`'d byte has an unspecified value in C, not undefined behaviour, and reads
//!   as 0 (what a gcc-built program's fresh stack and heap pages mostly hold); globals and
//!   `static` locals start as zeros; a block's local keeps its value across loop
//!   iterations as gcc's stack slot does;
//! - `INT_MIN / -1` and `INT_MIN % -1` are the runtime error "integer overflow" (gcc: SIGFPE);
//! - out-of-range double -> int conversion gives 0x80000000 (x86 "integer indefinite");
//! - every array/pointer access is bounds-checked against its object (whole object, so a
//!   2-D row overflow into the next row is allowed as in C); violations are runtime errors,
//!   except small overruns into the object's padding ([`Limits::bounds_slack`]);
//! - a non-void function other than `main` that falls off its end returns the value of the
//!   last call that returned (gcc's eax in the usual `f(n);` recursion slip), else 0;
//! - math functions call the platform libm (glibc natively; the wasm build uses Rust's
//!   libm port, which may differ in the last ulp for `pow`, `exp`, `log`...);
//! - `printf`'s `%I64d` is read as `%lld` (the Codeforces programs' intent).
//! - structures (`struct tag { ... }`, typedef'd and anonymous ones, nested, arrays of
//!   them, `.`, `->`, whole-structure assignment, by-value arguments and results) are laid
//!   out as gcc does on x86-64; unions and bit-fields are unsupported; structure tags are
//!   not scoped (a later definition of a tag replaces the earlier one).

pub mod arith;
pub mod ast;
pub mod builtins;
pub mod bytecode;
pub mod compile;
pub mod definite;
pub mod diag;
pub mod format;
pub mod inputs;
pub mod lexer;
pub mod parser;
pub mod prefix;
pub mod preprocess;
pub mod print;
pub mod scalar_eval;
pub mod trap;
pub mod types;
pub mod visit;
pub mod vm;

use std::fmt;
use std::sync::Arc;

pub use ast::NodeId;
pub use diag::Diagnostic;
pub use parser::parse;
use types::{Sc, Ty};
pub use vm::HoleHandler;

/// All diagnostics of a program that could not be compiled (parse and semantic errors).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CompileError {
    /// Every diagnostic, errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl CompileError {
    /// Whether any error reports a feature fixloop does not support (vs. an invalid program).
    pub fn is_unsupported(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.is_error() && d.is_unsupported())
    }
    /// The first error's message (for one-line reports).
    pub fn first_error(&self) -> String {
        self.diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.to_string())
            .unwrap_or_default()
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The numeric kinds of a function-shaped program's parameters and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumKind {
    /// Any integer type (the exact C type is kept in the program).
    Int,
    /// `float` or `double`.
    Float,
}

/// How a program takes a test input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `main` reads stdin and writes stdout.
    Main,
    /// A single numeric function: the input numbers are its arguments, the output its result.
    Function {
        /// The function's name.
        name: String,
        /// Parameter names and kinds.
        params: Vec<(String, NumKind)>,
        /// The result kind.
        ret: NumKind,
    },
}

/// One input number of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
}

impl fmt::Display for Num {
    /// Integers in decimal; floats in the shortest `%g`-style form that reads back exactly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(v) => write!(f, "{v}"),
            Num::Float(x) => f.write_str(&shortest_g(*x)),
        }
    }
}

/// A number that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a number: '{0}'")]
pub struct NumParseError(pub String);

impl std::str::FromStr for Num {
    type Err = NumParseError;
    /// `42`, `-7` are integers; anything with `.`, `e` (or `inf`/`nan`) is a float.
    fn from_str(s: &str) -> Result<Num, NumParseError> {
        let t = s.trim();
        if let Ok(v) = t.parse::<i64>() {
            return Ok(Num::Int(v));
        }
        t.parse::<f64>()
            .map(Num::Float)
            .map_err(|_| NumParseError(s.to_string()))
    }
}

impl Num {
    /// Parses a whitespace-separated list of numbers.
    pub fn parse_list(s: &str) -> Result<Vec<Num>, NumParseError> {
        s.split_whitespace().map(str::parse).collect()
    }
    /// The value as a double.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Float(x) => x,
        }
    }
}

/// The shortest `%.Ng` (N = 1..17) rendering of `x` that parses back to `x`.
pub fn shortest_g(x: f64) -> String {
    for prec in 1..=17 {
        let mut out = vec![];
        let fmt = format!("%.{prec}g");
        let mut args = format::VecArgs::new(vec![], vec![x], vec![]);
        if format::printf(fmt.as_bytes(), &mut args, &mut out).is_err() {
            break;
        }
        let s = String::from_utf8_lossy(&out).into_owned();
        if s.parse::<f64>().ok() == Some(x) || x.is_nan() || prec == 17 {
            return s;
        }
    }
    format!("{x}")
}

/// Execution budgets. All are counts, never time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Steps: each statement, loop iteration and call costs one. Default 10 000 000.
    pub fuel: u64,
    /// Bytes of globals, stack frames (registers, arrays, 64 bytes per frame) and heap.
    /// Globals count by the 4 KiB pages the program writes (initialised data counts
    /// whole), as the OS commits a gcc-built program's zero pages only when touched.
    /// Default 64 MiB.
    pub memory_bytes: usize,
    /// The most bytes of global storage a program may declare (it must also fit
    /// `memory_bytes` once written). Default 1 GiB on 64-bit hosts, where untouched zero
    /// pages cost nothing; 64 MiB on 32-bit hosts (wasm32), whose address space is small.
    pub global_bytes: usize,
    /// Maximum call nesting. Default 100 000 (about what gcc's 8 MiB stack allows for
    /// small frames).
    pub call_depth: u32,
    /// Maximum stdout bytes. Default 1 MiB.
    pub output_bytes: usize,
    /// Record which statements ran ([`Execution::coverage`]). Default false.
    pub record_coverage: bool,
    /// Accesses up to this many bytes before or after an object (at most 64) hit padding
    /// instead of failing, as small overruns do in gcc-built programs (e.g. the NUL of
    /// `gets` into a full buffer, reading `a[n]`). 0 makes every out-of-bounds access a
    /// runtime error. Default 64.
    pub bounds_slack: u32,
    /// Every operation noted as undefined behaviour ([`Execution::undefined`]) gives 0
    /// instead of what gcc -O0 on x86-64 gives. A second opinion: an output that changes
    /// with it depends on something C leaves undefined. Default false.
    pub undefined_as_zero: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            fuel: 10_000_000,
            memory_bytes: 64 << 20,
            global_bytes: if cfg!(target_pointer_width = "64") {
                1 << 30
            } else {
                64 << 20
            },
            call_depth: 100_000,
            output_bytes: 1 << 20,
            record_coverage: false,
            bounds_slack: 64,
            undefined_as_zero: false,
        }
    }
}

/// How an execution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `main` returned or `exit` was called with this status (a function-shaped program
    /// that returned gives 0).
    Exit(i32),
    /// Fuel ran out.
    Timeout,
    /// Division by zero, out-of-bounds access, ... at a source line.
    RuntimeError {
        /// 1-based source line.
        line: u32,
        /// What went wrong.
        message: String,
    },
    /// The memory budget was exceeded.
    MemoryLimit,
    /// The call-depth budget was exceeded (e.g. unbounded recursion).
    CallDepth,
    /// The output budget was exceeded.
    OutputLimit,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Exit(n) => write!(f, "exit {n}"),
            Outcome::Timeout => write!(f, "timeout"),
            Outcome::RuntimeError { line, message } => {
                write!(f, "runtime error at line {line}: {message}")
            }
            Outcome::MemoryLimit => write!(f, "memory limit exceeded"),
            Outcome::CallDepth => write!(f, "call depth limit exceeded"),
            Outcome::OutputLimit => write!(f, "output limit exceeded"),
        }
    }
}

/// An operation whose behaviour C leaves undefined. The interpreter goes on with what
/// gcc -O0 on x86-64 gives (wrapping, `0x80000000`), but a correct program may print
/// anything from there on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndefinedKind {
    /// A signed `+ - *` or negation whose result does not fit its type.
    SignedOverflow,
    /// A floating value converted to an integer type it does not fit (or NaN).
    FloatToInteger,
    /// `scanf` read a number its signed destination cannot hold: the input itself is
    /// outside what the program can represent.
    InputOutOfRange,
    /// A non-void function other than `main` ended at its closing brace, without a
    /// `return` value, and its caller used the value (C11 6.9.1p12). The interpreter gives
    /// the value of the last call that returned, what gcc -O0 leaves in `eax` in the
    /// common case; gcc's real value depends on the code it generated.
    MissingReturnValue,
    /// A scalar local whose address is never taken read before anything was written to
    /// it (C11 6.3.2.1p2; gcc's program reads whatever the stack held). Unlike the others
    /// this stops the run, with a runtime error naming the variable.
    UninitialisedRead,
}

/// The first undefined behaviour a run went through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undefined {
    /// 1-based source line.
    pub line: u32,
    /// What happened.
    pub what: UndefinedKind,
}

impl fmt::Display for Undefined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.what {
            UndefinedKind::SignedOverflow => "signed integer overflow",
            UndefinedKind::FloatToInteger => "floating value out of the integer range",
            UndefinedKind::InputOutOfRange => "a number read does not fit its type",
            UndefinedKind::MissingReturnValue => {
                "the value of a function that ended without return is used"
            }
            UndefinedKind::UninitialisedRead => "read of an uninitialised variable",
        };
        write!(f, "{what} at line {}", self.line)
    }
}

/// The result of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// Everything written to stdout (kept also when the run ended abnormally).
    pub stdout: Vec<u8>,
    /// How the run ended.
    pub outcome: Outcome,
    /// Steps used.
    pub steps: u64,
    /// The first undefined behaviour of C the run went through (the run went on), or
    /// the one that stopped it ([`UndefinedKind::UninitialisedRead`]).
    pub undefined: Option<Undefined>,
    /// Indices into [`Program::statement_lines`] of the statements executed, ascending,
    /// when [`Limits::record_coverage`] was set.
    pub coverage: Option<Vec<u32>>,
}

impl Execution {
    /// Whether the program ended normally (exit status ignored).
    pub fn exited(&self) -> bool {
        matches!(self.outcome, Outcome::Exit(_))
    }

    /// Whether undefined behaviour stopped the run (a read of an uninitialised variable):
    /// what gcc's binary does from there is anyone's guess.
    pub fn stopped_by_undefined(&self) -> bool {
        matches!(self.outcome, Outcome::RuntimeError { .. })
            && self
                .undefined
                .is_some_and(|u| u.what == UndefinedKind::UninitialisedRead)
    }
}

#[derive(Debug)]
struct Inner {
    compiled: compile::Compiled,
    shape: Shape,
    entry: u32,
    entry_params: Vec<Ty>,
    entry_ret: Ty,
    diagnostics: Vec<Diagnostic>,
    /// What the program reads, described from the parse it was compiled from.
    inputs: inputs::ProgramInputs,
    /// The state before `main`'s first input read, shared by all its plain runs.
    prefix: prefix::PrefixCache,
}

/// A compiled program: compiled once, run many times. Cheap to clone, `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Program {
    inner: Arc<Inner>,
}

/// Compiles C source; `Err` holds every diagnostic (parse and semantic).
pub fn compile(source: &str) -> Result<Program, CompileError> {
    compile_with_hole(source, None)
}

/// Compiles C source with the scalar rvalue expression node `hole` (a [`NodeId`] of
/// `parse(source)`) routed through a repair hole: runs with
/// [`Program::run_test_with_hole`] let a [`HoleHandler`] watch and replace its value.
/// [`Program::hole_sites`] lists the compiled sites (empty when the node is not a scalar
/// rvalue). With `None` this is [`compile`].
pub fn compile_with_hole(source: &str, hole: Option<NodeId>) -> Result<Program, CompileError> {
    let (tu, diags) = parser::parse(source);
    compile_parsed(&tu, diags, hole)
}

/// [`compile_with_hole`] of a unit already parsed, with `diags` the diagnostics its parse
/// gave. Repair compiles one parsed text with many different holes, and parsing costs
/// about as much as compiling.
pub fn compile_parsed(
    tu: &ast::TranslationUnit,
    mut diags: Vec<Diagnostic>,
    hole: Option<NodeId>,
) -> Result<Program, CompileError> {
    if diag::has_errors(&diags) {
        return Err(CompileError { diagnostics: diags });
    }
    let compiled = match compile::compile_unit_with_hole(tu, hole) {
        Ok(c) => c,
        Err(more) => {
            diags.extend(more);
            diags.sort_by_key(|d| (d.line, d.col));
            return Err(CompileError { diagnostics: diags });
        }
    };
    let fail = |msg: String, diags: &mut Vec<Diagnostic>| {
        diags.push(Diagnostic::error(ast::Span::default(), msg));
        Err(CompileError {
            diagnostics: std::mem::take(diags),
        })
    };
    let (shape, entry, entry_params, entry_ret) = if let Some(&m) = compiled.func_index.get("main")
    {
        let sig = compiled.signatures.iter().find(|s| s.0 == "main");
        let params = sig
            .map(|s| s.1.iter().map(|p| p.1.clone()).collect())
            .unwrap_or_default();
        (Shape::Main, m, params, Ty::INT)
    } else {
        let kind = |t: &Ty| match t {
            Ty::Scalar(s) if s.is_float() => Some(NumKind::Float),
            Ty::Scalar(_) => Some(NumKind::Int),
            _ => None,
        };
        let numeric: Vec<_> = compiled
            .signatures
            .iter()
            .filter(|s| kind(&s.2).is_some() && s.1.iter().all(|p| kind(&p.1).is_some()))
            .collect();
        let chosen = if numeric.len() == 1 {
            numeric.first().copied()
        } else {
            let non_static: Vec<_> = numeric.iter().filter(|s| !s.3).collect();
            if non_static.len() == 1 {
                non_static.first().map(|s| **s)
            } else {
                None
            }
        };
        let Some(sig) = chosen else {
            return fail(
                "program has no 'main' and no single numeric entry function".into(),
                &mut diags,
            );
        };
        let idx = compiled.func_index.get(&sig.0).copied().unwrap_or(0);
        let shape = Shape::Function {
            name: sig.0.clone(),
            params: sig
                .1
                .iter()
                .map(|(n, t)| (n.clone(), kind(t).unwrap_or(NumKind::Int)))
                .collect(),
            ret: kind(&sig.2).unwrap_or(NumKind::Int),
        };
        (
            shape,
            idx,
            sig.1.iter().map(|p| p.1.clone()).collect(),
            sig.2.clone(),
        )
    };
    let inputs = inputs::describe(tu, &shape);
    Ok(Program {
        inner: Arc::new(Inner {
            compiled,
            inputs,
            shape,
            entry,
            entry_params,
            entry_ret,
            diagnostics: diags,
            prefix: prefix::PrefixCache::default(),
        }),
    })
}

impl Program {
    /// How the program takes inputs.
    pub fn shape(&self) -> &Shape {
        &self.inner.shape
    }

    /// What the program reads: its input numbers' names and types, its constants,
    /// whether it reads stdin or text ([`inputs::describe`] of the parse it was compiled
    /// from, so no caller parses the text again).
    pub fn inputs(&self) -> &inputs::ProgramInputs {
        &self.inner.inputs
    }

    /// Warnings from compilation.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.inner.diagnostics
    }

    /// The compiled bytecode (for tools and benchmarks).
    pub fn code(&self) -> &bytecode::Code {
        &self.inner.compiled.code
    }

    /// Coverage index -> (statement node id, source line).
    pub fn statement_lines(&self) -> &[(NodeId, u32)] {
        &self.inner.compiled.stmts
    }

    /// Expression node id -> first instruction of its compiled code.
    pub fn expression_code(&self, id: NodeId) -> Option<u32> {
        self.inner.compiled.expr_at.get(&id).copied()
    }

    /// The repair hole sites compiled in (see [`compile_with_hole`]); a site appears once
    /// per place its expression was compiled (usually one).
    pub fn hole_sites(&self) -> &[bytecode::HoleSite] {
        &self.inner.compiled.code.holes
    }

    /// [`Program::run_test`] with every hole's value decided by `handler`.
    pub fn run_test_with_hole(
        &self,
        input: &[Num],
        limits: &Limits,
        handler: &mut dyn HoleHandler,
    ) -> Execution {
        match self.inner.shape {
            Shape::Main => {
                let args = self.main_args();
                self.execute(
                    stdin_line(input).as_bytes(),
                    &args,
                    limits,
                    false,
                    Some(handler),
                )
            }
            Shape::Function { .. } => {
                let vals = self.function_args(input);
                self.execute(&[], &vals, limits, true, Some(handler))
            }
        }
    }

    fn main_args(&self) -> Vec<u64> {
        self.inner
            .entry_params
            .iter()
            .enumerate()
            .map(|(i, _)| u64::from(i == 0))
            .collect()
    }

    fn function_args(&self, args: &[Num]) -> Vec<u64> {
        self.inner
            .entry_params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let sc = t.sc().unwrap_or(Sc::I32);
                match args.get(i).copied().unwrap_or(Num::Int(0)) {
                    Num::Int(v) => arith::convert(Sc::I64, sc, v as u64),
                    Num::Float(x) => arith::convert(Sc::F64, sc, x.to_bits()),
                }
            })
            .collect()
    }

    fn execute(
        &self,
        stdin: &[u8],
        args: &[u64],
        limits: &Limits,
        function: bool,
        handler: Option<&mut dyn HoleHandler>,
    ) -> Execution {
        let code = &self.inner.compiled.code;
        // Only a plain `main` run can share its input-free prefix: a function gets its
        // input as arguments, and a hole handler may act before the first read.
        let start = if function || handler.is_some() || skip_prefix() {
            prefix::Start::Scratch
        } else {
            self.inner.prefix.start(limits)
        };
        if let prefix::Start::Whole(e) = &start {
            return (**e).clone();
        }
        let mut vm = match &start {
            prefix::Start::Snapshot(snap) => vm::Vm::from_snapshot(code, limits, stdin, snap),
            _ => match vm::Vm::new(code, limits, stdin) {
                Ok(vm) => vm,
                Err(t) => {
                    return Execution {
                        stdout: vec![],
                        outcome: vm::outcome(code, t, 0),
                        steps: 0,
                        undefined: None,
                        coverage: None,
                    }
                }
            },
        };
        if let Some(h) = handler {
            vm.set_hole_handler(h);
        }
        // Set when a probing run ends without reading input: every run ends so.
        let mut input_free = false;
        let r = match start {
            prefix::Start::Snapshot(_) => vm.resume(),
            prefix::Start::Scratch | prefix::Start::Whole(_) => {
                vm.run_function(self.inner.entry, args)
            }
            prefix::Start::Probe => {
                vm.pause_before_input(true);
                let r = vm.run_function(self.inner.entry, args);
                vm.pause_before_input(false);
                if matches!(r, Err((vm::Trap::Paused, _))) {
                    self.inner.prefix.offer(limits, &vm);
                    vm.resume()
                } else {
                    input_free = true;
                    r
                }
            }
        };
        let outcome = match r {
            Ok(v) => {
                if function {
                    let text = render_value(&self.inner.entry_ret, v);
                    if let Err(t) = vm.write(text.as_bytes()) {
                        vm::outcome(code, t, 0)
                    } else {
                        Outcome::Exit(0)
                    }
                } else {
                    Outcome::Exit(v as i32)
                }
            }
            Err((t, pc)) => vm::outcome(code, t, pc),
        };
        let coverage = vm.coverage.take().map(|c| {
            c.iter()
                .enumerate()
                .filter(|(_, &b)| b)
                .map(|(i, _)| i as u32)
                .collect()
        });
        let execution = Execution {
            steps: vm.steps(),
            undefined: vm.undefined(),
            stdout: std::mem::take(&mut vm.stdout),
            outcome,
            coverage,
        };
        if input_free {
            self.inner.prefix.offer_whole(limits, &execution);
        }
        execution
    }

    /// Runs `main` with `stdin` (`argc` is 1, `argv` is null). For a function-shaped
    /// program, stdin is read as the whitespace-separated arguments.
    pub fn run(&self, stdin: &[u8], limits: &Limits) -> Execution {
        match &self.inner.shape {
            Shape::Main => {
                let args = self.main_args();
                self.execute(stdin, &args, limits, false, None)
            }
            Shape::Function { .. } => {
                let text = String::from_utf8_lossy(stdin);
                let nums: Vec<Num> = text
                    .split_whitespace()
                    .map(|t| t.parse().unwrap_or(Num::Int(0)))
                    .collect();
                self.call(&nums, limits)
            }
        }
    }

    /// Calls a function-shaped program with `args` (converted to the parameter types;
    /// missing ones are 0). stdout is the result: integers as `%d`/`%u`/`%lld`/`%llu`,
    /// floating results in the shortest `%.Ng` form that reads back exactly, then `\n`.
    /// For a `main` program, the arguments become one stdin line.
    pub fn call(&self, args: &[Num], limits: &Limits) -> Execution {
        if self.inner.shape == Shape::Main {
            return self.run(stdin_line(args).as_bytes(), limits);
        }
        let vals = self.function_args(args);
        self.execute(&[], &vals, limits, true, None)
    }

    /// Runs one test input on either shape: `main` gets the numbers as one
    /// space-separated stdin line, a function gets them as arguments.
    pub fn run_test(&self, input: &[Num], limits: &Limits) -> Execution {
        match self.inner.shape {
            Shape::Main => self.run(stdin_line(input).as_bytes(), limits),
            Shape::Function { .. } => self.call(input, limits),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Test switch: run every execution from scratch (to compare with snapshot starts).
    static SKIP_PREFIX: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the test switch [`SKIP_PREFIX`] is on (never outside tests).
fn skip_prefix() -> bool {
    #[cfg(test)]
    return SKIP_PREFIX.with(|x| x.get());
    #[cfg(not(test))]
    false
}

fn stdin_line(nums: &[Num]) -> String {
    let mut s = nums
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    s.push('\n');
    s
}

fn render_value(t: &Ty, v: u64) -> String {
    let s = match t.sc() {
        Some(Sc::F32 | Sc::F64) => shortest_g(f64::from_bits(v)),
        Some(Sc::U64 | Sc::U32 | Sc::U16 | Sc::U8 | Sc::Bool) => v.to_string(),
        Some(_) => (v as i64).to_string(),
        None => String::new(),
    };
    s + "\n"
}
