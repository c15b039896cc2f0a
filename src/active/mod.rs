//! Human in the loop (Learn2fix): the fuzzer, the decide2label active loop, labellers and the paper's metrics.
//!
//! [`fuzz`] mutates failing inputs, [`session`] is the step-able loop (Algorithm 1 with
//! decide2label, Algorithm 2) over a [`observe::Runner`] (the program under repair, e.g.
//! [`program::ProgramRunner`]) and a [`learner::BugOracle`] (the learned bug formula,
//! [`formula::FormulaOracle`]), and asks a [`session::Labeller`] (a person, or
//! [`reference::ReferenceLabeller`] running the golden program). [`eval`] measures the
//! oracle on a corpus subject as the Learn2fix paper did. Everything is deterministic
//! given the seed; budgets are counts (labels, generated tests, look-ahead learns, fuel;
//! [`fuel`] sizes the fuel of fuzzed runs from the known tests; [`run_cache`] spares
//! repeated runs).

pub mod eval;
pub mod formula;
pub mod fuel;
pub mod fuzz;
pub mod learner;
pub mod num;
pub mod observe;
pub mod program;
pub mod reference;
pub mod run_cache;
pub mod session;

pub use fuel::FuzzFuel;
pub use fuzz::{FuzzConfig, FuzzProfile, FuzzStop, Fuzzer, Range};
pub use learner::{BugOracle, Example, LearnStatus};
pub use num::Num;
pub use observe::{Observation, OutputEncoder, Runner, Status};
pub use session::{
    ActiveConfig, ActiveLoop, AskReason, GeneratedTest, Label, LabelledTest, Labeller, Query,
    Report, Step, StopReason,
};
