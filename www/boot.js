// Starts the playground from a file, not an inline script, so the page's CSP can forbid
// inline code. Trunk writes the hashed module and wasm names into this tag's data-*
// attributes (Trunk.toml: pattern_script).
const tag = document.querySelector('script[data-js][data-wasm]');
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
// Offline after the first visit: a service worker serves the last fetched copy of each
// file when the network is gone.
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('./sw.js').catch(() => {});
}
