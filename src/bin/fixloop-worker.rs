//! The playground's Web Worker entry point: active-loop compute (and repair) off the page's thread (wasm32 only).

#[cfg(target_arch = "wasm32")]
fn main() {
    fixloop::web::worker::serve();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fixloop-worker is the playground's Web Worker; trunk builds it (see README.md)");
}
