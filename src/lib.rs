//! fixloop: human-in-the-loop automatic repair of small numeric C programs.
//!
//! The pipeline: [`lang`] parses and runs C-subset programs under fuel limits,
//! [`compare`] judges outputs like the benchmarks do, [`oracle`] learns a readable bug
//! formula from labelled tests, [`active`] runs the Learn2fix loop, [`session`] records,
//! shares and replays a playground session, and [`corpus`] reads benchmark subjects. The core does
//! no I/O, never reads a clock and never panics on user input.

pub mod active;
pub mod compare;
pub mod corpus;
pub mod excerpt;
pub mod exercise;
pub mod fingerprint;
pub mod fuzzing;
pub mod lang;
pub mod oracle;
pub mod page;
pub mod repair;
pub mod session;

#[cfg(target_arch = "wasm32")]
pub mod web;

/// The allocator of every wasm32 build (the page, its worker, the wasm benchmarks and
/// tests): talc, which is faster than Rust's default wasm allocator on the learner's
/// many small allocations.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
