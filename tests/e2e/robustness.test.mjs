// End-to-end robustness: a worker that dies, hangs or is killed mid-repair is reported and restarted with every label kept; an unreadable saved session, exercise draft or exercise work is kept aside and offered for download; an oversized program or answer is refused before it is saved; a change made just before a reload is kept; a duplicated tab gets a session of its own; Ctrl/Cmd+Enter runs the current step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { serveDist, launchBrowser, screenshots, STEP, labelsUsed, nextQuery, waitForLabels, savedSessions, labelSlowSession, startIfWaiting } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Answers "Not a bug" to the question on screen and waits for the label to count. */
async function notABug(page) {
  const used = await labelsUsed(page);
  await page.getByRole('button', { name: 'Not a bug' }).click();
  await waitForLabels(page, used + 1);
}

/** Opens the page, picks the median example and answers `n` questions. */
async function medianWithLabels(page, n) {
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Median of three' }).click();
  await page.getByLabel('Label budget').fill('8');
  await page.getByRole('button', { name: 'Start' }).click();
  for (let i = 0; i < n; i++) {
    assert.ok(await nextQuery(page), 'a question');
    await notABug(page);
  }
  await nextQuery(page);
}

const tabId = (page) => page.evaluate(() => sessionStorage.getItem('fixloop-tab'));
const answersIn = (text) => JSON.parse(text).answers.length;

/** The page's engine worker (the one live dedicated worker). */
function engineWorker(page) {
  const workers = page.workers();
  assert.equal(workers.length, 1, 'one live worker');
  return workers[0];
}

test('a worker that dies or crashes is reported; Restart brings it back with every label', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await medianWithLabels(page, 2);
  const id = await tabId(page);

  // The worker ends itself (as a crash of its process would): no error event reaches the
  // page, only its Web Lock comes free.
  await engineWorker(page).evaluate(() => self.close());
  const gone = page.locator('[role=alert][data-worker-down=dead]');
  await gone.waitFor({ timeout: 20000 });
  assert.match(await gone.textContent(), /stopped unexpectedly.*every label are kept/);
  assert.equal(await labelsUsed(page), 2);
  await page.screenshot({ path: join(screenshots, 'worker-gone.png'), fullPage: true });
  await page.getByRole('button', { name: 'Restart worker' }).click();
  await gone.waitFor({ state: 'detached' });
  assert.ok(await nextQuery(page), 'the restarted worker asks again');
  assert.equal(await labelsUsed(page), 2);
  await notABug(page);

  // An uncaught error in the worker: the page terminates it and says why.
  await nextQuery(page);
  await engineWorker(page).evaluate(() => { setTimeout(() => { throw new Error('injected crash'); }, 0); });
  await gone.waitFor({ timeout: 20000 });
  assert.match(await gone.textContent(), /crashed.*injected crash/);
  assert.equal(page.workers().length, 0, 'the crashed worker was terminated');
  await page.getByRole('button', { name: 'Restart worker' }).click();
  assert.ok(await nextQuery(page));
  assert.equal(await labelsUsed(page), 3);

  await page.reload();
  await nextQuery(page);
  assert.equal(await labelsUsed(page), 3, 'labels kept across both deaths and a reload');
  assert.equal(await tabId(page), id, 'a reload keeps the tab its id');
  await context.close();
});

test('a worker stuck or killed mid-repair is reported; Restart keeps every label and repairs again', async () => {
  const context = await browser.newContext();
  // Keep a handle on every worker the page spawns, so the test can kill one from outside.
  await context.addInitScript(() => {
    const Native = window.Worker;
    window.__spawnedWorkers = [];
    window.Worker = class extends Native {
      constructor(...args) { super(...args); window.__spawnedWorkers.push(this); }
      terminate() { this.__ended = true; super.terminate(); }
    };
  });
  const page = await context.newPage();
  const used = await labelSlowSession(page, server.url);
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  await patches.getByText(/\d+ test executions/).waitFor({ timeout: STEP });
  // The repair runs synchronously in the worker, so nothing can be evaluated there; the
  // DevTools protocol can still end the running script (as a stuck engine would look:
  // the worker lives, holds its lock, and never answers).
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'worker' && t.url.includes('fixloop-worker'));
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
  await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.terminateExecution' }) });
  const silent = page.locator('[role=alert][data-worker-down=silent]');
  await silent.waitFor({ timeout: 45000 });
  assert.match(await silent.textContent(), /not answered for 30 s.*every label are kept/);
  assert.equal(await labelsUsed(page), used);
  await page.screenshot({ path: join(screenshots, 'worker-silent.png'), fullPage: true });
  await page.getByRole('button', { name: 'Restart worker' }).click();
  await page.locator('[data-testid=finished]').waitFor({ timeout: STEP });
  assert.equal(await labelsUsed(page), used, 'labels kept');
  await cdp.detach();
  // The session asked for repair, so the fresh worker repairs again by itself (no second
  // press), and is killed mid-repair: terminated from outside the page's own code (as the
  // browser ends a crashed or out-of-memory worker), so the page learns it only from the
  // worker's Web Lock coming free.
  await patches.getByText(/\d+ test executions/).waitFor({ timeout: STEP });
  assert.equal(await patches.getByRole('button', { name: 'Repair' }).count(), 0, 'the repair resumed; no second press');
  const killed = await page.evaluate(() => {
    const live = window.__spawnedWorkers.filter((w) => !w.__ended);
    live.forEach((w) => w.terminate());
    return live.length;
  });
  assert.equal(killed, 1, 'one engine worker was running the repair');
  const dead = page.locator('[role=alert][data-worker-down=dead]');
  await dead.waitFor({ timeout: 20000 });
  assert.match(await dead.textContent(), /stopped unexpectedly.*every label are kept/);
  assert.equal(await labelsUsed(page), used);
  await page.screenshot({ path: join(screenshots, 'worker-killed-mid-repair.png'), fullPage: true });
  await page.getByRole('button', { name: 'Restart worker' }).click();
  await page.locator('[data-testid=finished]').waitFor({ timeout: STEP });
  assert.equal(await labelsUsed(page), used, 'labels kept after the kill');
  await page.reload();
  await page.locator('[data-testid=finished]').waitFor({ timeout: STEP });
  assert.equal(await labelsUsed(page), used, 'and after a reload');
  // The repair resumes after the restart and the reload too, and Stop still stops it;
  // Repair is then offered again.
  await patches.getByText(/\d+ test executions/).waitFor({ timeout: STEP });
  await patches.getByRole('button', { name: 'Stop' }).click();
  await patches.getByText('Repair stopped').waitFor({ timeout: 5000 });
  assert.equal(await patches.getByRole('button', { name: 'Repair' }).isEnabled(), true);
  await context.close();
});

/** Reloads after damaging storage; checks the unreadable alert (matching `pattern`) and
 * that `broken` is kept aside byte for byte under one key; returns the alert and the key. */
async function reloadAndExpectKeptAside(page, broken, pattern) {
  await page.reload();
  const alert = page.locator('[role=alert].unreadable');
  await alert.waitFor({ timeout: 20000 });
  assert.match(await alert.textContent(), pattern);
  const aside = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('fixloop-unreadable-')));
  assert.equal(aside.length, 1, 'kept aside under one key');
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), aside[0]), broken, 'byte for byte');
  assert.match(await alert.textContent(), new RegExp(aside[0]));
  return { alert, aside: aside[0] };
}

/** Truncates the text saved under `key` to `length` characters (a crash mid-write, a hand edit). */
async function damage(page, key, length) {
  const broken = (await page.evaluate((k) => localStorage.getItem(k), key)).slice(0, length);
  await page.evaluate(([k, text]) => localStorage.setItem(k, text), [key, broken]);
  return broken;
}

/** Clicks the download button `name` and checks the file is `text`. */
async function expectDownload(page, name, text) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  assert.equal(await readFile(await download.path(), 'utf8'), text, 'the download is the raw text');
}

/** Waits until the text under `key` is JSON again (saved afresh over the damaged text). */
const savedAfresh = (page, key) =>
  page.waitForFunction((k) => { try { JSON.parse(localStorage.getItem(k)); return true; } catch { return false; } }, key);

/** Reloads (waiting for `ready`) and checks there is no new alert and the aside text stays. */
async function reloadToldOnce(page, ready, aside, broken) {
  await page.reload();
  await ready();
  assert.equal(await page.locator('[role=alert].unreadable').count(), 0, 'told once');
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), aside), broken);
}

test('an unreadable saved session is kept aside, reported, and offered for download', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready-ms]');
  const broken = '{"version": 1, "program": "int main(void) { retu';
  const id = await tabId(page);
  await page.evaluate(([key, text]) => localStorage.setItem(key, text), [`fixloop-session-${id}`, broken]);
  const { aside } = await reloadAndExpectKeptAside(page, broken, /could not be read.*kept aside/);
  await page.screenshot({ path: join(screenshots, 'unreadable-session.png'), fullPage: true });
  await expectDownload(page, 'Download the unreadable session', broken);
  // The tab goes on with a fresh session; the kept text stays where it is.
  await reloadToldOnce(page, () => page.waitForSelector('html[data-ready-ms]'), aside, broken);
  await context.close();
});

test('an unreadable exercise draft is kept aside and reported, not overwritten by a fresh one', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Author exercise' }).click();
  await page.getByLabel('Title').fill('My half-written exercise');
  const key = `fixloop-draft-${await tabId(page)}`;
  await page.waitForFunction((k) => (localStorage.getItem(k) || '').includes('My half-written exercise'), key);
  const broken = await damage(page, key, 40);
  const { aside } = await reloadAndExpectKeptAside(page, broken, /saved exercise draft could not be read.*kept aside/);
  await expectDownload(page, 'Download the unreadable exercise draft', broken);
  // The author page starts from a fresh draft, saved over the damaged one; the kept text stays.
  assert.notEqual(await page.getByLabel('Title').inputValue(), 'My half-written exercise');
  await savedAfresh(page, key);
  await reloadToldOnce(page, () => page.waitForSelector('html[data-ready-ms]'), aside, broken);
  await context.close();
});

test('unreadable work on an exercise is kept aside and the exercise opens afresh', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  const openMedian = async () => {
    await page.getByRole('button', { name: 'Exercise: median' }).click();
    await page.getByTestId('exercise-title').waitFor();
    await startIfWaiting(page);
    assert.ok(await nextQuery(page), 'a question');
  };
  await openMedian();
  await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('fixloop-work-')));
  const [key] = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('fixloop-work-')));
  const broken = await damage(page, key, 50);
  // Student mode comes back on reload from the saved work, which is now damaged.
  const { alert, aside } = await reloadAndExpectKeptAside(page, broken, /saved exercise work could not be read.*kept aside/);
  // The exercise opens again, from a fresh start, and is told about once.
  await openMedian();
  assert.equal(await alert.locator('p').count(), 1, 'one notice');
  await savedAfresh(page, key);
  await reloadToldOnce(page, () => page.getByTestId('exercise-title').waitFor(), aside, broken);
  await context.close();
});

test('the page never saves what it could not read back: an oversized program or answer is refused', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Median of three' }).click();
  const editor = page.getByLabel('Program');
  const median = await editor.inputValue();
  const savedPrograms = async () => Object.values(await savedSessions(page)).map((t) => JSON.parse(t).program);
  await page.waitForFunction((p) => Object.keys(localStorage).some((k) => k.startsWith('fixloop-session-') && JSON.parse(localStorage.getItem(k)).program === p), median);

  // Over the 64 KiB program limit: shown, not saved, and it cannot start.
  await editor.fill(`${median}\n// ${'x'.repeat(70000)}\n`);
  const notSaved = page.getByRole('alert').filter({ hasText: 'not saved' });
  await notSaved.waitFor();
  assert.match(await notSaved.textContent(), /at most 65536.*a reload brings back the last one saved/s);
  assert.deepEqual(await savedPrograms(), [median], 'the saved session is the last good one');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('alert').filter({ hasText: 'cannot start' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Start' }).count(), 1, 'still editing');
  await page.screenshot({ path: join(screenshots, 'program-too-large.png'), fullPage: true });

  // A reload finds a readable session: the last one saved, nothing kept aside.
  await page.reload();
  await page.waitForSelector('html[data-ready-ms]');
  assert.equal(await editor.inputValue(), median);
  assert.equal(await page.locator('[role=alert].unreadable').count(), 0, 'nothing unreadable');
  assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('fixloop-unreadable-')).length), 0);

  // An answer whose expected output passes the 4 KiB text limit is not recorded.
  await page.getByLabel('Label budget').fill('8');
  await page.getByRole('button', { name: 'Start' }).click();
  assert.ok(await nextQuery(page), 'a question');
  await notABug(page);
  assert.ok(await nextQuery(page), 'a second question');
  await page.getByLabel('Correct output (optional, for Bug)').fill('7'.repeat(5000));
  await page.getByRole('button', { name: 'Bug', exact: true }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'not recorded' });
  await refused.waitFor();
  assert.match(await refused.textContent(), /longer than 4096 bytes.*Stop the loop/s);
  assert.equal(await labelsUsed(page), 1, 'the label is not counted');
  await page.reload();
  await page.waitForSelector('html[data-ready-ms]');
  assert.ok(await nextQuery(page), 'the loop goes on after a reload');
  assert.equal(await labelsUsed(page), 1, 'the first label is kept');
  assert.equal(await page.locator('[role=alert].unreadable').count(), 0, 'nothing unreadable');
  await context.close();
});

test('a change made just before a reload is kept, even when the page renders slowly', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready-ms]');
  // A slow machine: a render then takes longer than Yew's 16 ms slice, and Yew pauses
  // for the browser before it runs the render's effects (where the page saves).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 30 });
  const failing = page.getByLabel('Failing input');
  for (const typed of ['1 2 3', '4 5 6', '7 8 9']) {
    await failing.fill(typed);
    await page.reload();
    await page.waitForSelector('html[data-ready-ms]');
    assert.equal(await failing.inputValue(), typed, 'the input typed before the reload is kept');
  }
  // The draft of an exercise too.
  await page.getByRole('button', { name: 'Author exercise' }).click();
  for (const title of ['Draft one', 'Draft two']) {
    await page.getByLabel('Title').fill(title);
    await page.reload();
    await page.getByLabel('Title').waitFor();
    assert.equal(await page.getByLabel('Title').inputValue(), title, 'the draft typed before the reload is kept');
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await context.close();
});

test('a duplicated tab takes a new session id: the two never overwrite each other\'s labels', async () => {
  const context = await browser.newContext();
  const a = await context.newPage();
  await medianWithLabels(a, 2);
  const idA = await tabId(a);
  // window.open copies the opener's sessionStorage (and so its tab id), as "Duplicate
  // tab" does.
  const [b] = await Promise.all([context.waitForEvent('page'), a.evaluate(() => { window.open(location.href); })]);
  await nextQuery(b);
  const idB = await tabId(b);
  assert.notEqual(idB, idA, 'the duplicate has its own id');
  assert.equal(await labelsUsed(b), 2, 'the duplicate starts where the original was');
  await notABug(b);
  const saved = await savedSessions(a);
  assert.equal(answersIn(saved[`fixloop-session-${idA}`]), 2, 'the original\'s labels are untouched');
  assert.equal(answersIn(saved[`fixloop-session-${idB}`]), 3);
  await nextQuery(a);
  await notABug(a);
  await a.reload();
  await nextQuery(a);
  assert.equal(await labelsUsed(a), 3);
  assert.equal(await tabId(a), idA);
  await b.reload();
  await nextQuery(b);
  assert.equal(await tabId(b), idB, 'the duplicate keeps its new id across a reload');
  const after = await savedSessions(b);
  assert.deepEqual(JSON.parse(after[`fixloop-session-${idB}`]).answers.map((x) => x.verdict), ['ok', 'ok', 'ok']);
  assert.equal(answersIn(after[`fixloop-session-${idA}`]), 3);
  await context.close();
});

test('Ctrl/Cmd+Enter runs the current step: Start, Bug once an output is typed, then Repair', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Sum 1..n (loop)' }).click();
  await page.getByLabel('Label budget').fill('2');
  await page.getByLabel('Program').focus();
  await page.keyboard.press('Control+Enter');
  assert.ok(await nextQuery(page), 'Ctrl+Enter in the editor started the loop');
  assert.equal(await labelsUsed(page), 0);
  // A question with no output typed has no primary step: Ctrl+Enter changes nothing
  // (it neither answers nor starts Repair).
  await page.keyboard.press('Control+Enter');
  await page.waitForTimeout(500);
  assert.equal(await labelsUsed(page), 0);
  assert.equal(await page.locator('.repair-progress').count(), 0, 'Repair did not start');
  // With Shift it is not the shortcut.
  await page.getByLabel('Correct output (optional, for Bug)').fill('12345');
  await page.keyboard.press('Control+Shift+Enter');
  await page.waitForTimeout(500);
  assert.equal(await labelsUsed(page), 0);
  await page.getByLabel('Correct output (optional, for Bug)').focus();
  await page.keyboard.press('Control+Enter');
  await waitForLabels(page, 1);
  const answers = JSON.parse(Object.values(await savedSessions(page))[0]).answers;
  assert.deepEqual(answers.map((x) => [x.verdict, x.expected]), [['bug', '12345']]);
  while (await nextQuery(page)) await notABug(page);
  await page.keyboard.press('Meta+Enter');
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.locator('.repair-progress, [role=status]').first().waitFor({ timeout: STEP });
  await page.screenshot({ path: join(screenshots, 'keyboard-repair.png'), fullPage: true });
  await context.close();
});

test('a program that prints 10^8 lines keeps the page short: an excerpt with a count, the whole output only in a scrolled box', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.url);
  await page.getByLabel('Program').fill('#include <stdio.h>\nint main(void) {\n    int n, i;\n    scanf("%d", &n);\n    for (i = 0; i < 100000000; i++)\n        printf("%d\\n", n + i);\n    return 0;\n}\n');
  await page.getByLabel('Failing input').fill('3');
  await page.getByLabel('Label budget').fill('3');
  await page.getByRole('button', { name: 'Start' }).click();
  const height = () => page.evaluate(() => document.documentElement.scrollHeight);
  for (let i = 0; i < 2; i++) {
    assert.ok(await nextQuery(page), 'a question');
    const long = page.locator('.query .long-output');
    await long.waitFor();
    const lines = Number(await long.getAttribute('data-total-lines'));
    assert.ok(lines > 1000, `the run printed ${lines} lines`);
    assert.match(await long.locator('.gap').textContent(), /… [\d ]+ more lines …/);
    assert.ok((await height()) < 3000, `page ${await height()} px tall`);
    await long.getByRole('button', { name: /Show all/ }).click();
    const all = long.locator('pre.all');
    await all.waitFor();
    assert.ok((await all.evaluate((e) => e.scrollHeight)) > 10 * (await all.evaluate((e) => e.clientHeight)), 'the whole output scrolls inside its box');
    assert.ok((await height()) < 3000, `page ${await height()} px tall with the whole output open`);
    if (i === 0) await page.screenshot({ path: join(screenshots, 'huge-output.png') });
    const used = await labelsUsed(page);
    await page.getByRole('button', { name: i === 0 ? 'Bug' : 'Not a bug', exact: true }).click();
    await waitForLabels(page, used + 1);
  }
  // The plot's tooltips are one short line each.
  const titles = await page.locator('.pt title').allTextContents();
  assert.ok(titles.length >= 2, `${titles.length} plotted runs`);
  for (const t of titles) assert.ok(t.length < 200, `a tooltip of ${t.length} characters`);
  assert.ok((await height()) < 3000, `page ${await height()} px tall after two answers`);
  await page.close();
});
