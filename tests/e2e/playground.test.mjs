// End-to-end: the playground compiles and runs a program in wasm, and shows parse errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveDist, launchBrowser, screenshots } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('runs the example program on an input', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  const program = page.getByLabel('Program');
  await program.waitFor();
  assert.match(await program.inputValue(), /scanf/);
  await page.getByLabel('Input').fill('2 2 2');
  await page.getByRole('button', { name: 'Run' }).click();
  // The example's bug: (2 == 2) == 2 is false, so an equilateral triangle is called isosceles.
  await page.getByTestId('stdout').waitFor();
  assert.equal((await page.getByTestId('stdout').textContent()).trim(), 'isosceles');
  await page.getByLabel('Input').fill('3 4 5');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=stdout]')?.textContent.trim() === 'scalene');
  await page.screenshot({ path: join(screenshots, 'run.png'), fullPage: true });
  await page.close();
});

test('a parse error is shown with its line', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').fill('int main(void) {\n  int x = 1\n  return x;\n}\n');
  await page.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /2:\d+/);
  await page.screenshot({ path: join(screenshots, 'parse-error.png'), fullPage: true });
  await page.close();
});

test('a runaway program stops at its fuel limit', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByLabel('Program').fill('int main(void) { while (1) { } return 0; }\n');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('outcome').waitFor();
  assert.match(await page.getByTestId('outcome').textContent(), /timeout|fuel/i);
  await page.close();
});
