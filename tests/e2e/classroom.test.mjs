// End-to-end: a teacher authors an exercise and makes its link; students open it in fresh contexts, label (some answers wrong on purpose), fix by hand, export reports under their names; the teacher imports three reports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { serveDist, launchBrowser, screenshots, startIfWaiting } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const STEP = 90000;

const BUGGY = `#include <stdio.h>

int main(void) {
    int a, b;
    scanf("%d %d", &a, &b);
    if (a > b)
        printf("%d\\n", a);
    else
        printf("%d\\n", a);
    return 0;
}
`;
const REFERENCE = BUGGY.replace('printf("%d\\n", a);\n    return', 'printf("%d\\n", b);\n    return');
assert.notEqual(REFERENCE, BUGGY);

/** The correct output, computed here from the query's input. */
function larger(input) {
  const [a, b] = input.trim().split(/\s+/).map(Number);
  return String(Math.max(a, b));
}

/** Waits for a question or the end; returns the query's input or null when finished. */
async function nextQuery(page) {
  await page.locator('.query[data-query-input], [data-testid=finished]').first().waitFor({ timeout: STEP });
  const q = page.locator('.query[data-query-input]');
  return (await q.count()) ? q.getAttribute('data-query-input') : null;
}

/**
 * Labels every question; `wrongAt(i)` says which answers to get wrong on purpose.
 * Checks that each answer is marked right or wrong as it should be; returns the marks.
 */
async function labelAll(page, wrongAt, { typeOutputs = false } = {}) {
  await startIfWaiting(page);
  const marks = [];
  while (await nextQuery(page)) {
    const q = page.locator('.query[data-query-input]');
    const input = await q.getAttribute('data-query-input');
    const output = (await q.getAttribute('data-query-output')).trim();
    const bug = output !== larger(input);
    const wrong = wrongAt(marks.length);
    const sayBug = wrong ? !bug : bug;
    if (sayBug && typeOutputs) await page.getByLabel('Correct output (optional, for Bug)').fill(larger(input));
    await page.getByRole('button', { name: sayBug ? 'Bug' : 'Not a bug', exact: true }).click();
    marks.push(!wrong);
    const checked = page.locator('.checked-answers li');
    await page.waitForFunction((n) => document.querySelectorAll('.checked-answers li').length === n, marks.length, { timeout: STEP });
    const last = checked.nth(marks.length - 1);
    assert.equal(await last.getAttribute('data-right'), String(!wrong), `answer ${marks.length} on ${input}`);
    const text = await last.textContent();
    assert.match(text, wrong ? /Wrong/ : /Right/, 'marked in text, not colour only');
    assert.ok(text.includes(`Correct output: ${larger(input)}`), `the correct output is shown: ${text}`);
    if (sayBug && typeOutputs) assert.match(text, /your output matches/);
    await page.waitForFunction(() => !document.querySelector('.working'), null, { timeout: STEP });
  }
  return marks;
}

async function score(page) {
  const s = page.getByTestId('score');
  return [Number(await s.getAttribute('data-right')), Number(await s.getAttribute('data-total'))];
}

/** Exports the report (a name must be typed); its file name ends in the name's `slug`. */
async function exportReport(page, slug) {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: STEP }),
    page.getByRole('button', { name: 'Export report' }).click(),
  ]);
  assert.match(download.suggestedFilename(), new RegExp(`^fixloop-report-[0-9a-f]{16}-${slug}\\.json$`));
  return readFile(await download.path(), 'utf8');
}

/** The id of the element that has the focus. */
async function focused(page) {
  return page.evaluate(() => document.activeElement?.id);
}

async function savedWork(page) {
  return page.evaluate(() => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith('fixloop-work-')).map((k) => [k, localStorage.getItem(k)])));
}

let exerciseUrl;
const reports = [];

test('a teacher authors an exercise: validation errors, preview, and a link that says the reference is inside', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Author exercise' }).click();
  await page.getByLabel('Title').fill('Larger of two');
  await page.getByLabel('Instructions').fill('The program should print the larger number. Find when it does not, then fix it.');
  await page.getByLabel('Buggy program').fill(BUGGY);
  await page.getByLabel('Reference program').fill('int main( {');
  await page.getByLabel('Failing input').fill('1 5');
  await page.locator('details.ranges summary').click();
  for (const n of [1, 2]) {
    await page.getByLabel(`x${n} minimum`).fill('-50');
    await page.getByLabel(`x${n} maximum`).fill('50');
  }
  await page.getByLabel('Label budget').fill('5');
  await page.getByLabel('Committee size').fill('3');
  await page.getByLabel('Seed').fill('11');
  await page.getByRole('button', { name: 'Make link' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /reference program does not compile/);
  assert.equal(await page.locator('[data-exercise-url]').count(), 0, 'no link for a broken exercise');
  await page.screenshot({ path: join(screenshots, 'classroom-author-error.png'), fullPage: true });

  await page.getByLabel('Reference program').fill(REFERENCE);
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByTestId('exercise-title').waitFor();
  assert.equal(await page.getByTestId('exercise-title').textContent(), 'Larger of two');
  // A preview is what a student sees: nothing asked before Start is pressed.
  assert.equal(await page.locator('.query[data-query-input]').count(), 0, 'no question before Start');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await nextQuery(page);
  await page.screenshot({ path: join(screenshots, 'classroom-preview.png'), fullPage: true });
  await page.getByRole('button', { name: 'Back to authoring' }).click();
  assert.equal(await page.getByLabel('Reference program').inputValue(), REFERENCE, 'the draft is kept');

  await page.getByRole('button', { name: 'Make link' }).click();
  exerciseUrl = await page.locator('[data-exercise-url]').getAttribute('data-exercise-url');
  assert.match(exerciseUrl, /#x=[A-Za-z0-9_-]+$/);
  assert.match(await page.locator('main.author').textContent(), /hidden from view, not secret/);
  await page.screenshot({ path: join(screenshots, 'classroom-author-link.png'), fullPage: true });
  await context.close();
});

test('a student labels with wrong answers, sees them marked, fixes by hand, reloads, and exports the report', async () => {
  assert.ok(exerciseUrl, 'the author test ran first');
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(exerciseUrl);
  await page.getByTestId('exercise-title').waitFor();
  assert.equal(await page.getByTestId('exercise-title').textContent(), 'Larger of two');
  assert.match(await page.getByRole('region', { name: 'Exercise' }).textContent(), /print the larger number/);
  assert.equal(await page.getByLabel('Program').inputValue(), BUGGY, 'the loop runs on the buggy program');
  assert.ok(!(await page.content()).includes('printf("%d\\n", b)'), 'the reference is not on the page');

  const marks = await labelAll(page, (i) => i === 0 || i === 2);
  assert.ok(marks.length >= 3, `the loop asked ${marks.length} questions`);
  const wrong = marks.filter((m) => !m).length;
  assert.deepEqual(await score(page), [marks.length - wrong, marks.length]);
  assert.equal(await page.locator('.checked-answers li[data-right=false]').count(), wrong);
  await page.screenshot({ path: join(screenshots, 'classroom-student-marked.png'), fullPage: true });

  // The buggy program as a "fix": it still differs, and the page says where.
  await page.getByRole('button', { name: 'Check fix' }).click();
  const result = page.getByTestId('fix-result');
  await result.waitFor({ timeout: STEP });
  assert.equal(await result.getAttribute('data-all-pass'), 'false');
  assert.match(await result.textContent(), /First input where it still differs/);

  await page.getByLabel('Your fix').fill(REFERENCE);
  await page.getByRole('button', { name: 'Check fix' }).click();
  await page.locator('[data-testid=fix-result][data-all-pass=true]').waitFor({ timeout: STEP });
  const labelled = [await result.getAttribute('data-labelled-passed'), await result.getAttribute('data-labelled-total')].map(Number);
  const fresh = [await result.getAttribute('data-fresh-passed'), await result.getAttribute('data-fresh-total')].map(Number);
  assert.equal(labelled[0], labelled[1]);
  assert.equal(labelled[1], marks.length);
  assert.ok(fresh[1] > 0 && fresh[0] === fresh[1], `fresh ${fresh}`);
  // Both sides range over -50..50 (101 x 101 inputs, too many to check whole): the
  // boundary grid of -50, -49, 0, 49, 50 at each position is checked and said so.
  const systematic = [await result.getAttribute('data-systematic-passed'), await result.getAttribute('data-systematic-total')].map(Number);
  assert.deepEqual(systematic, [25, 25]);
  assert.equal(await result.getAttribute('data-whole-range'), 'false');
  assert.match(await result.textContent(), /Boundary values of each input .*: 25 of 25 pass\. Fresh fuzzed inputs: \d+ of \d+ pass\./);
  await page.screenshot({ path: join(screenshots, 'classroom-student-fixed.png'), fullPage: true });

  // No name, no export: the page says so by the name field and puts the focus in it;
  // a name of spaces is no name.
  let downloads = 0;
  page.on('download', () => { downloads += 1; });
  const nameField = page.getByLabel('Your name or student id');
  for (const typed of ['', '   ']) {
    await nameField.fill(typed);
    await page.getByRole('button', { name: 'Check fix' }).focus();
    await page.getByRole('button', { name: 'Export report' }).click();
    const refusal = page.locator('#student-name-error[role=alert]');
    await refusal.waitFor({ timeout: 5000 });
    assert.match(await refusal.textContent(), /Type your name or student id before you export/);
    assert.equal(await focused(page), 'student-name', 'the name field takes the focus');
    assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
  }
  await page.waitForTimeout(1000);
  assert.equal(downloads, 0, 'nothing was exported');
  assert.equal(await page.getByTestId('exported').count(), 0);
  await page.screenshot({ path: join(screenshots, 'classroom-student-no-name.png'), fullPage: true });

  // Reload: nothing is lost. The saved work is first made as a page from before names
  // saved it (no `student`): it still opens, with no name.
  const saved = await savedWork(page);
  assert.equal(Object.keys(saved).length, 1);
  assert.equal(JSON.parse(Object.values(saved)[0]).student, '   ', 'the name is saved as typed');
  await page.addInitScript(() => {
    try {
      if (sessionStorage.getItem('e2e-unnamed-work')) return;
      sessionStorage.setItem('e2e-unnamed-work', '1');
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith('fixloop-work-'))) {
        const work = JSON.parse(localStorage.getItem(key));
        delete work.student;
        localStorage.setItem(key, JSON.stringify(work));
      }
    } catch { /* about:blank has no storage */ }
  });
  await page.reload();
  await page.getByTestId('exercise-title').waitFor();
  await nextQuery(page);
  assert.deepEqual(await score(page), [marks.length - wrong, marks.length], 'the score survives a reload');
  assert.equal(await page.getByLabel('Your fix').inputValue(), REFERENCE, 'the fix survives a reload');
  assert.equal(await nameField.inputValue(), '', 'work saved without a name opens with none');
  assert.equal(await page.locator('#student-name-error').count(), 0, 'the refusal is gone');
  await nameField.fill('Ana María');

  // A damaged exercise link: an alert, and the saved work is untouched.
  for (const bad of ['%%%', 'AAAA', Buffer.from('{"version": 99}').toString('base64url')]) {
    await page.goto('about:blank');
    await page.goto(`${server.url}#x=${bad}`);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20000 });
    assert.match(await alert.textContent(), /exercise link cannot be opened/);
    assert.equal(await page.getByTestId('exercise-title').textContent(), 'Larger of two', 'still on the exercise');
    assert.equal(await page.getByLabel('Your fix').inputValue(), REFERENCE);
    assert.equal(await nameField.inputValue(), 'Ana María', 'the name survives a reload');
  }
  await page.screenshot({ path: join(screenshots, 'classroom-hostile-link.png'), fullPage: true });
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await nextQuery(page);
  const afterHostile = await savedWork(page);
  for (const [key, text] of Object.entries(saved)) {
    const before = JSON.parse(text);
    const now = JSON.parse(afterHostile[key]);
    assert.equal(now.student, 'Ana María');
    for (const w of [before, now]) {
      delete w.time_spent_ms;
      delete w.student;
    }
    assert.deepEqual(now, before, 'the saved work is unchanged (time and the name typed aside)');
  }

  const json = await exportReport(page, 'Ana-Mar-a');
  const report = JSON.parse(json);
  assert.equal(report.student, 'Ana María');
  assert.match(report.seal, /^[0-9a-f]{16}$/);
  assert.equal(report.exercise.title, 'Larger of two');
  assert.deepEqual([report.score.right, report.score.total], [marks.length - wrong, marks.length]);
  assert.deepEqual(report.answers.map((a) => a.right), marks);
  assert.equal(report.fix.origin, 'hand');
  assert.equal(report.fix.first_difference, null);
  assert.ok(report.time_spent_ms > 0, 'time spent is measured');
  assert.ok(report.oracle.length > 0, 'the oracle is in the report');
  reports.push({ name: 'ana.json', mimeType: 'application/json', buffer: Buffer.from(json) });

  await page.getByTestId('exported').waitFor();
  assert.match(await page.getByTestId('exported').textContent(), /-Ana-Mar-a\.json for Ana María: score/);
  const [printable] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Printable report (HTML)' }).click(),
  ]);
  assert.match(printable.suggestedFilename(), /^fixloop-report-[0-9a-f]{16}-Ana-Mar-a\.html$/);
  const html = await readFile(await printable.path(), 'utf8');
  assert.match(html, /<h1>Larger of two<\/h1>/);
  assert.ok(html.includes('Student: <strong>Ana María</strong>'), 'the printable view names the student');
  assert.ok(!html.includes('<script'), 'no script in the printable view');
  await page.screenshot({ path: join(screenshots, 'classroom-student-exported.png'), fullPage: true });
  await context.close();
});

test('a second student answers everything right and hands in no fix; the teacher imports three reports', async () => {
  assert.equal(reports.length, 1, 'the first student test ran');
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(exerciseUrl);
  const marks = await labelAll(page, () => false);
  assert.deepEqual(await score(page), [marks.length, marks.length]);
  await page.getByLabel('Your name or student id').fill("Ben O'Neil 42");
  const json = await exportReport(page, 'Ben-O-Neil-42');
  assert.equal(JSON.parse(json).fix, null);
  assert.equal(JSON.parse(json).student, "Ben O'Neil 42");
  reports.push({ name: 'ben.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await context.close();

  // A third report: the first one with its score raised by hand, handed in by Cy under
  // his own name.
  const forged = JSON.parse(reports[0].buffer.toString());
  forged.score.right = forged.score.total;
  forged.student = 'Cy';
  reports.push({ name: 'cy.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forged)) });

  const teacher = await browser.newPage();
  await teacher.goto(server.url);
  await teacher.getByRole('button', { name: 'Teacher view' }).click();
  await teacher.locator('#report-files').setInputFiles(reports);
  // Cy's forged report is set aside: not in the table, the chart or the wrong answers.
  const rows = teacher.locator('[data-testid=class-table] tbody tr');
  await teacher.locator('[data-testid=set-aside] li').waitFor({ timeout: STEP });
  assert.equal(await rows.count(), 2);
  const headers = (await teacher.locator('[data-testid=class-table] thead th').allTextContents()).map((t) => t.trim());
  assert.deepEqual(headers.slice(0, 3), ['Student', 'File', 'Exercise']);
  const cells = async (i) => (await rows.nth(i).locator('th, td').allTextContents()).map((t) => t.trim());
  const [ana, ben] = [await cells(0), await cells(1)];
  assert.deepEqual(ana.slice(0, 2), ['Ana María', 'ana.json'], 'the row is named by the student');
  assert.match(ana[5], /yes/);
  assert.match(ana[7], /genuine/);
  assert.deepEqual(ben.slice(0, 2), ["Ben O'Neil 42", 'ben.json']);
  assert.match(ben[5], /no fix/);
  assert.equal(ben[4], '100%');
  assert.match(ben[7], /genuine/);
  assert.equal(await teacher.locator('[data-testid=class-table] tbody tr[data-student=Cy]').count(), 0, 'the forged report is not in the table');
  assert.match(await teacher.locator('[data-testid=class-table] caption').textContent(), /^3 reports: 2 counted, 1 set aside \(below\); 1 of 2 fixed the bug\.$/);
  const aside = teacher.locator('[data-testid=set-aside] li');
  assert.equal(await aside.count(), 1);
  const why = await aside.first().textContent();
  assert.match(why, /^Cy \(cy\.json\) - tampered: /, why);
  // Both the raised score and the name put on Ana's work are caught, and said.
  assert.match(why, /score /, why);
  assert.match(why, /"Cy".*seal/, why);
  assert.doesNotMatch(why, /\d+ \/ \d+/, 'no (edited) score is shown for it');
  // The chart has a bar per counted report and one for the share that fixed the bug.
  assert.equal(await teacher.locator('svg.class-chart g.accuracy').count(), 2);
  assert.deepEqual(await teacher.locator('svg.class-chart g.accuracy text:first-child').allTextContents(), ['Ana María', "Ben O'Neil 42"]);
  assert.match(await teacher.locator('svg.class-chart').getAttribute('aria-label'), /1 of 2 fixed the bug/);
  // Ana's wrong answers count once: Cy's copy of them is not counted.
  const common = teacher.locator('.common-wrong li');
  assert.ok(await common.count() >= 1);
  for (const text of await common.allTextContents()) assert.match(text, /answered wrongly 1 time;/, text);
  await teacher.screenshot({ path: join(screenshots, 'classroom-teacher.png'), fullPage: true });
  await teacher.close();
});

test('in student mode Repair and Apply put the patch into the fix to check, not into a new round', async () => {
  assert.ok(exerciseUrl, 'the author test ran first');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(exerciseUrl);
  // Typed correct outputs make the bug labels precise repair tests.
  const marks = await labelAll(page, () => false, { typeOutputs: true });
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  await patches.locator('.patch, p[role=status]').or(page.getByRole('alert')).first().waitFor({ timeout: 120000 });
  await page.screenshot({ path: join(screenshots, 'classroom-student-repair.png'), fullPage: true });
  const first = patches.locator('.patch').first();
  assert.equal(await page.getByRole('alert').count(), 0, 'no error');
  assert.ok(await first.count(), `a patch: ${await patches.textContent()}`);
  const added = (await first.locator('.diff').textContent()).split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
  assert.ok(added.length > 0, 'the patch adds a line');
  await first.getByRole('button', { name: 'Apply' }).click();
  const fix = await page.getByLabel('Your fix').inputValue();
  assert.ok(added.every((l) => fix.includes(l.slice(1).trim())), 'the fix editor holds the patched program');
  assert.match(await page.getByRole('region', { name: 'Fix and report' }).textContent(), /From an applied patch/);
  assert.equal(await page.getByLabel('Program').inputValue(), BUGGY, 'the loop keeps the buggy program');
  assert.deepEqual(await score(page), [marks.length, marks.length], 'the answers are kept');
  await page.getByRole('button', { name: 'Check fix' }).click();
  const result = page.getByTestId('fix-result');
  await result.waitFor({ timeout: STEP });
  assert.equal(await result.getAttribute('data-labelled-total'), String(marks.length));
  await page.screenshot({ path: join(screenshots, 'classroom-student-repair-checked.png'), fullPage: true });
  await context.close();
});

/** How many pixels the page is wider than the viewport. */
async function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test('gallery exercises open from the examples menu in student mode; every classroom page fits a phone', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Exercise: median' }).click();
  await page.getByTestId('exercise-title').waitFor();
  assert.match(await page.getByTestId('exercise-title').textContent(), /Median of three/);
  await startIfWaiting(page);
  await nextQuery(page);
  assert.ok(await overflow(page) <= 1, 'student mode fits a phone');
  await page.screenshot({ path: join(screenshots, 'classroom-phone-student.png'), fullPage: true });
  await page.getByRole('button', { name: 'Leave the exercise (your work is kept)' }).click();
  await page.getByRole('button', { name: 'Author exercise' }).click();
  await page.reload();
  await page.getByLabel('Reference program').waitFor();
  assert.equal(await page.getByTestId('exercise-title').count(), 0, 'a reload stays on the author page');
  assert.ok(await overflow(page) <= 1, 'the author page fits a phone');
  await page.getByRole('button', { name: 'Teacher view' }).click();
  if (reports.length) {
    await page.locator('#report-files').setInputFiles(reports);
    await page.locator('[data-testid=class-table]').waitFor({ timeout: STEP });
  }
  assert.ok(await overflow(page) <= 1, 'the teacher page fits a phone (the table scrolls inside)');
  await page.screenshot({ path: join(screenshots, 'classroom-phone-teacher.png'), fullPage: true });
  await page.getByRole('button', { name: 'Playground', exact: true }).click();
  assert.equal(await page.getByTestId('exercise-title').count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Start' }).count(), 1, 'back in the playground');
  await context.close();
});

test('Check fix grades like a course grader: a fix wrong only on 901..1000 of the range 1..1000 is rejected with the first input where it differs', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  const program = (cond) => `#include <stdio.h>\n\nint main(void) {\n    int n;\n    scanf("%d", &n);\n    if (${cond})\n        printf("YES\\n");\n    else\n        printf("NO\\n");\n    return 0;\n}\n`;
  await page.getByRole('button', { name: 'Author exercise' }).click();
  await page.getByLabel('Title').fill('Lucky seven');
  await page.getByLabel('Instructions').fill('Print YES for 7 and NO for every other n in 1..1000.');
  await page.getByLabel('Buggy program').fill(program('n == 8'));
  await page.getByLabel('Reference program').fill(program('n == 7'));
  await page.getByLabel('Failing input').fill('7');
  await page.locator('details.ranges summary').click();
  await page.getByLabel('x1 minimum').fill('1');
  await page.getByLabel('x1 maximum').fill('1000');
  await page.getByLabel('Label budget').fill('3');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByTestId('exercise-title').waitFor();
  await page.getByLabel('Your fix').fill(program('n == 7 || n > 900'));
  await page.getByRole('button', { name: 'Check fix' }).click();
  const result = page.getByTestId('fix-result');
  await result.waitFor({ timeout: STEP });
  assert.equal(await result.getAttribute('data-all-pass'), 'false', 'the fix is rejected');
  assert.equal(await result.getAttribute('data-whole-range'), 'true', 'every input of the small range was checked');
  assert.equal(Number(await result.getAttribute('data-systematic-total')), 1000);
  assert.equal(Number(await result.getAttribute('data-systematic-passed')), 900);
  assert.match(await result.textContent(), /First input where it still differs: 901/);
  await page.screenshot({ path: join(screenshots, 'classroom-fix-rejected.png'), fullPage: true });
  // The right fix passes the same checks.
  await page.getByLabel('Your fix').fill(program('n == 7'));
  await page.getByRole('button', { name: 'Check fix' }).click();
  await page.locator('[data-testid=fix-result][data-all-pass=true]').waitFor({ timeout: STEP });
  await context.close();
});
