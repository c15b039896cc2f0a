//! Output comparison as the benchmarks do it: blank lines dropped, per-line whitespace trimmed.
