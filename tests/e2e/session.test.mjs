// End-to-end: the whole loop on the triangle program, reload mid-session, share and replay, hostile links.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { serveDist, launchBrowser, screenshots, STEP, labelsUsed, nextQuery, answer, savedSessions, labelSlowSession, TRIANGLE, triangle } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The correct "sum 1..n". */
function sumToN(input) {
  const n = Number(input.trim());
  return String(n >= 1 ? (n * (n + 1)) / 2 : 0);
}

let shareUrl, finalFormula, finalPoints;

test('triangle: label with the correct classifier, reload mid-session, learn an oracle, share and replay', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').fill(TRIANGLE);
  await page.getByLabel('Failing input').fill('2 2 2');
  await page.getByLabel('Label budget').fill('6');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('region', { name: 'Oracle' }).waitFor({ timeout: STEP });
  let asked = 0;
  let beforeReload = null;
  while (await nextQuery(page)) {
    if (asked === 3 && !beforeReload) {
      beforeReload = { query: await page.locator('.query').getAttribute('data-query-input'), used: await labelsUsed(page) };
      // A correct output half typed when the page reloads is still there after it.
      await page.getByLabel('Correct output (optional, for Bug)').fill('equi');
      await page.screenshot({ path: join(screenshots, 'before-reload.png'), fullPage: true });
      await page.reload();
      const q = await nextQuery(page);
      assert.equal(q, beforeReload.query, 'the same question after reload');
      assert.equal(await labelsUsed(page), beforeReload.used, 'no label lost on reload');
      assert.equal(await page.getByLabel('Correct output (optional, for Bug)').inputValue(), 'equi', 'the half-typed output is kept');
    }
    await answer(page, triangle);
    asked += 1;
  }
  assert.ok(beforeReload, 'the session was long enough to reload mid-way');
  assert.equal(await labelsUsed(page), 6);
  const oracle = page.getByRole('region', { name: 'Oracle' });
  finalFormula = (await oracle.getByTestId('formula').textContent()).trim();
  assert.ok(finalFormula.length > 0 && !finalFormula.startsWith('(no formula'), finalFormula);
  assert.ok(await oracle.locator('svg .pt').count() >= 7, 'the plot shows every labelled test');
  finalPoints = await oracle.locator('svg .pt title').allTextContents();
  await page.screenshot({ path: join(screenshots, 'oracle.png'), fullPage: true });

  await page.getByRole('button', { name: 'Share' }).click();
  shareUrl = await page.locator('[data-share-url]').getAttribute('data-share-url');
  assert.match(shareUrl, /#s=[A-Za-z0-9_-]+$/);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(shareUrl);
  const otherOracle = other.getByRole('region', { name: 'Oracle' });
  await otherOracle.getByTestId('formula').waitFor({ timeout: STEP });
  await other.locator('[data-testid=finished]').waitFor({ timeout: STEP });
  assert.equal((await otherOracle.getByTestId('formula').textContent()).trim(), finalFormula);
  assert.deepEqual(await otherOracle.locator('svg .pt title').allTextContents(), finalPoints);
  assert.equal(await other.getByLabel('Program').inputValue(), TRIANGLE);
  await other.screenshot({ path: join(screenshots, 'shared.png'), fullPage: true });
  await fresh.close();

  // Repair the triangle from these labels: a patch that passes every labelled test.
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  const first = patches.locator('.patch').first();
  await first.waitFor({ timeout: 120000 });
  assert.equal(await first.getAttribute('data-passed'), await first.getAttribute('data-total'), 'the triangle patch passes every labelled test');
  await page.screenshot({ path: join(screenshots, 'triangle-patch.png'), fullPage: true });
  await context.close();
});

function b64url(buf) { return Buffer.from(buf).toString('base64url'); }
const pack = (text) => b64url(deflateRawSync(Buffer.from(text)));

const HOSTILE = {
  'bad base64': '!!!*not base64*',
  'bad deflate': b64url(Buffer.from('this is not a deflate stream at all')),
  'decompression bomb': b64url(deflateRawSync(Buffer.alloc(32 << 20, 32), { level: 9 })),
  'wrong types': pack(JSON.stringify({ version: 1, program: 5, failing_input: [1], settings: 'x' })),
  'huge arrays': pack(JSON.stringify({ version: 1, program: '', failing_input: '1', settings: { label_budget: 5, committee: 5, seed: 1 }, started: true, ranges: Array(20000).fill(null) })),
  'newer version': pack(JSON.stringify({ version: 999 })),
};

/** A fresh tab with the median example started: the page, its saved sessions and program. */
async function startedMedian() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Median of three' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await nextQuery(page);
  const saved = await savedSessions(page);
  assert.equal(Object.keys(saved).length, 1);
  const program = await page.getByLabel('Program').inputValue();
  return { context, page, saved, program };
}

test('hostile links show an alert and never touch the saved session; a good link asks first', async () => {
  const { context, page, saved, program } = await startedMedian();
  for (const [name, fragment] of Object.entries(HOSTILE)) {
    await page.goto('about:blank');
    const started = Date.now();
    await page.goto(`${server.url}#s=${fragment}`);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20000 });
    assert.match(await alert.textContent(), /cannot be opened/, name);
    assert.ok(Date.now() - started < 20000, `${name}: answered quickly`);
    assert.equal(await page.getByLabel('Program').inputValue(), program, `${name}: the program is kept`);
    assert.deepEqual(await savedSessions(page), saved, `${name}: the saved session is untouched`);
    await page.screenshot({ path: join(screenshots, `hostile-${name.replace(/ /g, '-')}.png`) });
  }
  // A valid link for another session: the page asks, and "Keep my session" keeps it.
  assert.ok(shareUrl, 'the share test ran first');
  await page.goto('about:blank');
  await page.goto(shareUrl);
  await page.getByRole('dialog', { name: 'Open shared session' }).waitFor();
  await page.getByRole('button', { name: 'Keep my session' }).click();
  assert.equal(await page.getByLabel('Program').inputValue(), program);
  assert.deepEqual(await savedSessions(page), saved);
  await context.close();
});

test('a link pasted into the open tab is handled as a fresh load: an alert for a bad one, a question for a good one', async () => {
  const { context, page, saved, program } = await startedMedian();
  for (const name of ['bad base64', 'wrong types', 'newer version']) {
    // Pasting into the address bar of an open tab changes only the fragment: no load.
    await page.evaluate((f) => { window.location.hash = `s=${f}`; }, HOSTILE[name]);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20000 });
    assert.match(await alert.textContent(), /cannot be opened/, name);
    assert.equal(await page.getByLabel('Program').inputValue(), program, `${name}: the program is kept`);
    assert.deepEqual(await savedSessions(page), saved, `${name}: the saved session is untouched`);
    await alert.getByRole('button').first().click();
  }
  assert.ok(shareUrl, 'the share test ran first');
  await page.evaluate((url) => { window.location.hash = new URL(url).hash; }, shareUrl);
  await page.getByRole('dialog', { name: 'Open shared session' }).waitFor({ timeout: 20000 });
  await page.screenshot({ path: join(screenshots, 'pasted-link.png') });
  await page.getByRole('button', { name: 'Keep my session' }).click();
  assert.equal(await page.getByLabel('Program').inputValue(), program);
  assert.deepEqual(await savedSessions(page), saved);
  // Pasted again and accepted, it opens the shared triangle session.
  await page.evaluate((url) => { window.location.hash = new URL(url).hash; }, shareUrl);
  await page.getByRole('button', { name: 'Open link' }).click();
  assert.match(await page.getByLabel('Program').inputValue(), /a == b == c/);
  await context.close();
});

test('a question whose run overflows int shows a warning with the line, the others none', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  // `a + 2147483647` overflows exactly when a > 0 (scanf of a number past int's range first).
  await page.getByLabel('Program').fill('#include <stdio.h>\nint main(void) {\n  int a;\n  scanf("%d", &a);\n  printf("%d\\n", a + 2147483647);\n  return 0;\n}\n');
  await page.getByLabel('Failing input').fill('5');
  await page.getByLabel('Expected output (optional)').fill('');
  await page.getByLabel('Label budget').fill('4');
  await page.getByRole('button', { name: 'Start' }).click();
  let warned = 0;
  for (let input; (input = await nextQuery(page)); ) {
    const a = BigInt(input.trim());
    const warning = page.getByTestId('run-warning');
    if (a > 0n) {
      const what = a <= 2147483647n ? 'signed integer overflow at line 5' : 'a number read does not fit its type at line 4';
      assert.ok((await warning.textContent()).includes(what), input);
      warned += 1;
      if (warned === 1) await page.screenshot({ path: join(screenshots, 'run-warning.png'), fullPage: true });
    } else if (a >= -2147483648n) {
      assert.equal(await warning.count(), 0, input);
    }
    await answer(page, () => 'anything');
  }
  assert.ok(warned > 0, 'some question overflowed');
  await context.close();
});

test('two tabs keep separate sessions', async () => {
  const context = await browser.newContext();
  const a = await context.newPage();
  await a.goto(server.url);
  await a.getByRole('button', { name: 'Letter grade' }).click();
  const b = await context.newPage();
  await b.goto(server.url);
  await b.getByRole('button', { name: 'Digit sum' }).click();
  await a.reload();
  assert.match(await a.getByLabel('Program').inputValue(), /score/);
  await b.reload();
  assert.match(await b.getByLabel('Program').inputValue(), /sum \+= n % 10/);
  await context.close();
});

test('Repair finds a patch that passes every labelled test; Apply puts it in the editor; Stop stops a running repair', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Sum 1..n (loop)' }).click();
  await page.getByLabel('Label budget').fill('5');
  await page.getByRole('button', { name: 'Start' }).click();
  while (await nextQuery(page)) await answer(page, sumToN);
  const used = await labelsUsed(page);
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  const first = patches.locator('.patch').first();
  await first.waitFor({ timeout: 120000 });
  assert.equal(await first.getAttribute('data-passed'), await first.getAttribute('data-total'), 'passes every labelled test');
  assert.equal(Number(await first.getAttribute('data-total')), used + 1, 'every labelled test, the failing one too');
  const diff = await first.locator('.diff').textContent();
  assert.match(diff, /^\+.*$/m);
  await page.screenshot({ path: join(screenshots, 'patches.png'), fullPage: true });
  // Run, before Apply: the program on the failing input prints the wrong sum.
  const failing = await page.getByLabel('Failing input').inputValue();
  const original = await page.getByLabel('Program').inputValue();
  const run = async () => {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const result = page.getByTestId('run-result');
    await result.waitFor({ timeout: STEP });
    return { output: (await result.locator('pre.stdout').first().textContent()).trim(), ended: await result.getAttribute('data-ended'), stale: await result.getByText('earlier version').count() };
  };
  const before = await run();
  assert.notEqual(before.output, sumToN(failing), 'the bug shows in Run');
  assert.equal(before.ended, 'exit status 0');
  await first.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('button', { name: 'Start' }).waitFor();
  const patched = await page.getByLabel('Program').inputValue();
  assert.ok(diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).every((l) => patched.includes(l.slice(1).trim())), 'the applied program has the added lines');
  // The earlier session is put aside with every label, and said so.
  const aside = page.getByTestId('put-aside');
  assert.equal(Number(await aside.getAttribute('data-aside-labels')), used);
  assert.equal(await page.getByTestId('run-result').getByText('earlier version').count(), 1, 'the last run is marked as of the earlier program');
  // Run, after Apply: the patched program prints the right sum.
  const after = await run();
  assert.equal(after.output, sumToN(failing), 'the patched program passes the failing input');
  assert.equal(after.stale, 0);
  await page.screenshot({ path: join(screenshots, 'applied-run.png'), fullPage: true });
  // Undo Apply survives a reload, and brings back the program with every label.
  await page.reload();
  await page.getByRole('button', { name: 'Undo Apply' }).click();
  assert.equal(await page.getByLabel('Program').inputValue(), original);
  await page.locator('[data-testid=finished], .query[data-query-input]').first().waitFor({ timeout: STEP });
  assert.equal(await labelsUsed(page), used, 'every label is back');
  // ...and the patched version is one click away in turn.
  await page.getByRole('button', { name: 'Swap back' }).click();
  assert.equal(await page.getByLabel('Program').inputValue(), patched);
  await context.close();
});

test('an example or an import replaces pasted work only after a yes, and the work stays one click away', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  const mine = TRIANGLE.replace('scalene', 'all different');
  await page.getByLabel('Program').fill(mine);
  await page.getByRole('button', { name: 'Median of three' }).click();
  const dialog = page.getByTestId('confirm-replace');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Open the example "Median of three" in place of your work/);
  await dialog.getByRole('button', { name: 'Keep my work' }).click();
  assert.equal(await page.getByLabel('Program').inputValue(), mine, 'No keeps the work');
  await page.getByRole('button', { name: 'Median of three' }).click();
  await dialog.getByRole('button', { name: 'Replace' }).click();
  assert.match(await page.getByLabel('Program').inputValue(), /median/i);
  await page.getByRole('button', { name: 'Back to the earlier session' }).click();
  assert.equal(await page.getByLabel('Program').inputValue(), mine, 'the pasted program is back');
  // An unedited example is no work: another example opens at once.
  await page.getByRole('button', { name: 'Forget it' }).click();
  await page.getByRole('button', { name: 'Digit sum' }).click();
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await page.getByRole('button', { name: 'Sum 1..n (loop)' }).click();
  assert.match(await page.getByLabel('Program').inputValue(), /i < n|i <= n/);
  assert.equal(await dialog.count(), 0, 'no question when nothing would be lost');
  await context.close();
});

test('Run shows what the program prints, how it ended and any undefined behaviour, on the failing input or any typed input', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').fill('#include <stdio.h>\nint main(void) {\n    int n;\n    scanf("%d", &n);\n    printf("%d\\n", n * 1000000000);\n    return n > 5;\n}\n');
  await page.getByLabel('Failing input').fill('1');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByTestId('run-result');
  await result.waitFor({ timeout: STEP });
  assert.equal((await result.locator('pre.stdout').first().textContent()).trim(), '1000000000');
  assert.equal(await result.getAttribute('data-ended'), 'exit status 0');
  assert.equal(await result.getByTestId('run-undefined').count(), 0);
  await page.getByLabel('Run on input').fill('7');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=run-result]')?.getAttribute('data-ended') === 'exit status 1', null, { timeout: STEP });
  assert.match(await result.getByTestId('run-undefined').textContent(), /signed integer overflow at line 5/);
  // A program that does not compile is not run; the error names the line.
  await page.getByLabel('Program').fill('int main(void) {\n    return x;\n}\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('.run-error')?.textContent.includes('2'), null, { timeout: STEP });
  await page.close();
});

test('Stop terminates a running repair and keeps every label', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const used = await labelSlowSession(page, server.url);
  const patches = page.getByRole('region', { name: 'Patches' });
  let timed = false;
  const stopWhileRunning = async () => {
    await patches.getByRole('button', { name: 'Repair' }).click();
    if (!timed) {
      // Progress shows from the first second: counts of a slow program's first runs (each
      // ~10^6 steps), and the time elapsed.
      timed = true;
      const t0 = Date.now();
      await patches.getByText(/\d+ test executions/).waitFor({ timeout: 10000 });
      const ms = Date.now() - t0;
      console.log(`repair of a slow program: first execution count shown after ${ms} ms`);
      await patches.getByText(/· [1-9]\d* s$/).waitFor({ timeout: 5000 });
    }
    // The search is still running (each of its test runs is ~10^6 steps) when Stop is
    // pressed: the progress line shows executions, then Stop ends it.
    await patches.getByText(/\d+ test executions/).waitFor({ timeout: STEP });
    await patches.getByRole('button', { name: 'Stop' }).click({ timeout: 5000 });
    await patches.getByText('Repair stopped').waitFor({ timeout: 5000 });
  };
  await stopWhileRunning();
  assert.equal(await labelsUsed(page), used);
  await page.reload();
  await page.locator('[data-testid=finished]').waitFor({ timeout: STEP });
  assert.equal(await labelsUsed(page), used, 'labels kept across the stop and a reload');
  // The respawned worker repairs again (and can be stopped again).
  await stopWhileRunning();
  assert.equal(await labelsUsed(page), used);
  await context.close();
});
