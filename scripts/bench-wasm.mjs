// The learner's benchmark workloads (src/oracle/workloads.rs) in wasm32 with the build
// profile of the page's worker, where the learner runs (cargo profile release-wasm, which
// the page shares, wasm-bindgen, wasm-opt -O3 as Trunk runs it for the worker; WASM_OPT=-Os
// gives the page's own wasm-opt level),
// timed in node and in headless Chromium, beside native thread CPU (`fixloop bench learn`).
// Wasm figures: in node the process's CPU time (process.cpuUsage(), microseconds; node
// runs the wasm on one thread), in Chromium the page's clock (performance.now(), wall
// time: a page has no CPU clock; the page is cross-origin isolated, so the clock has
// microsecond resolution, and the machine's load inflates it); each call is timed
// `repeat` times and its median kept, after one untimed pass over the same workloads (V8
// compiles wasm first with its baseline compiler and optimises hot functions later, so
// a cold first pass would time the tier-up; the page's first question is timed by the
// e2e latency test instead); per workload: median and p95 over its calls.
// Usage: source scripts/env.sh; node scripts/bench-wasm.mjs [repeat=5] [only=]
//   (needs the native tool: cargo build --release; FIXLOOP=path names another build, and
//   CARGO_TARGET_DIR is honoured)
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchBrowser } from '../tests/e2e/harness.mjs';

const root = new URL('../', import.meta.url).pathname;
const repeat = Number(process.argv[2] ?? 5);
const only = process.argv[3] ?? '';
const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const out = join(target, 'bench-wasm');
const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 }).toString();

const profile = process.env.PROFILE ?? 'release-wasm';
const optLevel = process.env.WASM_OPT ?? '-O3';
run('cargo', ['build', '--profile', profile, '--target', 'wasm32-unknown-unknown', '--example', 'learn_bench_wasm']);
await mkdir(out, { recursive: true });
await writeFile(join(out, 'package.json'), '{"type":"module"}');
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', out, join(target, `wasm32-unknown-unknown/${profile}/examples/learn_bench_wasm.wasm`)]);
const wasm = join(out, 'learn_bench_wasm_bg.wasm');
run('wasm-opt', [optLevel, '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue', wasm, '-o', wasm]);

console.log(`load average before: ${await loadavg()}`);
const native = JSON.parse(run(process.env.FIXLOOP ?? join(target, 'release/fixloop'), ['bench', 'learn', '--json', '--repeat', String(repeat), ...(only ? ['--only', only] : [])]));

// node
globalThis.benchClock = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const glue = await import(join(out, 'learn_bench_wasm.js'));
glue.initSync({ module: await readFile(wasm) });
glue.run_workloads(1, only); // warm-up: V8 runs wasm in its baseline tier until hot functions are optimised
const inNode = JSON.parse(glue.run_workloads(repeat, only));

// Chromium: the same files from a cross-origin-isolated page.
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import init, { run_workloads } from './learn_bench_wasm.js';
globalThis.benchClock = () => performance.now();
await init();
run_workloads(1, ${JSON.stringify(only)}); // warm-up, as in node
window.result = run_workloads(${repeat}, ${JSON.stringify(only)});
</script>`;
await writeFile(join(out, 'index.html'), page);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer(async (req, res) => {
  const name = new URL(req.url, 'http://x').pathname.slice(1) || 'index.html';
  try {
    const body = await readFile(join(out, name.replace(/\.\.+/g, '')));
    res.writeHead(200, {
      'content-type': types[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await launchBrowser();
const tab = await browser.newPage();
await tab.goto(`http://127.0.0.1:${server.address().port}/`);
await tab.waitForFunction(() => window.result !== undefined, null, { timeout: 600000 });
const isolated = await tab.evaluate(() => crossOriginIsolated);
const inChromium = JSON.parse(await tab.evaluate(() => window.result));
await browser.close();
server.close();
console.log(`load average after: ${await loadavg()}; Chromium page cross-origin isolated: ${isolated}`);

const quantile = (v, q) => { const s = [...v].sort((a, b) => a - b); return s[Math.round((s.length - 1) * q)]; };
const byWorkload = (calls, key) => {
  const m = new Map();
  for (const c of calls) { if (!m.has(c.workload)) m.set(c.workload, []); m.get(c.workload).push(c[key]); }
  return m;
};
const nat = byWorkload(native.calls, 'cpu_ms');
const nod = byWorkload(inNode, 'ms');
const chr = byWorkload(inChromium, 'ms');
const same = (a, b) => a.filter((c, i) => c.formula === b[i]?.formula).length;
console.log(`formulas equal to native: node ${same(native.calls, inNode)} of ${native.calls.length}, Chromium ${same(native.calls, inChromium)} of ${native.calls.length}`);
const f = (x) => x.toFixed(3).padStart(8);
const r = (x) => `${x.toFixed(2)}x`.padStart(7);
console.log(`${'workload (ms per call)'.padEnd(52)} ${'native p50'.padStart(10)} ${'p95'.padStart(8)} | ${'node p50'.padStart(8)} ${'p95'.padStart(8)} ${'ratio'.padStart(7)} | ${'chrom p50'.padStart(9)} ${'p95'.padStart(8)} ${'ratio'.padStart(7)}`);
const rows = [];
for (const [w, ms] of nat) {
  const [n50, n95] = [quantile(ms, 0.5), quantile(ms, 0.95)];
  const [d50, d95] = [quantile(nod.get(w), 0.5), quantile(nod.get(w), 0.95)];
  const [c50, c95] = [quantile(chr.get(w), 0.5), quantile(chr.get(w), 0.95)];
  rows.push({ workload: w, native: [n50, n95], node: [d50, d95], chromium: [c50, c95] });
  console.log(`${w.padEnd(52)} ${f(n50).padStart(10)} ${f(n95)} | ${f(d50)} ${f(d95)} ${r(d50 / n50)} | ${f(c50).padStart(9)} ${f(c95)} ${r(c50 / n50)}`);
}
await writeFile(join(out, 'result.json'), JSON.stringify({ repeat, rows }, null, 1));
