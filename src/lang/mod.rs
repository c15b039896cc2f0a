//! The C-subset language: parsing, diagnostics, compilation and fuel-bounded execution.

pub mod ast;
pub mod diag;
pub mod parser;

pub use parser::parse;
