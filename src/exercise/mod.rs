//! Classroom exercises: a buggy program with a hidden reference that grades answers and fixes.

pub mod grade;

pub use grade::{Grade, GradeError, Grader};
