//! The C-subset language: parsing, diagnostics, compilation and fuel-bounded execution.

pub mod ast;
pub mod diag;
pub mod format;
pub mod lexer;
pub mod parser;
pub mod preprocess;

pub use parser::parse;
