// Loads /docs of a running Beurs server in headless Chromium, checks that Redoc rendered the
// reference from that server alone, and writes a screenshot of the top of the page.
//
//   node screenshot.mjs http://127.0.0.1:PORT ../../docs/img/reference.png
//
// Chromium is the system's (/usr/bin/chromium, or $CHROMIUM); playwright-core downloads none.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
if (!base || !out) {
  console.error('usage: node screenshot.mjs <server base URL> <png path>');
  process.exit(2);
}
const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);
const failures = [];
const fail = (message) => failures.push(message);

const profile = mkdtempSync(join(tmpdir(), 'beurs-reference-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
  viewport: { width: 1280, height: 900 },
  deviceScaleFactor: 1,
});
try {
  // Every request the page makes must stay on this machine; anything else is refused and
  // reported.
  const requests = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    requests.push(url.href);
    if (!['http:', 'https:'].includes(url.protocol) || loopback.has(url.hostname)) {
      return route.continue();
    }
    fail(`request to another host: ${url.href}`);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') fail(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => fail(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const url = new URL(request.url());
    if (loopback.has(url.hostname)) fail(`failed: ${request.url()} ${request.failure()?.errorText}`);
  });

  const started = Date.now();
  const response = await page.goto(new URL('/docs', base).href, { waitUntil: 'networkidle' });
  if (response?.status() !== 200) fail(`/docs answered ${response?.status()}`);
  // Redoc has rendered once the operations are in the page.
  await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const rendered = Date.now() - started;

  const title = await page.title();
  if (title !== 'Beurs API reference') fail(`title: ${JSON.stringify(title)}`);
  const text = await page.locator('body').innerText();
  const expected = [
    // the guide (info.description)
    'Getting started', 'Authentication', 'Moves, versions and retries', 'Webhook signatures',
    // the security scheme Redoc injects into the guide
    'bt_seat_… or bt_admin_…',
    // operations
    'Create a game', 'Submit a move', "List the caller's legal actions",
    // the webhooks
    'turn: your seat is to act', 'action: a move was made', 'finished: the game is over',
    'reminder: your time runs out soon', "timeout: a seat's time ran out",
  ];
  for (const words of expected) {
    if (!text.includes(words)) fail(`not on the page: ${JSON.stringify(words)}`);
  }
  const operations = await page.locator('[data-section-id^="operation/"]').count();
  // Redoc files the webhooks under their tag, as operations named by their operationId.
  const webhooks = await page.locator('[data-section-id^="operation/webhook_"]').count();
  if (operations < 16) fail(`only ${operations} operations rendered`);
  // Every webhook of the contract, however many it has.
  const spec = await (await fetch(new URL('/openapi.json', base))).json();
  const documented = Object.keys(spec.webhooks ?? {}).length;
  if (webhooks !== documented) fail(`${webhooks} webhooks rendered, not ${documented}`);

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: out, fullPage: false });
  console.log(
    `rendered in ${rendered} ms: ${operations} operations, ${webhooks} of them webhooks, ` +
      `${requests.length} requests (all loopback), screenshot ${out}`,
  );
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length > 0) {
  for (const message of failures) console.error(`FAIL ${message}`);
  process.exit(1);
}
