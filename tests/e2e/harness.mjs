// Shared end-to-end harness: serves dist/ (or any built folder, under any path prefix) on 127.0.0.1 and drives Debian's Chromium with playwright-core.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const root = new URL('../../', import.meta.url).pathname;
const dist = join(root, 'dist');
export const screenshots = join(root, 'tests/e2e/screenshots');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

/**
 * Serves a built folder (dist/ unless `root` is given) on a free loopback port under the
 * path `prefix` (default '/'; e.g. '/course/fixloop/' as a static host's sub-path):
 * everything outside the prefix is 404, the prefix without its slash redirects as a web
 * server does for a folder. Resolves to { url, close }, url ending in the prefix.
 */
export async function serveDist({ root: folder = dist, prefix = '/' } = {}) {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new Error(`prefix ${prefix} must start and end with /`);
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pathname === prefix.slice(0, -1) && prefix !== '/') { res.writeHead(301, { location: prefix }).end(); return; }
    if (!pathname.startsWith(prefix)) { res.writeHead(404).end('not found'); return; }
    const path = normalize('/' + pathname.slice(prefix.length));
    const file = join(folder, path.endsWith('/') ? join(path, 'index.html') : path);
    if (!file.startsWith(folder)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => server.close(r)) };
}

const walkthrough = join(root, 'docs/walkthrough');

/**
 * Screenshots one step of the docs walkthrough (docs/walkthrough.md) at desktop width
 * (1280x800) and phone width (390x844), with `focus` (a locator) scrolled into view; the
 * page is left at desktop width.
 */
export async function walkthroughShot(page, name, focus) {
  await mkdir(walkthrough, { recursive: true });
  for (const [width, height, kind] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
    await page.setViewportSize({ width, height });
    if (focus) await focus.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(walkthrough, `${name}-${kind}.jpg`), type: 'jpeg', quality: 70 });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Launches headless Chromium with the flags this closed network needs. */
export async function launchBrowser() {
  await mkdir(screenshots, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** The Learn2fix triangle program (the bug: `a == b == c`). */
export const TRIANGLE = `#include <stdio.h>

int main(void) {
    int a, b, c;
    scanf("%d %d %d", &a, &b, &c);
    if (a <= 0 || b <= 0 || c <= 0 || a >= b + c || b >= a + c || c >= a + b)
        printf("invalid\\n");
    else if (a == b == c)
        printf("equilateral\\n");
    else if (a == b || b == c || a == c)
        printf("isosceles\\n");
    else
        printf("scalene\\n");
    return 0;
}
`;

/** The correct triangle classifier (the preloaded example's and TRIANGLE's fix), from a query's input text. */
export function triangle(input) {
  const [a, b, c] = input.trim().split(/\s+/).map(Number);
  if (a <= 0 || b <= 0 || c <= 0 || a >= b + c || b >= a + c || c >= a + b) return 'invalid';
  if (a === b && b === c) return 'equilateral';
  if (a === b || b === c || a === c) return 'isosceles';
  return 'scalene';
}

/** How long one step of the loop (a worker answer) may take on a busy machine. */
export const STEP = 90000;

/** The "Labels used" count on the page. */
export async function labelsUsed(page) {
  const text = await page.getByTestId('budget').textContent();
  return Number(/Labels used: (\d+)/.exec(text)[1]);
}

/** Waits for a question or the end; returns the query's input or null when finished. */
export async function nextQuery(page) {
  await page.locator('.query[data-query-input], [data-testid=finished]').first().waitFor({ timeout: STEP });
  const q = page.locator('.query[data-query-input]');
  return (await q.count()) ? q.getAttribute('data-query-input') : null;
}

/** Presses Start when the page waits for it (a student's exercise does), once the page shows either Start or a question. */
export async function startIfWaiting(page) {
  const start = page.getByRole('button', { name: 'Start', exact: true });
  await start.or(page.locator('.query[data-query-input], [data-testid=finished]')).first().waitFor({ timeout: STEP });
  if (await start.count()) await start.click();
}

/** Waits until the page shows `n` labels used and no work in progress. */
export async function waitForLabels(page, n) {
  await page.waitForFunction((n) => {
    const m = /Labels used: (\d+)/.exec(document.querySelector('[data-testid=budget]')?.textContent ?? '');
    return m && Number(m[1]) === n && !document.querySelector('.working');
  }, n, { timeout: STEP });
}

/** Answers the pending question with the correct program `correct` (input text -> output). */
export async function answer(page, correct) {
  const q = page.locator('.query[data-query-input]');
  const input = await q.getAttribute('data-query-input');
  const output = (await q.getAttribute('data-query-output')).trim();
  const used = await labelsUsed(page);
  const right = correct(input);
  if (output !== right) {
    await page.getByLabel('Correct output (optional, for Bug)').fill(right);
    await page.getByRole('button', { name: 'Bug', exact: true }).click();
  } else {
    await page.getByRole('button', { name: 'Not a bug' }).click();
  }
  await waitForLabels(page, used + 1);
}

/**
 * Answers the pending question as a person does: Bug or Not a bug by the correct program
 * `correct` (input text -> output), never typing an output.
 */
export async function answerAsPerson(page, correct) {
  const q = page.locator('.query[data-query-input]');
  const input = await q.getAttribute('data-query-input');
  const output = (await q.getAttribute('data-query-output')).trim();
  const used = await labelsUsed(page);
  const name = output !== correct(input) ? 'Bug' : 'Not a bug';
  await page.getByRole('button', { name, exact: true }).click();
  await waitForLabels(page, used + 1);
}

/** Waits for repair to end; returns the pending question about patches (its input and kind), or null. */
export async function nextChoice(page) {
  await page.waitForFunction(() => !document.querySelector('.repair-progress')
    && (document.querySelector('.query.choice') || document.querySelector('[data-testid=verdict]')), null, { timeout: 120000 });
  const q = page.locator('.query.choice');
  if (!(await q.count())) return null;
  return { input: await q.getAttribute('data-choice-input'), kind: await q.getAttribute('data-choice-kind') };
}

/**
 * Answers the pending question about patches with the right output `right(input)`: a
 * patch's option when one prints it, else typed (for a question about a run called a bug,
 * into the field the page filled with what the program printed). Resolves to the input.
 */
export async function answerChoice(page, right) {
  const q = page.locator('.query.choice');
  const input = await q.getAttribute('data-choice-input');
  const want = right(input);
  const outputs = await q.locator('button.option').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-output').trim()));
  const at = outputs.indexOf(want);
  if (at >= 0) {
    await q.locator('button.option').nth(at).click();
  } else if ((await q.getAttribute('data-choice-kind')) === 'output') {
    await page.getByLabel('What it should print').fill(want);
    await page.getByRole('button', { name: 'This is the right output' }).click();
  } else {
    await page.getByLabel('None of these: the right output is').fill(want);
    await page.getByRole('button', { name: 'None of these' }).click();
  }
  // The question goes (repair runs again) or is replaced by the next one.
  await page.waitForFunction((asked) => {
    const now = document.querySelector('.query.choice');
    return !now || now.getAttribute('data-choice-input') !== asked;
  }, input, { timeout: STEP });
  return input;
}

/** Every saved session in the page's localStorage, by key. */
export async function savedSessions(page) {
  return page.evaluate(() => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith('fixloop-session-')).map((k) => [k, localStorage.getItem(k)])));
}

/** A program whose every run takes ~10^6 steps, so a repair runs for a long time. */
export const SLOW = `#include <stdio.h>

int main(void) {
    int n, i;
    long long s = 0;
    scanf("%d", &n);
    for (i = 0; i < 100000; i++)
        s = s + i % 7;
    if (n > 3)
        printf("%lld\\n", s + n);
    else
        printf("%lld\\n", s);
    return 0;
}
`;

/** The correct output of SLOW: the loop's sum plus n, for every n. */
export function slowSum(input) {
  let s = 0;
  for (let i = 0; i < 100000; i++) s += i % 7;
  return String(s + Number(input.trim()));
}

/**
 * Opens the page at `url`, labels SLOW from input 2 (its expected output given) with a
 * budget of 3 (answers from `slowSum`) and returns the labels used: a session whose
 * repair runs long enough to stop or kill mid-way.
 */
export async function labelSlowSession(page, url) {
  await page.goto(url);
  await page.getByLabel('Program').fill(SLOW);
  await page.getByLabel('Failing input').fill('2');
  // The expected output given, so repair searches at once (without it, it would first
  // ask what 2 should print).
  await page.getByLabel('Expected output (optional)').fill(slowSum('2'));
  await page.getByLabel('Label budget').fill('3');
  await page.getByRole('button', { name: 'Start' }).click();
  while (await nextQuery(page)) await answer(page, slowSum);
  return labelsUsed(page);
}
