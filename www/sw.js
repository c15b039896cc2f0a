// Offline support. On install it caches the page and every file the page names (the
// hashed module and wasm from the script tag, the stylesheet) plus the worker's files;
// then requests go to the network first (a new build is picked up at once) and fall
// back to the cached copy when the network fails. Only same-origin GETs are touched.
const CACHE = 'fixloop-v1';
const WORKER_FILES = ['./fixloop-worker_loader.js', './fixloop-worker.js', './fixloop-worker_bg.wasm', './boot.js'];

async function precache() {
  const cache = await caches.open(CACHE);
  const page = await fetch('./', { cache: 'no-store' });
  const html = await page.clone().text();
  await cache.put('./', page);
  const named = [...html.matchAll(/(?:href|src|data-js|data-wasm)="([^"]+)"/g)]
    .map((m) => m[1])
    .filter((u) => !u.startsWith('data:') && !u.startsWith('http'));
  // One entry per URL ('/boot.js' and './boot.js' are the same request).
  const urls = [...named, ...WORKER_FILES].map((u) => new URL(u, self.location.href).href);
  await cache.addAll([...new Set(urls)]);
}

self.addEventListener('install', (event) => event.waitUntil(precache().then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request, { ignoreSearch: true }).then((hit) => hit ?? Response.error())),
  );
});
