// Nothing lost: rapid clicks on cells, Stop, Undo and Redo while a search runs, and switching
// games mid-search never lose a move, apply one twice, or let a stale search write into the new
// game. Bursts of input are dispatched in one task (so they all land before any answer comes
// back, which is the worst case); the test then waits for states, never for time, and checks the
// page's game against the worker's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, waitIdle, waitForPly, workerRoundTrip, snapshot, moves, assertClean, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

let rawId = 2_000_000_000;
/** The worker's own game: undo then redo (or redo then undo at the start) leaves it as it was and
 * answers its state, which must equal what the page shows. */
async function workerGame(page) {
  const s = await snapshot(page);
  const raw = (type) => page.evaluate((m) => window.__playground.raw(m), { id: rawId++, type });
  let r;
  if (s.view.ply > 0) {
    await raw('undo');
    r = await raw('redo');
  } else {
    await raw('redo');
    r = await raw('undo');
  }
  assert.equal(r.type, 'state', JSON.stringify(r));
  return r.snapshot;
}

/** Waits until nothing runs and every answer has come back; returns the page's snapshot after
 * checking it against the worker's game. */
async function settle(page) {
  await waitIdle(page);
  await workerRoundTrip(page);
  await waitIdle(page);
  const s = await snapshot(page);
  const w = await workerGame(page);
  assert.deepEqual([w.view.spec, w.moves, w.redo], [s.view.spec, s.moves, s.redo], 'the page shows the worker’s game');
  assert.deepEqual(await moves(page), s.moves, 'the move list shows the game');
  return s;
}

/** Clicks elements in one task, in order (selectors), so no answer arrives in between. */
const burst = (page, selectors) =>
  page.evaluate((sels) => {
    for (const sel of sels) {
      const el = document.querySelector(sel);
      if (!el) throw new Error(`no ${sel}`);
      el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    }
  }, selectors);

const cell = (name) => `[data-cell="${name}"]`;

test('a double click on two cells plays one move, for the person only', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=uct&playouts=300&seed=3');
  await boardReady(page);
  await burst(page, [cell('c3'), cell('b2')]);
  await waitForPly(page, 2);
  const s = await settle(page);
  assert.equal(s.moves.length, 2, `one person move and the engine's reply: ${s.moves}`);
  assert.equal(s.moves[0], 'c3');
  assert.equal(s.view.to_move, 0, 'the person (Black) is to move');
  // Three clicks on the same free cell and another: still one move.
  const free = s.legal.slice(0, 2);
  await burst(page, [cell(free[0]), cell(free[0]), cell(free[1]), cell(free[0])]);
  await waitForPly(page, 4);
  const t = await settle(page);
  assert.deepEqual(t.moves.slice(0, 3), [...s.moves, free[0]]);
  assert.equal(t.moves.length, 4);
  assertClean(assert, page);
});

test('Stop, Undo and Redo while the engine thinks never lose or repeat a move', async () => {
  // The engine (White) thinks for a long time: only Stop or Undo ends its search.
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=uct&playouts=100000000&seed=3');
  await boardReady(page);
  await page.click(cell('c3'));
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  // Stop then Undo at once: the search ends, the undo takes back the person's move.
  await burst(page, ['#stop', '#undo']);
  let s = await settle(page);
  assert.deepEqual([s.moves, s.redo], [[], ['c3']], 'back at the start, c3 to redo, no engine move played');
  // Redo: c3 again, the engine thinks; Undo, Redo, Undo in one burst.
  await page.click('#redo');
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  await burst(page, ['#undo', '#redo', '#undo']);
  s = await settle(page);
  assert.deepEqual([...s.moves, ...s.redo].slice(0, 1), ['c3'], `the line is kept: ${s.moves} | ${s.redo}`);
  assert.ok(s.moves.length <= 1, `no engine move was played: ${s.moves}`);
  // Stop alone: the engine plays its best move so far, once.
  if (s.moves.length === 0) await page.click('#redo');
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  await burst(page, ['#stop', '#stop', '#stop']);
  await waitForPly(page, 2);
  s = await settle(page);
  assert.equal(s.moves.length, 2, `one engine move after Stop: ${s.moves}`);
  assert.equal(s.moves[0], 'c3');
  // A person's move, then Undo and Redo bursts while the engine thinks on it.
  const before = s.moves;
  const mine = s.legal[0];
  await page.click(cell(mine));
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  await burst(page, ['#undo', '#undo', '#redo', '#redo', '#undo']);
  s = await settle(page);
  const line = [...s.moves, ...s.redo];
  assert.deepEqual(line.slice(0, 2), before, `moves ${s.moves} | redo ${s.redo}`);
  assert.ok(line.length <= 3, `nothing added by the storm: ${line}`);
  if (line.length === 3) assert.equal(line[2], mine);
  await screenshot(page, 'probe-stop-undo-redo');
  assertClean(assert, page);
});

test('switching games mid-search: the old search never writes into the new game', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=uct&playouts=100000000&seed=3');
  await boardReady(page);
  await page.click(cell('c3'));
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  // Stop (the engine would play) and switch to Tic-Tac-Toe in the same task.
  await page.evaluate(() => {
    document.getElementById('stop').click();
    const sel = document.getElementById('game');
    sel.value = 'tictactoe';
    sel.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => document.body.dataset.game === 'tictactoe');
  let s = await settle(page);
  assert.deepEqual([s.view.spec, s.moves, s.redo], ['tictactoe', [], []], 'a fresh Tic-Tac-Toe game');
  // Back to Hex mid-search of the Tic-Tac-Toe engine, with a click on a Tic-Tac-Toe cell in the
  // same task.
  await page.click(cell('b2'));
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  await page.evaluate(() => {
    const sel = document.getElementById('game');
    sel.value = 'hex';
    sel.dispatchEvent(new Event('change', { bubbles: true }));
    document.querySelector('[data-cell="a1"]')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  });
  await page.waitForFunction(() => document.body.dataset.game?.startsWith('hex'));
  s = await settle(page);
  assert.ok(s.view.spec.startsWith('hex'), s.view.spec);
  assert.ok(s.moves.length <= 2, `at most the a1 click and its reply: ${s.moves}`);
  if (s.moves.length) assert.equal(s.moves[0], 'a1');
  assertClean(assert, page);
});

test('a search that reaches the node cap keeps its tree, says so, and the worker lives on', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  // A search past a small cap (engine parameter node_cap): only its end is reported (no progress).
  const r = await page.evaluate(() =>
    window.__playground.raw({
      id: 1_900_000_001,
      type: 'search',
      slot: 'cap',
      engine: { preset: 'uct', params: { node_cap: '300', seed: '1' } },
      budget: { kind: 'playouts', value: 3000 },
      progressMs: 1e9,
    }),
  );
  assert.equal(r.type, 'searchDone', JSON.stringify(r));
  assert.equal(r.result.end, 'budget', 'the search ran its whole budget');
  assert.equal(r.result.playouts, 3000);
  assert.equal(r.result.nodeCap, 300, 'the result says the cap was reached');
  assert.ok(r.result.nodes >= 300 && r.result.nodes < 400, `the tree stopped near the cap: ${r.result.nodes}`);
  assert.ok(r.result.move, 'a move was found');
  // The tree is kept: inspecting the slot shows it; the game is untouched and playable.
  const insp = await page.evaluate(() => window.__playground.raw({ id: 1_900_000_002, type: 'inspect', slot: 'cap', tree: null }));
  assert.equal(insp.type, 'inspection');
  assert.equal(insp.stats.nodes, r.result.nodes);
  await page.click(cell('c3'));
  await waitForPly(page, 1);
  const s = await settle(page);
  assert.deepEqual(s.moves, ['c3']);
  assertClean(assert, page);
});

test('a search that reaches the memory cap keeps its tree, says so, and the worker lives on', async () => {
  const page = await h.openPage('?game=hex:7&p0=person&p1=person');
  await boardReady(page);
  // A cap of 1 MiB counted over the worker's whole WebAssembly memory (always larger): the tree
  // holds the root and its children only, and the search still runs its whole budget.
  const r = await page.evaluate(() =>
    window.__playground.raw({
      id: 1_900_000_011,
      type: 'search',
      slot: 'mem',
      engine: { preset: 'rave', params: { memory_cap_mib: '1', rave_table_visits: '1', seed: '1' } },
      budget: { kind: 'playouts', value: 2000 },
      progressMs: 1e9,
    }),
  );
  assert.equal(r.type, 'searchDone', JSON.stringify(r));
  assert.equal(r.result.end, 'budget', 'the search ran its whole budget');
  assert.equal(r.result.playouts, 2000);
  assert.equal(r.result.memoryCap, 2 ** 20, 'the result says the memory cap holds the tree');
  assert.equal(r.result.nodeCap, null);
  assert.equal(r.stats.tree_cap, 'memory_cap');
  assert.ok(r.result.nodes <= 50, `the tree stopped growing at once (the root and its 49 moves): ${r.result.nodes} nodes`);
  assert.ok(r.result.move, 'a move was found');
  // With stop_at_node_cap the search ends at the cap and says which one.
  const stop = await page.evaluate(() =>
    window.__playground.raw({
      id: 1_900_000_012,
      type: 'search',
      slot: 'mem',
      engine: { preset: 'uct', params: { memory_cap_mib: '1', stop_at_node_cap: 'true' } },
      budget: { kind: 'playouts', value: 2000 },
      progressMs: 1e9,
    }),
  );
  assert.equal(stop.result.end, 'memoryCap', JSON.stringify(stop.result));
  // An out-of-range cap is refused with the engine's sentence; the worker and the game go on.
  const bad = await page.evaluate(() =>
    window.__playground.raw({
      id: 1_900_000_013,
      type: 'search',
      slot: 'mem',
      engine: { preset: 'uct', params: { memory_cap_mib: '0' } },
      budget: { kind: 'playouts', value: 10 },
      progressMs: 1e9,
    }),
  );
  assert.equal(bad.type, 'error');
  assert.match(bad.message, /memory_cap_mib = 0 is out of range \[1, 1048576\]/);
  await page.click(cell('d4'));
  await waitForPly(page, 1);
  assert.deepEqual((await settle(page)).moves, ['d4']);
  assertClean(assert, page);
});
