// End-to-end: how long the page keeps a person waiting - from Start to the first question, and from each answer to the next question - on the triangle and two IntroClass programs (printed, p50 / p95 / max).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, launchBrowser, nextQuery, answer, TRIANGLE } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** C's int from a scanf'd decimal: strtol saturates at 64 bits, the store keeps 32. */
const cInt = (text) => {
  let v = BigInt(text);
  const max = (1n << 63n) - 1n;
  v = v > max ? max : v < -max - 1n ? -max - 1n : v;
  return BigInt.asIntN(32, v);
};
const ints = (input) => input.trim().split(/\s+/).map(cInt);
/** C's int addition (wraps at 32 bits, as the VM does). */
const add = (a, b) => BigInt.asIntN(32, a + b);

/** The correct triangle classifier on the query's input. */
function triangle(input) {
  const [a, b, c] = ints(input);
  if (a <= 0n || b <= 0n || c <= 0n || a >= add(b, c) || b >= add(a, c) || c >= add(a, b)) return 'invalid';
  if (a === b && b === c) return 'equilateral';
  if (a === b || b === c || a === c) return 'isosceles';
  return 'scalene';
}

/** The golden IntroClass `median` (introclass-median-0cdfa335eea3-002). */
function median(input) {
  const [a, b, c] = ints(input);
  const m = [a, b, c].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))[1];
  return `Please enter 3 numbers separated by spaces > ${m} is the median`;
}

/** The golden IntroClass `smallest` (introclass-smallest-15cb07a72bc4-002). */
function smallest(input) {
  const m = ints(input).reduce((x, y) => (y < x ? y : x));
  return `Please enter 4 numbers separated by spaces > ${m} is the smallest`;
}

const corpus = async (id) => JSON.parse(await readFile(new URL(`../../../shared/benchmarks/introclass/${id}.json`, import.meta.url), 'utf8')).buggy;

/**
 * Records, in the page, when a question (or the end) is first in the DOM after a click on
 * Start, Bug or Not a bug: `window.__latency` = [{ after, ms }].
 */
function recordLatency() {
  const out = [];
  window.__latency = out;
  let pending = null;
  const used = () => Number(/Labels used: (\d+)/.exec(document.querySelector('[data-testid=budget]')?.textContent ?? '')?.[1] ?? -1);
  document.addEventListener('click', (e) => {
    const name = e.target.closest?.('button')?.textContent.trim();
    if (name === 'Start' || name === 'Bug' || name === 'Not a bug') pending = { name, t: performance.now(), used: name === 'Start' ? -1 : used() };
  }, true);
  const check = () => {
    if (!pending) return;
    const shown = document.querySelector('.query[data-query-input]') && !document.querySelector('.working');
    const done = document.querySelector('[data-testid=finished]');
    const counted = pending.used < 0 || used() === pending.used + 1;
    if ((shown || done) && counted) {
      out.push({ after: pending.name, ms: performance.now() - pending.t });
      pending = null;
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

const quantile = (v, q) => { const s = [...v].sort((a, b) => a - b); return s[Math.round((s.length - 1) * q)]; };
const show = (v) => `p50 ${quantile(v, 0.5).toFixed(0)} ms, p95 ${quantile(v, 0.95).toFixed(0)} ms, max ${Math.max(...v).toFixed(0)} ms (${v.length})`;
const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');

const runs = [
  { name: 'triangle', program: () => TRIANGLE, failing: '2 2 2', correct: triangle },
  { name: 'introclass median', program: () => corpus('introclass-median-0cdfa335eea3-002'), failing: '6 2 8', correct: median },
  { name: 'introclass smallest', program: () => corpus('introclass-smallest-15cb07a72bc4-002'), failing: '2 2 2 3', correct: smallest },
];

test('answer to next question and Start to first question, 20 labels each (printed)', async () => {
  const all = [];
  const firsts = [];
  console.log(`load average before: ${await loadavg()}`);
  for (const r of runs) {
    const context = await browser.newContext();
    await context.addInitScript(recordLatency);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('html[data-ready-ms]');
    await page.getByLabel('Program').fill(await r.program());
    await page.getByLabel('Failing input').fill(r.failing);
    await page.getByLabel('Label budget').fill('20');
    await page.getByRole('button', { name: 'Start' }).click();
    let answered = 0;
    while (await nextQuery(page)) {
      await answer(page, r.correct);
      answered += 1;
    }
    const lat = await page.evaluate(() => window.__latency);
    await context.close();
    const first = lat.filter((l) => l.after === 'Start').map((l) => l.ms);
    const next = lat.filter((l) => l.after !== 'Start').map((l) => l.ms);
    assert.equal(first.length, 1, `${r.name}: one first question`);
    assert.equal(next.length, answered, `${r.name}: a next step after every answer`);
    console.log(`${r.name}: first question after Start ${first[0].toFixed(0)} ms; answer to next question ${show(next)}`);
    firsts.push(...first);
    all.push(...next);
  }
  console.log(`all three: answer to next question ${show(all)}; first question after Start ${show(firsts)}`);
  console.log(`load average after: ${await loadavg()}`);
});
