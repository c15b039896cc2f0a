// End-to-end: the page as a person meets it - the expected output left blank, Bug or Not a bug on each run, an output typed only when repair asks for one - ends with the right patch; a dead end offers its next step; a patch that moved a boundary is asked about beside it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveDist, launchBrowser, screenshots, nextQuery, answerAsPerson, nextChoice, answerChoice, labelsUsed, STEP } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The triangle as a function (the paper's form): 1 equilateral, 2 isosceles, 3 scalene, 4 invalid. */
const CLASSIFY = `int classify(int a, int b, int c) {
    if (a <= 0 || b <= 0 || c <= 0) return 4;
    if (a >= b + c || b >= a + c || c >= a + b) return 4;
    if (a == b == c) return 1;
    if (a == b || b == c || a == c) return 2;
    return 3;
}
`;

function classify(input) {
  const [a, b, c] = input.trim().split(/\s+/).map(Number);
  if (a <= 0 || b <= 0 || c <= 0) return '4';
  if (a >= b + c || b >= a + c || c >= a + b) return '4';
  if (a === b && b === c) return '1';
  if (a === b || b === c || a === c) return '2';
  return '3';
}

/** Blackjack points (Codeflaws 104-A): 0 are needed for every n > 21. */
const BLACKJACK = `#include <stdio.h>
int main(void) {
    int n;
    scanf("%d", &n);
    if (n <= 10) printf("0");
    else if (n - 10 == 10) printf("15");
    else printf("4");
    return 0;
}
`;

function blackjack(input) {
  const n = Number(input.trim());
  if (n <= 10 || n > 21) return '0';
  return n === 20 ? '15' : '4';
}

/** Types `program` and `failing` with the expected output left blank, and labels every run as a person. */
async function labelAsPerson(page, program, failing, right) {
  await page.goto(server.url);
  await page.getByLabel('Program').fill(program);
  await page.getByLabel('Failing input').fill(failing);
  await page.getByLabel('Expected output (optional)').fill('');
  await page.getByRole('button', { name: 'Start' }).click();
  while (await nextQuery(page)) await answerAsPerson(page, right);
  const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('fixloop-session-')).map((k) => JSON.parse(localStorage.getItem(k))));
  assert.ok(saved.some((s) => s.answers?.length && s.answers.every((a) => a.expected === undefined)), 'no label carries an output');
}

test('the triangle function with a blank expected output ends with the right patch', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await labelAsPerson(page, CLASSIFY, '2 2 2', classify);
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  // Repair asks what 2 2 2 should print, with the program's own output ready to edit.
  const first = await nextChoice(page);
  assert.deepEqual(first, { input: '2 2 2', kind: 'output' });
  assert.equal(await page.getByLabel('What it should print').inputValue(), '2');
  assert.match(await page.locator('.query.choice').textContent(), /your program printed/);
  assert.ok(await page.getByRole('button', { name: "I don't know" }).isVisible());
  await page.screenshot({ path: join(screenshots, 'person-1-output-question.png'), fullPage: true });
  let asked = 0;
  for (let q = first; q; q = await nextChoice(page)) {
    await answerChoice(page, classify);
    asked += 1;
    assert.ok(asked <= 5, 'within the question budget');
  }
  const top = patches.locator('.patch').first();
  const diff = await top.locator('.diff').textContent();
  const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
  assert.equal(added.length, 1, diff);
  const cond = /if \((.*)\) return 1;/.exec(added[0])?.[1];
  assert.ok(cond, added[0]);
  const f = new Function('a', 'b', 'c', `return Boolean(${cond});`);
  for (let a = 1; a <= 8; a++) for (let b = 1; b <= 8; b++) for (let c = 1; c <= 8; c++) {
    assert.equal(f(a, b, c), a === b && b === c, `${cond} at ${a} ${b} ${c}`);
  }
  // "The fix" only when every boundary was asked; otherwise the best candidate, with
  // what is unconfirmed and a button that asks more.
  const verdict = await patches.getByTestId('verdict').textContent();
  if (!/Patch 1 is the fix:/.test(verdict)) {
    assert.match(verdict, /best candidate/, verdict);
    assert.match(await top.locator('.meta').textContent(), /Patch 1 - best candidate/);
    assert.ok(await patches.getByTestId('next-steps').isVisible(), 'a next step is offered');
  }
  await page.screenshot({ path: join(screenshots, 'person-2-patched.png'), fullPage: true });
  await context.close();
});

test('a patch that moved a boundary is asked about on both sides of it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await labelAsPerson(page, BLACKJACK, '25', blackjack);
  await page.getByRole('region', { name: 'Patches' }).getByRole('button', { name: 'Repair' }).click();
  const kinds = [];
  for (let q = await nextChoice(page); q; q = await nextChoice(page)) {
    kinds.push(q.kind);
    if (q.kind === 'boundary' && kinds.filter((k) => k === 'boundary').length === 1) {
      assert.match(await page.locator('.query.choice .question').textContent(), /moves where your program's answer changes/);
      await page.screenshot({ path: join(screenshots, 'person-3-boundary.png'), fullPage: true });
    }
    await answerChoice(page, blackjack);
  }
  assert.ok(kinds.includes('boundary'), `a boundary question among ${kinds}`);
  // Whatever the page says, it never calls a wrong patch the fix: 22 must print 0.
  const verdict = await page.getByTestId('verdict').textContent();
  if (/Patch 1 is the fix:/.test(verdict)) {
    await page.locator('.patch').first().getByRole('button', { name: 'Apply' }).click();
    await page.getByLabel('Run on input').fill('22');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-result').waitFor({ timeout: STEP });
    assert.equal((await page.getByTestId('run-result').locator('pre.stdout').first().textContent()).trim(), '0');
  }
  await context.close();
});

test('a dead end names the next step and offers it as a button', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The median needs two conditions fixed: no single edit passes every test.
  const program = `#include <stdio.h>
int main(void) {
    int x, y, z;
    scanf("%d%d%d", &x, &y, &z);
    if (x >= y && x <= z)
        printf("%d\\n", x);
    else if (y >= x && y <= z)
        printf("%d\\n", y);
    else
        printf("%d\\n", z);
    return 0;
}
`;
  const right = (input) => String(input.trim().split(/\s+/).map(Number).sort((a, b) => a - b)[1]);
  await labelAsPerson(page, program, '6 8 2', right);
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  for (let q = await nextChoice(page); q; q = await nextChoice(page)) {
    // "I don't know" to the failing input's output: the test only asks for a change.
    if (q.kind === 'output' && q.input === '6 8 2') {
      await page.getByRole('button', { name: "I don't know" }).click();
      await page.waitForFunction((asked) => document.querySelector('.query.choice')?.getAttribute('data-choice-input') !== asked, q.input, { timeout: STEP });
      continue;
    }
    await answerChoice(page, right);
  }
  const verdict = await patches.getByTestId('verdict').textContent();
  assert.doesNotMatch(verdict, /Patch 1 is the fix:/, 'nobody gave the failing input its output');
  const steps = patches.getByTestId('next-steps');
  assert.ok(await steps.isVisible(), `a next step after: ${verdict}`);
  await page.screenshot({ path: join(screenshots, 'person-4-next-step.png'), fullPage: true });
  // Label more runs: the loop goes on with five more labels.
  const more = steps.getByRole('button', { name: 'Label more runs' });
  if (await more.count()) {
    const used = await labelsUsed(page);
    await more.click();
    assert.ok(await nextQuery(page), 'a new question');
    assert.match(await page.getByTestId('budget').textContent(), new RegExp(`Labels used: ${used} of ${used + 5}`));
  } else {
    await steps.getByRole('button').first().click();
    await nextChoice(page);
  }
  await context.close();
});
