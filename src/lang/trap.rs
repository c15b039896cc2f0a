//! Why a run of the interpreter stopped early, or noted undefined behaviour and went on: the one error type of the VM, its arithmetic and its library.

use super::UndefinedKind;

/// Why execution stopped early.
#[derive(Debug)]
pub enum Trap {
    /// A runtime error with its message; the line comes from the current instruction.
    Error(String),
    /// `exit(n)` or return from `main`.
    Exit(i32),
    /// Fuel exhausted.
    Timeout,
    /// Memory budget exceeded.
    Memory,
    /// Call depth exceeded.
    CallDepth,
    /// Output budget exceeded.
    Output,
    /// Stopped before an input read, as asked by [`Vm::pause_before_input`] (never an
    /// outcome: [`Vm::resume`] continues the run).
    Paused,
    /// A read of a scalar local whose address is never taken before anything was
    /// written to it: undefined behaviour that stops the run (gcc's program reads whatever
    /// the stack held), with what was read ("variable `x`"). The run's
    /// [`Execution::undefined`](super::Execution::undefined) notes it.
    Uninitialised(String),
    /// Never a stop: an operation whose behaviour C leaves undefined gave this value (what
    /// gcc -O0 on x86-64 gives); the machine notes it and goes on.
    Undefined(UndefinedKind, u64),
}
