// In Chromium: the Python notebook widget's front end (python/mcts_playground/widget.js, the
// anywidget ESM) with the built page, under a stand-in for anywidget's model (get/set/on/
// save_changes/send, as the anywidget front end gives it). Checks the two-way bridge: the page's
// moves (the engine's and a person's click) reach the model and the kernel's messages; the
// kernel's position, command and view reach the page; a search's report reaches the kernel and is
// `mcts search --json`'s for the same seed and iterations; the Compare view shows the widget's
// position. (Not inside JupyterLab: that needs a Jupyter server and its extension in CI;
// python/tests/jupyterlab.test.mjs does that, run by scripts/test-python.sh.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, assertClean, screenshot, buildNative, native, ROOT } from './harness.mjs';

/** `mcts search ... --json` of this checkout (the release build, else the one `cargo test` made). */
function cliSearch(args) {
  const bin = ['release', 'debug'].map((p) => join(ROOT, 'target', p, 'mcts')).find((b) => existsSync(b));
  assert.ok(bin, 'the mcts command line is built (cargo build --bin mcts; scripts/test.sh builds it before the browser tests)');
  return JSON.parse(execFileSync(bin, ['search', ...args, '--json'], { encoding: 'utf8' }));
}

/** Keys whose values are times (different on every run). */
const TIMING = new Set(['elapsed_ms', 'iterations_per_s']);
const withoutTiming = (v) =>
  Array.isArray(v)
    ? v.map(withoutTiming)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !TIMING.has(k))
            .map(([k, x]) => [k, withoutTiming(x)]),
        )
      : v;

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

const HOST = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>widget host</title></head>
<body><div id="host"></div><script type="module">
import widget from './py-widget.js';
const values = { game: 'hex:5', moves: ['c3'], preset: 'uct', view: 'play', seed: 1, playouts: 300, ms: null, p0: 'person',
  p1: 'engine', show: '', width: '480px', height: '480px', page_url: new URL('./', location.href).href, ready: false,
  last_search: null, game_over: null, last_error: '' };
const listeners = {};
const fire = (ev, ...a) => (listeners[ev] || []).forEach((f) => f(...a));
const model = {
  get: (k) => values[k],
  set: (k, v) => { const changed = JSON.stringify(values[k]) !== JSON.stringify(v); values[k] = v; if (changed) fire('change:' + k); },
  on: (ev, f) => { (listeners[ev] ||= []).push(f); },
  save_changes: () => { window.__saved++; },
  send: (msg) => window.__sent.push(msg),
};
window.__sent = []; window.__saved = 0; window.__values = values;
// What the kernel does: set a trait (synced to the front end), send a custom message.
window.__kernel = { set: (k, v) => model.set(k, v), custom: (msg) => fire('msg:custom', msg) };
widget.render({ model, el: document.getElementById('host') });
</script></body></html>`;

const events = (page, type) => page.evaluate((t) => window.__sent.filter((m) => m.event === t).map((m) => m.detail), type);
const frameValue = (page, id) => page.evaluate((i) => document.querySelector('iframe').contentDocument.getElementById(i).value, id);
const embedFrame = (page) => page.frames().find((f) => f.url().includes('embed=1'));

test('the widget front end bridges the page and the kernel both ways', async () => {
  const esm = readFileSync(join(ROOT, 'python', 'mcts_playground', 'widget.js'), 'utf8');
  const page = await h.openPage('widget-host.html', {
    before: async (p) => {
      await p.route(`${h.url}widget-host.html`, (r) => r.fulfill({ contentType: 'text/html', body: HOST }));
      await p.route(`${h.url}py-widget.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: esm }));
    },
  });
  await page.waitForFunction(() => window.__values.ready === true);
  // The engine (White) answers c3 by itself: the move reaches the model and the kernel.
  await page.waitForFunction(() => window.__sent.some((m) => m.event === 'move' && m.detail.moves.length === 2));
  const reply = (await events(page, 'move'))[0];
  assert.equal(reply.game, 'hex:5');
  assert.deepEqual(await page.evaluate(() => window.__values.moves), reply.moves);
  assert.ok((await events(page, 'searchFinished')).length >= 1, 'the engine search is reported');
  assert.ok(await page.evaluate(() => window.__values.last_search?.bestMove), 'last_search holds the best move');

  // A person's click in the frame: the move reaches the kernel.
  const frame = embedFrame(page);
  await frame.waitForFunction(() => {
    const s = window.__playground.snapshot();
    return s?.view.to_move === 0 && document.body.dataset.thinking === '';
  });
  const free = await frame.evaluate(() => {
    const taken = new Set(window.__playground.snapshot().moves);
    return ['a1', 'e5', 'a5', 'e1', 'b2'].find((m) => !taken.has(m));
  });
  await screenshot(page, 'python-widget-play');
  await frame.click(`[data-cell="${free}"]`);
  await page.waitForFunction((m) => window.__sent.some((e) => e.event === 'move' && e.detail.move === m), free);
  assert.deepEqual((await page.evaluate(() => window.__values.moves)).slice(0, 3), [...reply.moves, free]);

  // The kernel sets the position: the page shows it without reloading, and says so.
  await page.waitForFunction(() => window.__sent.filter((m) => m.event === 'move').length >= 3); // the engine's answer
  await frame.waitForFunction(() => document.body.dataset.thinking === '');
  await page.evaluate(() => window.__kernel.set('moves', ['a1']));
  await page.waitForFunction(() => window.__sent.some((m) => m.event === 'position'));
  await frame.waitForFunction(() => window.__playground.snapshot()?.moves.join(' ').startsWith('a1'));
  assert.equal(embedFrame(page), frame, 'the same frame: no reload');

  // A command from the kernel: startSearch with playouts, played.
  await frame.waitForFunction(() => document.body.dataset.thinking === '' && window.__playground.snapshot()?.view.to_move === 0);
  const before = (await events(page, 'searchFinished')).length;
  await page.evaluate(() => window.__kernel.custom({ command: 'startSearch', budget: { kind: 'playouts', value: 200 }, play: true }));
  await page.waitForFunction((n) => window.__sent.filter((m) => m.event === 'searchFinished').length > n, before);
  // The first search after the command is its own (the engine then answers the move it played).
  const found = (await events(page, 'searchFinished'))[before];
  assert.equal(found.playouts, 200);
  assert.equal(found.side, 0);
  // Its report, as the kernel receives it: `mcts search --json` of the same position, preset,
  // seed and iterations (the page's memory cap, 512 MiB, set on the command line), key for key.
  const report = found.report;
  assert.ok(report && typeof report === 'object', 'searchFinished carries the report');
  // The position searched: the kernel's a1 and the engine's reply (the event says which).
  assert.equal(found.moves.length, 2);
  const at = ['--game', found.game, '--moves', found.moves.join(' ')];
  const cli = cliSearch([...at, '--algo', 'uct', '--iterations', '200', '--seed', '1', '--set', 'memory_cap_mib=512']);
  assert.deepEqual(Object.keys(report).sort(), Object.keys(cli).sort(), 'the keys of mcts search --json');
  assert.deepEqual(withoutTiming(report), withoutTiming(cli), 'the same report as mcts search --json');
  assert.equal(report.best_move, found.bestMove);
  assert.equal(report.iterations, 200);

  // A bad position from the kernel is the page's error, in last_error.
  await page.evaluate(() => window.__kernel.set('moves', ['a1', 'a1']));
  await page.waitForFunction(() => window.__values.last_error !== '');
  assert.match(await page.evaluate(() => window.__values.last_error), /a1/);

  // The view: the frame reloads in the compare view with the position kept.
  await page.evaluate(() => {
    window.__kernel.set('moves', ['c3']);
    window.__kernel.set('view', 'compare');
  });
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].some((f) => f.src.includes('view=compare')));
  const src = await page.evaluate(() => document.querySelector('iframe').src);
  assert.equal(new URL(src).searchParams.get('moves'), 'c3');
  // The reloaded frame (same origin here) is ready in the compare view.
  await page.waitForFunction(() => {
    const w = document.querySelector('iframe').contentWindow;
    return w.location.href.includes('view=compare') && w.document.body?.dataset.teachReady === 'true';
  });
  // The embed shows the open view (it used to hide every view: a blank frame).
  const shown = await page.evaluate(() => {
    const d = document.querySelector('iframe').contentDocument;
    const visible = (id) => d.getElementById(id)?.getClientRects().length > 0;
    return { compare: visible('compare'), arena: visible('arena'), board: d.querySelector('main.layout')?.getClientRects().length > 0 };
  });
  assert.deepEqual(shown, { compare: true, arena: false, board: false });
  // The Compare view opens on the widget's position (it used to open on its own default, hex:7
  // with no moves), and follows the position the kernel sets (and the engine's replies to it).
  const sameAsWidget = (prefix) =>
    page.waitForFunction((pre) => {
      const d = document.querySelector('iframe').contentDocument;
      const game = d.getElementById('cmp-game')?.value;
      const moves = d.getElementById('cmp-moves')?.value;
      const v = window.__values;
      return game === v.game && moves === v.moves.join(' ') && moves.startsWith(pre);
    }, prefix);
  assert.equal(await frameValue(page, 'cmp-game'), 'hex:5', "the Compare form has the widget's game once the page is ready");
  await sameAsWidget('c3');
  await page.evaluate(() => window.__kernel.set('moves', ['c3', 'b2']));
  await sameAsWidget('c3 b2');
  await screenshot(page, 'python-widget-compare');
  assertClean(assert, page, [/a1/]);
});

test('the kernel’s review (Playground.review) is shown in the page: marks, graph and summary; one of another game is the page’s error', async () => {
  buildNative();
  const esm = readFileSync(join(ROOT, 'python', 'mcts_playground', 'widget.js'), 'utf8');
  // Both sides people (no engine move changes the game) and the review's section shown.
  const host = HOST.replace("moves: ['c3']", "moves: ['c3', 'b3', 'b4', 'c2']")
    .replace("p1: 'engine'", "p1: 'person'")
    .replace("show: ''", "show: 'review'");
  const page = await h.openPage('widget-host.html', {
    before: async (p) => {
      await p.route(`${h.url}widget-host.html`, (r) => r.fulfill({ contentType: 'text/html', body: host }));
      await p.route(`${h.url}py-widget.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: esm }));
    },
  });
  await page.waitForFunction(() => window.__values.ready === true);
  // What `Playground.review()` sends: the report of mcts_playground.review (= mcts review --json).
  const report = native('review', ['--game', 'hex:5', '--moves', 'c3 b3 b4 c2', '--preset', 'uct', '--iterations', '300', '--seed', '1']);
  await page.evaluate((r) => window.__kernel.custom({ command: 'showReview', report: r }), report);
  const frame = embedFrame(page);
  await frame.waitForFunction(() => window.__playground.gameReview()?.status === 'finished');
  assert.deepEqual(await frame.evaluate(() => window.__playground.gameReview().report), report);
  await frame.waitForFunction(() => document.querySelector('#rv-graph canvas'));
  assert.equal(await frame.getAttribute('#review-status', 'data-status'), 'finished');
  await page.screenshot({ path: join(ROOT, 'tests', 'browser', 'screenshots', 'python-widget-review.png') });
  // A review of other moves: the page refuses it with a sentence; its review stays.
  await page.evaluate((r) => window.__kernel.custom({ command: 'showReview', report: r }), {
    ...report,
    moves: ['c3', 'b3', 'b4', 'd2'],
    plies: report.plies.map((p, i) => (i === 3 ? { ...p, move: 'd2' } : p)),
  });
  await page.waitForFunction(() => window.__values.last_error !== '');
  assert.match(await page.evaluate(() => window.__values.last_error), /the review is of hex:5 with 4 moves, not of the game on the board/);
  assert.deepEqual(await frame.evaluate(() => window.__playground.gameReview().report), report);
  assertClean(assert, page);
});
