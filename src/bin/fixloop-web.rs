//! The playground's entry point: mounts the web app (wasm32 only; a no-op natively).

#[cfg(target_arch = "wasm32")]
fn main() {
    fixloop::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fixloop-web is the browser playground; build it with trunk (see README.md)");
}
