// End-to-end: the flagship as a newcomer meets it: the triangle example at the page's defaults, every label and every question about patches answered truthfully, ends with the right patch on top; the questions survive reload and share links.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveDist, launchBrowser, screenshots, walkthroughShot, STEP, nextQuery, answer, nextChoice, answerChoice, labelsUsed, triangle } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Asserts each of `terms` has a "?" on screen with a one-line explanation (hover: title). */
async function explained(page, terms) {
  for (const term of terms) {
    const e = page.locator(`details.explain[data-term="${term}"]`).first();
    assert.ok(await e.isVisible(), `an explanation of ${term}`);
    const line = await e.getAttribute('title');
    assert.ok(line.length > 30 && !line.includes('\n'), `${term}: ${line}`);
  }
}

/** Whether a C condition, read as JavaScript, is the equilateral test on every side triple of 1..10. */
function isEquilateralTest(cond) {
  const f = new Function('a', 'b', 'c', `return Boolean(${cond});`);
  for (let a = 1; a <= 10; a++) for (let b = 1; b <= 10; b++) for (let c = 1; c <= 10; c++) {
    if (f(a, b, c) !== (a === b && b === c)) return false;
  }
  return true;
}

test('the triangle example with truthful answers ends with the right patch on top, as a person writes it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Triangle (Learn2fix)' }).click();
  assert.match(await page.getByTestId('fuzz-summary').textContent(), /near the failing input, any value/);
  // Before Start: How it works, with its figure of the loop, is open beside the editor.
  const how = page.getByTestId('how-it-works');
  assert.notEqual(await how.getAttribute('open'), null, 'How it works is open before Start');
  assert.ok(await how.locator('svg.how-figure').isVisible(), 'the figure of the loop');
  await walkthroughShot(page, '1-start', page.getByRole('button', { name: 'Start' }));
  await page.getByRole('button', { name: 'Start' }).click();
  let explainedQuestion = false;
  while (await nextQuery(page)) {
    if (!explainedQuestion) {
      explainedQuestion = true;
      await explained(page, ['generated', 'asked because', 'label budget', 'committee', 'seed']);
      await walkthroughShot(page, '2-question', page.locator('.query'));
    }
    await answer(page, triangle);
  }
  assert.equal(await how.getAttribute('open'), null, 'How it works waits, closed, during a session');
  const oracle = page.getByRole('region', { name: 'Oracle' });
  const formula = (await oracle.getByTestId('formula').textContent()).trim();
  assert.doesNotMatch(formula, /x\d/, `the formula names the program's variables: ${formula}`);
  assert.match(formula, /\b[abc]\b/, formula);
  assert.match(await oracle.getByTestId('encoding').textContent(), /out: .*\d+ = (invalid|isosceles|scalene|equilateral)/);
  const axes = await oracle.locator('svg text').allTextContents();
  assert.ok(axes.every((t) => !/-0 \./.test(t)), `axes: ${axes}`);
  // The ends stay inside the int range of the sides, whatever the questions reached.
  const ends = axes.join(' ').match(/-?\d+(\.\d+)?/g).map(Number);
  assert.ok(ends.every((v) => v >= -2147483648 && v <= 2147483647), `axes: ${axes}`);
  // A few far fuzzed runs (a side of -2147483648) do not squash the others into a corner:
  // the plot zooms on the failing input and draws them, faded, at its edge.
  const window = oracle.getByTestId('plot-window');
  if (await window.count()) {
    const outside = Number(await window.getAttribute('data-outside'));
    assert.equal(await oracle.locator('.pt.outside').count(), outside);
    await window.getByRole('button', { name: 'Show all runs' }).click();
    assert.equal(await oracle.locator('.pt.outside').count(), 0, 'every run inside the frame');
    await window.getByRole('button', { name: 'Zoom on the failing input' }).click();
    assert.equal(await oracle.locator('.pt.outside').count(), outside);
  }
  await page.screenshot({ path: join(screenshots, 'choose-1-labelled.png'), fullPage: true });
  await walkthroughShot(page, '3-oracle', oracle);

  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  let asked = 0;
  let more = 0;
  for (;;) {
    const pending = await nextChoice(page);
    if (!pending) {
      // The budget spent before every input beside the patch's boundaries was asked:
      // patch 1 is the best candidate, and the page offers more questions.
      const step = patches.getByRole('button', { name: 'Ask me more questions' });
      if (!(await step.count())) break;
      assert.match(await patches.getByTestId('verdict').textContent(), /best candidate/);
      if (more === 0) await page.screenshot({ path: join(screenshots, 'choose-2b-best-candidate.png'), fullPage: true });
      more += 1;
      assert.ok(more <= 2, 'at most two rounds of more questions');
      await step.click();
      continue;
    }
    const { input, kind } = pending;
    // Each question says why it is asked: the patches disagree, the patch changes the
    // program's answer, the input is beside a boundary the patch moved, or the learned
    // oracle still doubts the patch's answer.
    const why = await page.locator('.query.choice .question').textContent();
    assert.match(why, /^For input \S.* (the patches print different answers|the patch changes what your program prints|the patch moves where your program's answer changes, and this input is next to that edge|the learned bug oracle still calls the patch's answer a bug)\. Which (answer )?is right\?$/, why);
    assert.notEqual(kind, 'output', 'the example gives the expected output, and every Bug came with one');
    if (asked === 0) {
      await page.screenshot({ path: join(screenshots, 'choose-2-question.png'), fullPage: true });
      await walkthroughShot(page, '4-choice', page.locator('.query.choice'));
      const text = await page.locator('.query.choice').textContent();
      assert.match(text, new RegExp(`For input ${input}`), text);
    }
    await answerChoice(page, triangle);
    asked += 1;
    assert.ok(asked <= 5 + 3 * more, 'within the question budget');
  }
  const verdict = await patches.getByTestId('verdict').textContent();
  assert.match(verdict, /Patch 1 is the fix:/, verdict);
  const top = patches.locator('.patch').first();
  assert.match(await top.locator('.meta').textContent(), /Patch 1 - the fix/);
  // What was checked, in short sentences whose counts agree with the page's: the failing
  // input and every answer given (labels and answers about patches).
  const meta = await top.locator('.meta').textContent();
  const checked = /Passes all (\d+) tests \(the failing input and (?:your (\d+)|(\d+) of your (\d+)) answers\)\. Agrees with the learned oracle on \d+ of \d+ fresh inputs\./.exec(meta);
  assert.ok(checked, meta);
  const answers = Number(checked[2] ?? checked[4]);
  assert.equal(answers, (await labelsUsed(page)) + asked, `every answer is counted: ${meta}`);
  assert.equal(Number(checked[1]), 1 + Number(checked[2] ?? checked[3]), meta);
  const diff = await top.locator('.diff').textContent();
  const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
  assert.equal(added.length, 1, diff);
  const cond = /else if \((.*)\)\s*$/.exec(added[0])?.[1];
  assert.ok(cond, added[0]);
  assert.doesNotMatch(cond, /- 0|\* 1|!!/, cond);
  assert.ok(isEquilateralTest(cond), `the top patch's condition ${cond} is the equilateral test`);
  assert.ok(cond.length <= 'a == b && b == c'.length + 2, `as simple as a == b && b == c: ${cond}`);
  await page.screenshot({ path: join(screenshots, 'choose-3-fix.png'), fullPage: true });
  await walkthroughShot(page, '5-fix', top);
  await explained(page, ['formula', 'plot', 'cost', 'checked', 'verdict', 'stop']);
  // A tap opens the line in place (phones have no hover).
  const cost = top.locator('details.explain[data-term="cost"]');
  await cost.locator('summary').click();
  assert.ok(await cost.locator('.explain-text').isVisible(), 'the tapped explanation is shown');
  assert.match(await cost.locator('.explain-text').textContent(), /How big the change is/);
  await page.screenshot({ path: join(screenshots, 'choose-4-explained.png') });
  // Apply puts the fix in the editor (the session before it one click away); Run shows it.
  await top.getByRole('button', { name: 'Apply' }).click();
  await page.getByLabel('Run on input').fill('3 3 3');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByTestId('run-result').waitFor({ timeout: STEP });
  assert.equal((await page.getByTestId('run-result').locator('pre.stdout').first().textContent()).trim(), 'equilateral');
  await walkthroughShot(page, '6-applied', page.getByTestId('put-aside'));
  await context.close();
});

test('a question about patches survives a reload and a share link exactly', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Triangle (Learn2fix)' }).click();
  // Seeds differ in how many questions they need; find one that asks at least two.
  let seed = 1;
  for (;; seed++) {
    assert.ok(seed <= 8, 'some seed asks two questions about patches');
    await page.getByLabel('Seed').fill(String(seed));
    await page.getByRole('button', { name: 'Start' }).click();
    while (await nextQuery(page)) await answer(page, triangle);
    await page.getByRole('region', { name: 'Patches' }).getByRole('button', { name: 'Repair' }).click();
    const first = await nextChoice(page);
    if (first) {
      await answerChoice(page, triangle);
      const second = await nextChoice(page);
      if (second) break;
    }
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Edit program and settings (drops answers)' }).click();
    await page.getByRole('button', { name: 'Start' }).waitFor();
  }
  const pending = await nextChoice(page);
  const options = await page.locator('.query.choice button.option').allTextContents();
  const verdict = await page.getByTestId('verdict').textContent();
  await page.reload();
  assert.deepEqual(await nextChoice(page), pending, 'the same question after reload');
  assert.deepEqual(await page.locator('.query.choice button.option').allTextContents(), options);
  assert.equal(await page.getByTestId('verdict').textContent(), verdict);
  assert.match(await page.getByTestId('questions').textContent(), /1 of 5 answered/);

  await page.getByRole('button', { name: 'Share' }).click();

  const url = await page.locator('[data-share-url]').getAttribute('data-share-url');
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(url);
  assert.deepEqual(await nextChoice(other), pending, 'the same question from the link');
  assert.deepEqual(await other.locator('.query.choice button.option').allTextContents(), options);
  assert.equal(await other.getByTestId('verdict').textContent(), verdict);
  // Answered in the linked copy, it goes on to the same end as the original.
  await answerChoice(other, triangle);
  await answerChoice(page, triangle);
  for (;;) {
    const [a, b] = [await nextChoice(page), await nextChoice(other)];
    assert.deepEqual(a, b, 'the same next question in both');
    if (!a) break;
    await answerChoice(page, triangle);
    await answerChoice(other, triangle);
  }
  assert.equal(await other.getByTestId('verdict').textContent(), await page.getByTestId('verdict').textContent());
  assert.equal(await other.locator('.patch .diff').first().textContent(), await page.locator('.patch .diff').first().textContent());
  await fresh.close();
  await context.close();
});
