// In Chromium: the book (the mdBook of docs/, built into the site at book/) opens from the page's
// link, offline — every request stays on the site's host — and its command-line reference shows
// a verb's options (the text of `mcts search --help`, docs/cli/help/search.txt).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, assertClean, boardReady, screenshot, ROOT } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** Records, for every page of `context` (the popup the link opens included), the requests that
 * leave the site's origin and those that fail. */
function watchContext(context, origin) {
  const seen = { foreign: [], failed: [] };
  context.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:')) seen.foreign.push(u);
  });
  // A request the browser cancels itself (`net::ERR_ABORTED`: a page's favicon still loading
  // when a click navigates away, which a busy machine makes likely) did not fail: an offline
  // request that leaves the site is in `foreign`, a missing file answers 404 below.
  context.on('requestfailed', (r) => {
    const error = r.failure()?.errorText;
    if (error !== 'net::ERR_ABORTED') seen.failed.push(`${r.url()} ${error}`);
  });
  context.on('response', (r) => {
    if (r.status() >= 400) seen.failed.push(`${r.url()} HTTP ${r.status()}`);
  });
  return seen;
}

test("the page's Book link opens the book, which loads nothing from another host", async () => {
  const page = await h.openPage('?game=hex:7');
  await boardReady(page);
  const seen = watchContext(page.context(), new URL(h.url).origin);
  const link = page.locator('#book-link');
  assert.equal(await link.isVisible(), true, 'the header shows the Book link');
  const [book] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await book.waitForLoadState('load');
  assert.match(new URL(book.url()).pathname, /\/book\/index\.html$/, 'the link goes to the book in the site');
  assert.equal(await book.locator('main h1').first().textContent(), 'MCTS playground');
  // The sidebar lists the book's parts (mdBook builds it from docs/SUMMARY.md).
  const sidebar = book.locator('#sidebar');
  await sidebar.getByRole('link', { name: 'Seeing the search' }).waitFor();
  for (const part of ['Using it', 'The engine', 'Contributing', 'Research']) {
    assert.equal(await sidebar.getByText(part, { exact: true }).count(), 1, `the sidebar has the part "${part}"`);
  }
  // Its fonts, styles and scripts are the book's own (mdBook bundles them); the search index too.
  await book.waitForFunction(() => document.fonts.status === 'loaded');
  await screenshot(book, 'book-index');
  assert.deepEqual(seen.foreign, [], 'requests leaving the site');
  assert.deepEqual(seen.failed, [], 'failed requests');
  assertClean(assert, page);
});

test("the command-line reference shows a verb's options from its --help", async () => {
  const page = await h.openPage('book/index.html');
  const seen = watchContext(page.context(), new URL(h.url).origin);
  await page.locator('#sidebar').getByRole('link', { name: 'mcts search' }).click();
  await page.waitForURL(/\/book\/cli\/search\.html$/);
  assert.equal(await page.locator('main h1').first().textContent(), 'mcts search');
  const help = readFileSync(join(ROOT, 'docs', 'cli', 'help', 'search.txt'), 'utf8');
  const shown = await page.locator('main pre code').filter({ hasText: 'Usage: mcts search' }).textContent();
  assert.equal(shown.trim(), help.trim(), 'the page shows the text of `mcts search --help`');
  for (const option of ['--game', '--algo', '--iterations', '--json']) assert.ok(shown.includes(option), `it lists ${option}`);
  await screenshot(page, 'book-cli-search');
  assert.deepEqual(seen.foreign, [], 'requests leaving the site');
  assert.deepEqual(seen.failed, [], 'failed requests');
});

test("the book's search works offline: its index is the book's own", async () => {
  const page = await h.openPage('book/index.html');
  const seen = watchContext(page.context(), new URL(h.url).origin);
  await page.locator('#search-toggle').click();
  // mdBook loads searchindex.js from the book when the search opens; it searches on a key's release
  // (or, when the index comes later than the typing, at once with what is typed), then lists the
  // pages found.
  await page.locator('#searchbar').fill('proof-number');
  await page.locator('#searchbar').press('End');
  const hit = page.locator('#searchresults a', { hasText: 'exact solvers' }).first();
  await hit.waitFor();
  assert.match(await hit.getAttribute('href'), /engine\/solver\.html/);
  assert.ok(
    page.served().some((r) => r.path.endsWith('/book/searchindex.js')),
    'the index came from the book',
  );
  assert.deepEqual(seen.foreign, [], 'requests leaving the site');
  assert.deepEqual(seen.failed, [], 'failed requests');
});
