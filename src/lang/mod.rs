//! The C-subset language: parsing, diagnostics, compilation and fuel-bounded execution.
pub mod format;
