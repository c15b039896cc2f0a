//! Program repair: fault localisation, the patch model, test validation and the enumerative engine with test-equivalence.

pub mod cost;
pub mod diff;
pub mod gp;
pub mod patch;
pub mod select;
pub mod synth;

pub use cost::CostTable;
pub use patch::{Edit, EditKind, Patch, PatchError, RepairSource};
