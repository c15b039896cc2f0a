//! Repair: from labelled tests to validated patches (fault localisation, patch model, engines).

pub mod select;
pub mod synth;
