// Starts the playground from a file, not an inline script, so the page's CSP can forbid
// inline code. Trunk writes the hashed module and wasm names into this tag's data-*
// attributes (Trunk.toml: pattern_script).
const tag = document.querySelector('script[data-js][data-wasm]');
// Fetch and compile the wasm while the JS module loads: streaming compilation starts on
// the first bytes instead of after the module's import. Where that is not possible (no
// compileStreaming, or a server that does not send application/wasm) the loader fetches
// the file itself as before.
const wasm = tag.dataset.wasm;
const compiled = typeof WebAssembly.compileStreaming === 'function'
  ? WebAssembly.compileStreaming(fetch(wasm)).catch(() => wasm)
  : Promise.resolve(wasm);
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: await compiled });
// Offline after the first visit: a service worker serves the last fetched copy of each
// file when the network is gone.
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('./sw.js').catch(() => {});
}
