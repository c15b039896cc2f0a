// End-to-end: the page loads under its CSP with no inline script, shows parse errors on Start, and works at phone width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { serveDist, launchBrowser, screenshots } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('loads under the CSP, measures load-to-interactive, and makes no request after load', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = [];
  page.on('console', (m) => { if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text()); });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready-ms]');
  const ms = Number(await page.getAttribute('html', 'data-ready-ms'));
  console.log(`load-to-interactive: ${ms.toFixed(0)} ms (performance.now() when the app first rendered)`);
  assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script');
  assert.match(await page.getAttribute('meta[http-equiv=Content-Security-Policy]', 'content'), /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(await page.getByLabel('Program').inputValue(), /scanf/);
  // Let the worker start and the service worker cache the files, then do real work: no
  // request may leave the page.
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 20000 });
  await page.waitForTimeout(1000);
  const before = requests.length;
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('.query[data-query-input], [data-testid=finished]').first().waitFor({ timeout: 60000 });
  await page.getByRole('button', { name: 'Not a bug' }).click();
  await page.locator('[data-testid=budget]', { hasText: 'Labels used: 1 of' }).waitFor({ timeout: 60000 });
  assert.deepEqual(requests.slice(before), [], 'no network request after load');
  assert.deepEqual(violations, [], 'no CSP violation');
  await page.screenshot({ path: join(screenshots, 'csp-loaded.png'), fullPage: true });
  await context.close();
});

test('the wasm the page loads is at most 1.5 MB gzipped', async () => {
  const dist = new URL('../../dist/', import.meta.url).pathname;
  let total = 0;
  for (const name of (await readdir(dist)).filter((n) => n.endsWith('.wasm'))) {
    const bytes = await readFile(join(dist, name));
    const gz = gzipSync(bytes, { level: 9 }).length;
    total += gz;
    console.log(`${name}: ${bytes.length} bytes, ${gz} gzipped`);
  }
  console.log(`all wasm (page + worker): ${total} bytes gzipped`);
  assert.ok(total > 0 && total <= 1.5 * 1024 * 1024, `${total} bytes gzipped`);
});

test('after the first load the page works offline (service worker)', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready-ms]');
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 20000 });
  await page.waitForTimeout(1000); // let the worker's files reach the cache
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('html[data-ready-ms]', { timeout: 20000 });
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('.query[data-query-input]').waitFor({ timeout: 60000 });
  await page.screenshot({ path: join(screenshots, 'offline.png'), fullPage: true });
  await context.close();
});

test('a parse error on Start is shown with its line, and the session does not start', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').fill('int main(void) {\n  int x = 1\n  return x;\n}\n');
  await page.getByRole('button', { name: 'Start' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /2:\d+/);
  assert.equal(await page.getByRole('button', { name: 'Start' }).count(), 1, 'still editing');
  // The gutter marks the line too, with the message on hover.
  assert.match(await page.locator('.gutter-line.has-error').first().getAttribute('title'), /error/);
  await page.screenshot({ path: join(screenshots, 'parse-error.png'), fullPage: true });
  await page.close();
});

test('Start checks what was typed: an input that already gives the expected output, too few numbers, a program that reads nothing; an example\'s fields leave with it', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  const refused = async (pattern) => {
    await page.getByRole('button', { name: 'Start' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), pattern);
    assert.equal(await page.getByRole('button', { name: 'Start' }).count(), 1, 'still editing');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
  };
  await page.getByRole('button', { name: 'Sum 1..n (loop)' }).click();
  await page.getByLabel('Failing input').fill('1');
  await page.getByLabel('Expected output (optional)').fill('0');
  await refused(/already prints the expected output "0"/);
  await page.getByRole('button', { name: 'Triangle (Learn2fix)' }).click();
  await page.getByLabel('Failing input').fill('2 2');
  await refused(/reads at least 3 numbers, but the failing input has 2/);
  // A pasted program does not inherit the example's expected output or its mark.
  assert.equal(await page.getByLabel('Expected output (optional)').inputValue(), 'equilateral');
  await page.getByLabel('Program').fill('#include <stdio.h>\nint main(void) {\n    printf("7\\n");\n    return 0;\n}\n');
  assert.equal(await page.getByLabel('Expected output (optional)').inputValue(), '', 'the example\'s expected output went with it');
  assert.equal(await page.locator('.gallery button.example.current').count(), 0, 'no example is marked');
  await refused(/reads no input/);
  await page.close();
});

test('phone width: no horizontal scrolling, every control reachable', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the phone`);
  await page.getByRole('button', { name: 'Start' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'phone-dark.png'), fullPage: true });
  await context.close();
});

test('first screen at 1280x800: the editor, the failing input and Start are visible; after Start the question is in view with its first answer focused', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Triangle (Learn2fix)' }).click();
  const inView = async (locator, what) => {
    const box = await locator.boundingBox();
    assert.ok(box, `${what} is laid out`);
    assert.ok(box.y >= 0 && box.y + box.height <= 800 && box.x + box.width <= 1280, `${what} at ${JSON.stringify(box)}`);
  };
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await inView(page.getByLabel('Program'), 'the editor');
  await inView(page.getByLabel('Failing input'), 'the failing input');
  await inView(page.getByRole('button', { name: 'Start' }), 'Start');
  await page.screenshot({ path: join(screenshots, 'first-screen.png') });
  await page.getByRole('button', { name: 'Start' }).click();
  const bug = page.locator('.query button.bug');
  await bug.waitFor({ timeout: 90000 });
  await page.waitForFunction(() => document.activeElement?.matches('.query button.bug'), null, { timeout: 10000 });
  // Read without scrolling by hand: whatever the page scrolled to, the answers are on screen.
  await inView(bug, 'Bug');
  await inView(page.getByRole('button', { name: 'Not a bug' }), 'Not a bug');
  assert.ok(await page.locator('.query').evaluate((q) => q.closest('[aria-live]') !== null || q.getAttribute('aria-live') !== null), 'the question is announced');
  // The next question after an answer takes the focus too.
  const first = await page.locator('.query').getAttribute('data-query-input');
  await page.keyboard.press('n');
  await page.waitForFunction((was) => {
    const q = document.querySelector('.query[data-query-input]');
    return q && q.getAttribute('data-query-input') !== was && document.activeElement?.matches('.query button.bug');
  }, first, { timeout: 90000 });
  await page.screenshot({ path: join(screenshots, 'first-question.png') });
  await context.close();
});

test('a failing input that runs past the step limit is said before the first answer, and a timeout shows as its own kind of run', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').fill('#include <stdio.h>\nint main(void) {\n    int n;\n    scanf("%d", &n);\n    while (n != 0)\n        n = n - 2;\n    printf("done\\n");\n    return 0;\n}\n');
  await page.getByLabel('Failing input').fill('5');
  await page.getByRole('button', { name: 'Start' }).click();
  const warning = page.getByTestId('failing-warning');
  await warning.waitFor({ timeout: 90000 });
  assert.match(await warning.textContent(), /failing input 5 the program ran past the step limit \([\d ,]+ steps\)/);
  const runs = [];
  for (let i = 0; i < 4 && (await page.locator('.query[data-query-input]').count()); i++) {
    const q = page.locator('.query[data-query-input]');
    const input = await q.getAttribute('data-query-input');
    runs.push([input, await q.locator('dd').nth(2).textContent()]);
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.waitForFunction((was) => document.querySelector('.query[data-query-input]')?.getAttribute('data-query-input') !== was, input, { timeout: 90000 });
  }
  // Odd inputs loop for ever, even ones end: each question says which.
  for (const [input, run] of runs) {
    const odd = Math.abs(Number(input)) % 2 === 1;
    assert.equal(run, odd ? 'timeout (stopped at the step limit)' : 'normal exit', `${input}: ${run}`);
  }
  await page.screenshot({ path: join(screenshots, 'failing-timeout.png'), fullPage: true });
  await page.close();
});
