// End-to-end: the gallery examples whose fix no single edit of an operator, constant or variable makes - a leap-year rule that needs a remainder the program never wrote, a sum whose formula is synthesised, and a sum and a product both wrong (two edits) - are repaired in the browser at the page's defaults, answered as a person.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveDist, launchBrowser, screenshots, nextQuery, answerAsPerson, nextChoice, answerChoice } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const isLeap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const leap = (input) => (isLeap(Number(input.trim())) ? 'leap' : 'common');
const sumAndProduct = (input) => { const [a, b] = input.trim().split(/\s+/).map(Number); return `${a + b} ${a * b}`; };
const sum = (input) => { const n = Number(input.trim()); return String((n * (n + 1)) / 2); };

/** Opens gallery example `title`, labels every run as a person, repairs and answers every question; resolves to the top patch's added lines. */
async function repairExample(page, title, right, shot) {
  await page.goto(server.url);
  await page.getByRole('button', { name: title }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  while (await nextQuery(page)) await answerAsPerson(page, right);
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  let asked = 0;
  for (let q = await nextChoice(page); q; q = await nextChoice(page)) {
    await answerChoice(page, right);
    asked += 1;
    assert.ok(asked <= 5, 'within the question budget');
  }
  await page.screenshot({ path: join(screenshots, shot), fullPage: true });
  const diff = await patches.locator('.patch').first().locator('.diff').textContent();
  return diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
}

test('Leap year: the missing 400-year rule is found and checked on every year', async () => {
  const page = await browser.newPage();
  const added = await repairExample(page, 'Leap year', leap, 'reach-1-leap-year.png');
  assert.equal(added.length, 1, added.join('\n'));
  const cond = /if \((.*)\)\s*$/.exec(added[0])?.[1];
  assert.ok(cond, added[0]);
  assert.match(cond, /y % 400 == 0/);
  const f = new Function('y', `return Boolean(${cond});`);
  for (let y = 1; y <= 3000; y++) assert.equal(f(y), isLeap(y), `${cond} at ${y}`);
  await page.close();
});

test('Sum 1..n (formula): n * (n + 1) / 2 is synthesised and written as a person writes it', async () => {
  const page = await browser.newPage();
  const added = await repairExample(page, 'Sum 1..n (formula)', sum, 'reach-2-sum-formula.png');
  assert.equal(added.length, 1, added.join('\n'));
  assert.match(added[0], /printf\("%d\\n", n \* \(n \+ 1\) \/ 2\);/);
  await page.close();
});

test('Sum and product: two wrong lines get one patch of two edits', async () => {
  const page = await browser.newPage();
  const added = await repairExample(page, 'Sum and product', sumAndProduct, 'reach-3-sum-product.png');
  assert.deepEqual(added.map((l) => l.slice(1).trim()), ['int sum = a + b;', 'int product = a * b;'], added.join('\n'));
  const diff = await page.getByRole('region', { name: 'Patches' }).locator('.patch').first().locator('.diff').textContent();
  const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
  assert.deepEqual(removed.map((l) => l.slice(1).trim()), ['int sum = a - b;', 'int product = a + b;'], 'one patch changes both lines');
  await page.close();
});
