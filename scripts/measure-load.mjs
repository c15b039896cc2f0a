// Measures the playground's load to interactive: N cold loads (a fresh browser context
// each, so no HTTP cache and no service worker) and N warm reloads, in headless Chromium
// against dist/ served on 127.0.0.1. "Interactive" is the page's own mark: data-ready-ms
// on <html>, performance.now() when the app's first render effect ran (handlers attached).
// Prints every run, p50 and max, and the machine's load average before and after.
// Usage: node scripts/measure-load.mjs [runs=15]   (build first: trunk build --release)
import { readFile } from 'node:fs/promises';
import { serveDist, launchBrowser } from '../tests/e2e/harness.mjs';

const runs = Number(process.argv[2] ?? 15);
const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');

function summary(name, ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const p50 = sorted[Math.floor((sorted.length - 1) / 2)];
  console.log(`${name}: p50 ${p50.toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms over ${ms.length} runs [${ms.map((m) => m.toFixed(0)).join(', ')}]`);
}

async function readyMs(page) {
  await page.waitForSelector('html[data-ready-ms]', { timeout: 60000 });
  return Number(await page.getAttribute('html', 'data-ready-ms'));
}

const server = await serveDist();
const browser = await launchBrowser();
console.log(`load average before: ${await loadavg()}`);
const cold = [];
const warm = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  cold.push(await readyMs(page));
  await page.reload();
  warm.push(await readyMs(page));
  await context.close();
}
summary('cold load (fresh context)', cold);
summary('warm reload (HTTP cache)', warm);
console.log(`load average after: ${await loadavg()}`);
await browser.close();
await server.close();
