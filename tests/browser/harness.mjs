// Shared set-up for the browser tests: serve www/dist from a sub-path on 127.0.0.1, launch Debian's
// Chromium through playwright-core (flags from ../shared/TOOLCHAIN.md), and watch the page for
// console errors, failed requests and requests leaving the origin.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
const require = createRequire(join(ROOT, 'www', 'package.json'));
const { chromium } = require('playwright-core');
const { startServer } = await import(join(ROOT, 'www', 'serve.mjs'));

export const SCREENSHOTS = join(here, 'screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

/** Upper bound of every wait (ms): generous, so that a loaded machine only makes the suite slower. */
export const WAIT_MS = 120_000;

/** The sub-path the site is served from: the built site must work from any sub-path. */
export const PREFIX = '/sub/dir/';

/** `mcts solve --openings --json` of a position (the native exact solver, built if missing):
 * move → 'win' | 'draw' | 'loss' for the side to move (draws in Tic-Tac-Toe and Pentago). */
export function nativeOpenings(game, moves) {
  let bin = ['debug', 'release'].map((p) => join(ROOT, 'target', p, 'mcts')).find((b) => existsSync(b));
  if (!bin) {
    execFileSync('cargo', ['build', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });
    bin = join(ROOT, 'target', 'debug', 'mcts');
  }
  const out = JSON.parse(execFileSync(bin, ['solve', '--game', game, '--moves', moves, '--openings', '--json'], { encoding: 'utf8' }));
  return Object.fromEntries(out.openings.map((o) => [o.move, o.value ?? (o.mover_wins ? 'win' : 'loss')]));
}

/** Builds the release `mcts` from the same sources as the wasm (a stale binary would search
 * differently); call once in a test file's `before`, then use {@link native}. */
export function buildNative() {
  execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });
}

/** `mcts VERB ARGS --json` of the release build ({@link buildNative}), parsed. */
export const native = (verb, args) =>
  JSON.parse(execFileSync(join(ROOT, 'target', 'release', 'mcts'), [verb, ...args, '--json'], { cwd: ROOT, encoding: 'utf8' }));

/** Asserts that Compare pane `k` shows the search `want` (`mcts search --json`) of `playouts`
 * playouts: its best move, its line, and the visits of every root move it shows (at least
 * `minShown` of them). */
export async function assertPaneAsNative(assert, page, k, want, playouts, minShown = 5) {
  const got = await paneFigures(page, k);
  assert.equal(got.playouts, String(playouts));
  assert.equal(got.best, want.best_move, `pane ${k + 1}: the native best move`);
  assert.equal(got.pv, want.pv.join(' '), `pane ${k + 1}: the native line`);
  const visits = new Map(want.children.map((c) => [c.move, c.visits]));
  assert.ok(got.visits.length >= Math.min(minShown, want.children.length), `pane ${k + 1}: root moves shown`);
  for (const [move, n] of got.visits) assert.equal(n, visits.get(move), `pane ${k + 1}: visits of ${move} as native`);
}

/** Debian's Chromium through playwright-core, headless, with the flags of ../shared/TOOLCHAIN.md
 * (`CHROMIUM` names another executable). */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Serves the built page's scripts with `edits` (`[from, to]` text pairs) applied to the one
 * that holds every `from` (e.g. a lesson file bundled in), for `openPage`'s `before`. Returns a
 * counter: `rewritten.count` is the number of scripts served edited. */
export function rewriteBundle(page, edits) {
  const rewritten = { count: 0 };
  return {
    rewritten,
    ready: page.route(/\/assets\/.*\.js$/, async (route) => {
      const response = await route.fetch();
      let body = await response.text();
      if (!edits.every(([from]) => body.includes(from))) return route.fulfill({ response });
      for (const [from, to] of edits) body = body.replaceAll(from, to);
      rewritten.count++;
      return route.fulfill({ response, body });
    }),
  };
}

/**
 * Starts the server and the browser. Returns helpers; call `close()` at the end.
 * @returns {Promise<{url: string, browser: any, openPage: (query?: string) => Promise<any>, close: () => Promise<void>}>}
 */
export async function setup() {
  /** Every request the test's server answered, oldest first: `{ method, path, status }`. A test
   * observes the network here, at its own server: a request is in the log before its client
   * gets the answer, whereas DevTools may report a worker's request late or not at all. */
  const served = [];
  const { server, url } = await startServer({
    dir: join(ROOT, 'www', 'dist'),
    port: 0,
    prefix: PREFIX,
    onRequest: (r) => served.push(r),
  });
  const browser = await launchChromium();
  const origin = new URL(url).origin;
  const pages = [];
  /** `before(page)` runs before the page loads (e.g. `page.route` to serve a corrupt file). */
  async function openPage(query = '', { viewport = { width: 1280, height: 900 }, colorScheme = 'light', before = null } = {}) {
    const context = await browser.newContext({ viewport, colorScheme });
    const page = await context.newPage();
    // Waits are bounded generously: a busy 2-core CI machine is slow, and a bound is not a claim
    // about speed. Tests wait for states and events, never for a stretch of time.
    page.setDefaultTimeout(WAIT_MS);
    const problems = { consoleErrors: [], failed: [], foreign: [], pageErrors: [] };
    page.on('console', (m) => {
      if (m.type() === 'error') problems.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
    page.on('requestfailed', (r) => problems.failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.failed.push(`${r.url()} HTTP ${r.status()}`);
    });
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:')) problems.foreign.push(u);
    });
    page.problems = problems;
    // The server's answers from this page's opening on (shared with pages opened later).
    const from = served.length;
    page.served = () => served.slice(from);
    pages.push(context);
    if (before) await before(page);
    await page.goto(url + query);
    return page;
  }
  return {
    url,
    browser,
    openPage,
    served,
    /** The requests the server answered since `mark` (an earlier `served.length`) whose path
     * matches `re`, as paths. */
    servedSince: (mark, re) =>
      served
        .slice(mark)
        .filter((r) => re.test(r.path))
        .map((r) => r.path),
    async close() {
      for (const c of pages) await c.close().catch(() => {});
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

// ---- page helpers ----------------------------------------------------------------------------

/** Waits until the board shows a game (cells drawn, engine answered). */
export async function boardReady(page) {
  await page.waitForSelector('[data-index]');
  await page.waitForFunction(() => document.body.dataset.ply !== undefined);
}

export const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply));
/** The moves of the live game as the move list shows them: the buttons of its line (numbered
 * `data-ply`), wherever they are in the tree — not the other lines, not the moves past the live
 * position after Undo. */
export const moves = (page) =>
  page.$$eval('#moves button[data-ply]', (bs) =>
    bs.sort((a, b) => Number(a.dataset.ply) - Number(b.dataset.ply)).map((b) => b.textContent.trim()),
  );
export const snapshot = (page) => page.evaluate(() => window.__playground.snapshot());

/** Waits until `n` moves have been played. */
export async function waitForPly(page, n, timeout = WAIT_MS) {
  await page.waitForFunction((k) => Number(document.body.dataset.ply) >= k, n, { timeout });
}

/** Waits until `player` is to move and no search runs, or the game is over: a person's turn.
 * (`waitIdle` alone can return between a person's move and the engine's start, when the next
 * snapshot's legal moves would be the engine's.) */
export async function waitPersonTurn(page, player, timeout = WAIT_MS) {
  await page.waitForFunction(
    (p) => {
      const s = window.__playground.snapshot();
      return s !== null && (s.outcome != null || (s.view.to_move === p && document.body.dataset.thinking === ''));
    },
    player,
    { timeout },
  );
}

/** Waits until the page (or an embed's frame) has applied its URL state and teaching features. */
export async function teachReady(page, timeout = WAIT_MS) {
  await page.waitForFunction(() => document.body.dataset.teachReady === 'true', null, { timeout });
}

/** A lesson's page ready to be driven: the game's board attached (a lesson may open in the
 * compare or train view, where it is hidden), the URL state applied, the teaching features up. */
export async function lessonReady(page) {
  await page.waitForSelector('[data-index]', { state: 'attached' });
  await page.waitForFunction(() => document.body.dataset.ply !== undefined);
  await teachReady(page);
}

/** Presses lesson step `n`'s button and waits until it is done; asserts that it is done and that
 * it outlined something shown and (once its scroll ends) inside the viewport; returns the
 * outlined element's id (or first class). */
export async function doLessonStep(page, n) {
  await page.click(`#lesson-do-${n}`);
  await page.waitForFunction((k) => {
    const c = document.querySelector('#lesson');
    return c.dataset.step === String(k) && c.dataset.stepState !== 'running';
  }, n);
  const state = await page.getAttribute('#lesson', 'data-step-state');
  assert.equal(state, 'done', `step ${n}: ${await page.textContent('#lesson-status')}`);
  const looks = await page.$$('.lesson-look');
  assert.ok(looks.length > 0, `step ${n} outlines something`);
  assert.ok(await looks[0].isVisible(), `step ${n}: the outlined element is visible`);
  await page.waitForFunction(() => {
    const r = document.querySelector('.lesson-look').getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && r.width > 0 && r.height > 0;
  });
  return page.$eval('.lesson-look', (e) => e.id || e.classList[0]);
}

/** Waits until no search runs (person's turn or game over). */
export async function waitIdle(page, timeout = WAIT_MS) {
  await page.waitForFunction(() => document.body.dataset.thinking === '', null, { timeout });
}

let rawId = 1_000_000_000;
/**
 * A round trip through the game's engine worker (a `hello` sent past the page's client). The
 * worker answers in order, so every answer to a request the page sent before (a move, a state)
 * has been delivered and handled when this returns.
 */
export async function workerRoundTrip(page) {
  const r = await page.evaluate((id) => window.__playground.raw({ id, type: 'hello' }), rawId++);
  if (r.type !== 'hello') throw new Error(`round trip: unexpected answer ${JSON.stringify(r)}`);
}

/**
 * Starts recording the values attribute `attr` of the element `selector` takes (a MutationObserver
 * with old values, so no value is missed however briefly it was set). In the page,
 * `window.__attrValues(selector, attr)` then gives the values set since, oldest first, ending with
 * the current one; `attrHistory` reads them from the test.
 */
export async function recordAttr(page, selector, attr) {
  await page.evaluate(
    ([sel, a]) => {
      const el = document.querySelector(sel);
      const records = [];
      window.__attrLogs ??= {};
      window.__attrLogs[`${sel}|${a}`] = { el, records };
      window.__attrValues = (s, x) => {
        const log = window.__attrLogs[`${s}|${x}`];
        return [...log.records.slice(1), log.el.getAttribute(x)];
      };
      new MutationObserver((ms) => {
        for (const m of ms) records.push(m.oldValue);
      }).observe(el, { attributes: true, attributeFilter: [a], attributeOldValue: true });
    },
    [selector, attr],
  );
}

export const attrHistory = (page, selector, attr) => page.evaluate(([s, a]) => window.__attrValues(s, a), [selector, attr]);

/**
 * Starts recording, in the page, every read of a file's contents (`Blob`'s `text`, `arrayBuffer`,
 * `bytes`, `stream`, and `FileReader`'s reads) and the type of every message posted to a worker.
 * `readsAndPosts(page)` returns them since: `{ reads: ['text', ...], posts: ['hello', ...] }`.
 */
export async function watchReadsAndPosts(page) {
  await page.evaluate(() => {
    const log = { reads: [], posts: [] };
    window.__readsAndPosts = log;
    const wrap = (proto, name, push) => {
      const f = proto[name];
      if (typeof f !== 'function') return;
      proto[name] = function (...args) {
        push(args);
        return f.apply(this, args);
      };
    };
    for (const name of ['text', 'arrayBuffer', 'bytes', 'stream']) wrap(Blob.prototype, name, () => log.reads.push(name));
    for (const name of ['readAsText', 'readAsArrayBuffer', 'readAsDataURL', 'readAsBinaryString'])
      wrap(FileReader.prototype, name, () => log.reads.push(name));
    wrap(Worker.prototype, 'postMessage', ([m]) => log.posts.push(typeof m === 'object' && m !== null ? m.type : typeof m));
  });
}

export const readsAndPosts = (page) => page.evaluate(() => ({ ...window.__readsAndPosts }));

/**
 * Gives the file input `selector` a file of `size` bytes made in the page (`head`, then `fill`
 * bytes, then `tail`: no string of that size is built, nothing crosses DevTools), as a user's
 * choice does: its `files` set, then a `change` event. Returns the file's size.
 */
export function chooseBigFile(page, selector, { name, size, head = '', tail = '', fill = 0x78 }) {
  return page.evaluate(
    ([sel, o]) => {
      const enc = new TextEncoder();
      const [h, t] = [enc.encode(o.head), enc.encode(o.tail)];
      const f = new File([h, new Uint8Array(o.size - h.length - t.length).fill(o.fill), t], o.name);
      const dt = new DataTransfer();
      dt.items.add(f);
      const input = document.querySelector(sel);
      input.files = dt.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      return f.size;
    },
    [selector, { name, size, head, tail, fill }],
  );
}

export async function clickCell(page, name) {
  await page.click(`[data-cell="${name}"]`);
}

/** Asserts the page had no console error, failed request or request leaving the origin. Failed
 * requests are also read from the server's own log (any answer of 400 or more since the page
 * opened), so that one is caught even when DevTools does not report it. */
export function assertClean(assert, page, allow = []) {
  const p = page.problems;
  const errs = p.consoleErrors.filter((e) => !allow.some((re) => re.test(e)));
  assert.deepEqual(errs, [], 'console errors');
  assert.deepEqual(p.pageErrors, [], 'page errors');
  assert.deepEqual(p.failed, [], 'failed requests');
  const refused = page.served().filter((r) => r.status >= 400);
  assert.deepEqual(refused, [], 'requests the server answered with an error');
  assert.deepEqual(p.foreign, [], 'requests leaving the origin');
}

export async function screenshot(page, name) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** What a Compare pane shows after a run: playouts, best move, line, visits per root move shown. */
export const paneFigures = (page, k) =>
  page.evaluate((i) => {
    const r = document.querySelector(`#cmp-readout-${i}`);
    const rows = [...document.querySelectorAll(`#cmp-bars-${i} .bar-row[data-move]`)];
    return {
      playouts: r.dataset.playouts,
      best: r.dataset.best,
      pv: document.querySelector(`#cmp-pv-${i}`).dataset.pv,
      visits: rows.map((row) => [row.dataset.move, Number(row.dataset.visits)]),
    };
  }, k);
