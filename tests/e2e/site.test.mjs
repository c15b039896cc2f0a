// End-to-end: the folder scripts/build-site makes works from a static host's sub-path - the flagship session runs there to a patch with no console error, and after the first load it works offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { serveDist, launchBrowser, screenshots, nextQuery, answer, nextChoice, answerChoice, STEP, triangle } from './harness.mjs';

const root = new URL('../../', import.meta.url).pathname;
// scripts/test builds site/ before the end-to-end tests; run alone, this builds it once.
const site = process.env.FIXLOOP_SITE ?? join(root, 'site');
// FIXLOOP_SITE_URL=http://127.0.0.1:8080/course/fixloop/ runs the same tests against a
// real web server (nginx, Apache: docs/deploy.md) that serves the folder there.
const external = process.env.FIXLOOP_SITE_URL;
const PREFIX = external ? new URL(external).pathname : '/course/fixloop/';

let server, browser;
before(async () => {
  if (external) {
    server = { url: external, close: async () => {} };
  } else {
    if (!existsSync(join(site, 'index.html'))) {
      const built = spawnSync(join(root, 'scripts/build-site'), [site], { stdio: 'inherit' });
      assert.equal(built.status, 0, 'scripts/build-site');
    }
    server = await serveDist({ root: site, prefix: PREFIX });
  }
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

/** Collects every console error, uncaught page error, CSP violation and request outside the prefix. */
function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy|Refused to/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !url.pathname.startsWith(PREFIX)) problems.push(`request outside ${PREFIX}: ${r.url()}`);
  });
  return problems;
}

test(`the built site at a sub-path (${PREFIX}): the preloaded triangle runs to a patch, with no console error`, async () => {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready-ms]');
  assert.match(await page.getByLabel('Program').inputValue(), /scanf/, 'the triangle is preloaded');
  await page.getByRole('button', { name: 'Start' }).click();
  let labels = 0;
  while (await nextQuery(page)) {
    await answer(page, triangle);
    labels += 1;
  }
  assert.ok(labels > 0, 'the worker (loaded from the sub-path) asked questions');
  const patches = page.getByRole('region', { name: 'Patches' });
  await patches.getByRole('button', { name: 'Repair' }).click();
  for (let q = await nextChoice(page); q; q = await nextChoice(page)) await answerChoice(page, triangle);
  const first = patches.locator('.patch').first();
  await first.waitFor({ timeout: STEP });
  assert.equal(await first.getAttribute('data-passed'), await first.getAttribute('data-total'), 'the patch passes every labelled test');
  // The service worker is the folder's, scoped to the sub-path.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, server.url);
  await page.screenshot({ path: join(screenshots, 'site-subpath-patch.png'), fullPage: true });
  assert.deepEqual(problems, [], 'no console error, CSP violation or request outside the sub-path');
  await context.close();
});

test('the built site at a sub-path works offline after the first load', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready-ms]');
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 20000 });
  // The service worker caches on install; wait until the worker's files are in its cache.
  await page.waitForFunction(async () => {
    const names = await caches.keys();
    for (const name of names) {
      const cache = await caches.open(name);
      if (await cache.match('fixloop-worker_bg.wasm')) return true;
    }
    return false;
  }, null, { timeout: 20000 });
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('html[data-ready-ms]', { timeout: 20000 });
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('.query[data-query-input]').waitFor({ timeout: STEP });
  await answer(page, triangle);
  await page.screenshot({ path: join(screenshots, 'site-subpath-offline.png'), fullPage: true });
  assert.deepEqual(problems, [], 'no console error offline');
  await context.close();
});
