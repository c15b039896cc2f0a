// End-to-end: what a teacher, a student and a newcomer meet first. An exercise authored
// from a gallery entry, the student page with only what the exercise needs, the median
// exercise answered by editing the printed output (never typing the prompt), and Run's
// result and Start on the first screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveDist, launchBrowser, screenshots, nextQuery, STEP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The median of three numbers given as text. */
function median(input) {
  const [a, b, c] = input.trim().split(/\s+/).map(Number).sort((x, y) => x - y);
  return b;
}

/** Whether `box` lies wholly inside a viewport of `height` pixels (to a pixel's rounding). */
function onFirstScreen(box, height) {
  return box && box.y >= -1 && box.y + box.height <= height + 1;
}

test('a teacher starts an exercise from the median gallery entry; an edited draft is put aside, not lost', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  // The playground's median example carries over to an unedited draft.
  await page.getByRole('button', { name: 'Median of three', exact: true }).click();
  await page.getByRole('button', { name: 'Author exercise' }).click();
  assert.equal(await page.getByLabel('Title').inputValue(), 'Median of three');
  assert.match(await page.getByLabel('Buggy program').inputValue(), /is the median/);
  assert.match(await page.getByLabel('Reference program').inputValue(), /\(b <= a && b >= c\)/, 'the example\'s fix is the reference');
  assert.equal(await page.getByLabel('Failing input').inputValue(), '3 2 1');

  // An edited draft is put aside by a starter, and comes back with one click.
  await page.getByLabel('Title').fill('My own median');
  const start = page.getByLabel('Start from');
  await start.selectOption({ label: 'Exercise: Median of three (IntroClass)' });
  assert.equal(await page.getByLabel('Title').inputValue(), 'Median of three (IntroClass)');
  assert.match(await page.getByLabel('Buggy program').inputValue(), /Please enter 3 numbers separated by space  >/);
  assert.match(await page.getByLabel('Reference program').inputValue(), /\(y<=x && y>=z\)/);
  assert.equal(await page.getByLabel('Failing input').inputValue(), '6 8 2');
  const aside = page.getByTestId('draft-aside');
  assert.match(await aside.textContent(), /Your draft "My own median" was put aside/);
  await aside.getByRole('button', { name: 'Bring back my draft' }).click();
  assert.equal(await page.getByLabel('Title').inputValue(), 'My own median');
  // The swap keeps the other one too: nothing the author wrote is lost.
  await start.selectOption({ label: 'Exercise: Median of three (IntroClass)' });
  await page.reload();
  await page.getByLabel('Title').waitFor();
  assert.equal(await page.getByLabel('Title').inputValue(), 'Median of three (IntroClass)', 'the draft survives a reload');
  assert.match(await page.getByTestId('draft-aside').textContent(), /My own median/, 'so does the one put aside');
  assert.equal(await page.getByLabel('Start from').inputValue(), 'exercise:median');

  await page.getByRole('button', { name: 'Make link' }).click();
  const url = await page.locator('[data-exercise-url]').getAttribute('data-exercise-url');
  assert.match(url, /#x=/);
  await page.screenshot({ path: join(screenshots, 'firstrun-author-from-gallery.png'), fullPage: true });

  // The student opens the link: only what the exercise needs, and a Start to press.
  const student = await browser.newContext();
  const s = await student.newPage();
  await s.goto(url);
  await s.getByTestId('exercise-title').waitFor();
  for (const name of ['Author exercise', 'Teacher view', 'Share', 'Export', 'Import', 'Reset', 'Median of three']) {
    assert.equal(await s.getByRole('button', { name, exact: true }).count(), 0, `no ${name} button for a student`);
  }
  assert.equal(await s.getByRole('navigation', { name: 'Examples' }).count(), 0, 'no examples menu');
  assert.equal(await s.locator('fieldset.settings').count(), 0, 'no settings');
  assert.notEqual(await s.getByLabel('Program').getAttribute('readonly'), null, 'the exercise\'s program is read-only');
  assert.equal(await s.locator('.query[data-query-input]').count(), 0, 'no question before Start');
  assert.equal(await s.getByRole('button', { name: 'Check fix' }).count(), 1, 'the fix can be written at once');
  await s.screenshot({ path: join(screenshots, 'firstrun-student-start.png'), fullPage: true });
  await s.getByRole('button', { name: 'Start', exact: true }).click();

  // Every answer is given by editing the printed output: the prompt is never typed.
  let bugs = 0;
  for (let asked = 0; asked < 5; asked += 1) {
    const input = await nextQuery(s);
    if (input === null) break;
    const q = s.locator('.query[data-query-input]');
    const printed = (await q.getAttribute('data-query-output')).trim();
    const field = s.getByLabel('Correct output (optional, for Bug)');
    assert.equal(await field.inputValue(), printed, 'the field starts as what the program printed');
    const right = printed.replace(/-?\d+(?= is the median)/, String(median(input)));
    if (right !== printed) {
      // Only the number is changed, by selecting it in the field and typing over it.
      const at = printed.search(/-?\d+ is the median/);
      const number = /-?\d+/.exec(printed.slice(at))[0];
      await field.focus();
      await field.evaluate((el, [from, to]) => el.setSelectionRange(from, to), [at, at + number.length]);
      await s.keyboard.type(String(median(input)));
      assert.equal(await field.inputValue(), right);
      await s.getByRole('button', { name: 'Bug', exact: true }).click();
      bugs += 1;
    } else {
      await s.getByRole('button', { name: 'Not a bug' }).click();
    }
    await s.waitForFunction((n) => document.querySelectorAll('.checked-answers li').length === n, asked + 1, { timeout: STEP });
    const last = s.locator('.checked-answers li').nth(asked);
    assert.equal(await last.getAttribute('data-right'), 'true', `answer ${asked + 1} on ${input}`);
    if (right !== printed) assert.match(await last.textContent(), /your output matches/);
    await s.waitForFunction(() => !document.querySelector('.working'), null, { timeout: STEP });
  }
  assert.ok(bugs >= 1, 'at least one run showed the bug');
  await s.screenshot({ path: join(screenshots, 'firstrun-student-answered.png'), fullPage: true });
  await student.close();
  await context.close();
});

test('Run\'s result shows on the first screen of a laptop; Start is on the first screen of a phone', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByTestId('run-result');
  await result.waitFor({ timeout: STEP });
  await page.waitForTimeout(300);
  const box = await result.boundingBox();
  assert.ok(onFirstScreen(box, 800), `Run's result is in view: ${JSON.stringify(box)}`);
  await page.screenshot({ path: join(screenshots, 'firstrun-run-result.png') });
  await context.close();

  for (const [width, height] of [[390, 844], [1280, 800]]) {
    const fresh = await browser.newContext({ viewport: { width, height } });
    const p = await fresh.newPage();
    await p.goto(server.url);
    const start = p.getByRole('button', { name: 'Start', exact: true });
    await start.waitFor();
    const at = await start.boundingBox();
    assert.ok(onFirstScreen(at, height), `Start is on the first screen at ${width}x${height}: ${JSON.stringify(at)}`);
    if (width === 390) await p.screenshot({ path: join(screenshots, 'firstrun-phone.png') });
    await fresh.close();
  }
});
