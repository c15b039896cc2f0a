// End-to-end: scripts/serve (trunk serve) prints its address once, only when the page answers; the page it serves loads with no console error (no live-reload script against the CSP); Ctrl-C stops the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { launchBrowser, screenshots } from './harness.mjs';

const root = new URL('../../', import.meta.url).pathname;

/** Resolves to `value` after `ms`, without keeping the process alive. */
const after = (ms, value) => new Promise((r) => setTimeout(() => r(value), ms).unref());

/** A port nothing listens on now. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('scripts/serve: the address once the page answers, no console error, Ctrl-C stops it', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  // scripts/test has built the page with the same profile (trunk build --release), so
  // cargo has nothing to compile; Trunk's own dist is a separate folder here, so the
  // other tests' dist/ is left alone.
  const serve = spawn(join(root, 'scripts/serve'), [], {
    cwd: root,
    env: { ...process.env, PORT: String(port), TRUNK_BUILD_DIST: join(root, 'target/e2e-serve-dist') },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so cleanup can stop everything it started
  });
  let out = '';
  let err = '';
  serve.stdout.on('data', (d) => { out += d; });
  serve.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => serve.on('exit', (code, signal) => resolve({ code, signal })));
  const line = `fixloop playground: ${url}`;
  let browser;
  try {
    const started = Date.now();
    while (!out.includes(line)) {
      const done = await Promise.race([exited, after(500, null)]);
      assert.equal(done, null, `scripts/serve exited early: ${JSON.stringify(done)}\n${out}\n${err}`);
      assert.ok(Date.now() - started < 15 * 60 * 1000, `no address after 15 minutes:\n${out}\n${err}`);
    }
    console.log(`scripts/serve printed its address after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The address is printed only when it answers.
    const first = await fetch(url);
    assert.equal(first.status, 200);
    const html = await first.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script (live reload is off)');
    assert.match(out, /building the page/);

    browser = await launchBrowser();
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content.Security.Policy|Refused to/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(url);
    await page.waitForSelector('html[data-ready-ms]');
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 20000 });
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.query[data-query-input], [data-testid=finished]').first().waitFor({ timeout: 90000 });
    await page.screenshot({ path: join(screenshots, 'serve.png'), fullPage: true });
    assert.deepEqual(problems, [], 'no console error under trunk serve');
    await browser.close();
    browser = null;

    // Ctrl-C to the script alone: it stops trunk and exits.
    process.kill(serve.pid, 'SIGINT');
    const end = await Promise.race([exited, after(30000, 'still running')]);
    assert.notEqual(end, 'still running', 'scripts/serve ended after SIGINT');
    await assert.rejects(fetch(url), 'the server is gone');
    assert.equal(out.split(line).length - 1, 1, `the address printed exactly once:\n${out}`);
  } finally {
    await browser?.close();
    if (serve.exitCode === null && serve.signalCode === null) {
      // A failed assertion left it running: TERM lets it stop trunk's process group.
      serve.kill('SIGTERM');
      await Promise.race([exited, after(10000)]);
      try { process.kill(-serve.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  }
});
