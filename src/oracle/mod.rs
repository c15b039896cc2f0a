//! The bug-oracle learner: readable linear formulas learned from labelled tests.
