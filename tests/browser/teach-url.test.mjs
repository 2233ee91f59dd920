// In Chromium: the URL holds the state, Back undoes a move, malformed parameters give a
// clear message on a usable page, records (move list, SGF, a HexGui-style file) round-trip
// through the UI, lessons open by URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  setup,
  ROOT,
  boardReady,
  ply,
  moves,
  snapshot,
  waitForPly,
  waitIdle,
  clickCell,
  assertClean,
  screenshot,
  teachReady,
  workerRoundTrip,
} from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('a URL with state opens exactly that position and configuration, and the URL tracks it', async () => {
  const page = await h.openPage('?game=hex:7&moves=d4,c5+e3&p0=person&p1=person&preset0=uct&preset1=rave&playouts0=700&ms1=300&seed=7');
  await boardReady(page);
  await teachReady(page);
  const s = await snapshot(page);
  assert.equal(s.view.spec, 'hex:7');
  assert.deepEqual(s.moves, ['d4', 'c5', 'e3']);
  assert.deepEqual(await moves(page), ['d4', 'c5', 'e3']);
  assert.equal(await page.inputValue('#preset-0'), 'uct');
  assert.equal(await page.inputValue('#preset-1'), 'rave');
  assert.equal(await page.inputValue('#budget-0'), '700');
  assert.equal(await page.inputValue('#unit-0'), 'playouts');
  assert.equal(await page.inputValue('#budget-1'), '300');
  assert.equal(await page.inputValue('#unit-1'), 'millis');
  assert.equal(await page.getAttribute('body', 'data-url-errors'), '0');
  // The URL written back holds everything; opening it again gives the same page.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('moves'), 'd4 c5 e3');
  assert.equal(url.searchParams.get('seed'), '7');
  const again = await h.openPage(url.search);
  await boardReady(again);
  await teachReady(again);
  assert.deepEqual((await snapshot(again)).moves, ['d4', 'c5', 'e3']);
  assert.equal(await again.inputValue('#preset-1'), 'rave');
  // Copy link writes the same URL (clipboard or the record box).
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-link').dataset.url);
  const copied = new URL(await page.getAttribute('#copy-link', 'data-url'));
  assert.equal(copied.searchParams.get('moves'), 'd4 c5 e3');
  assertClean(assert, page);
  assertClean(assert, again);
});

test('overlays in the URL; the search tree exports as JSON', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&playouts=400&seed=3&overlays=q,pv');
  await boardReady(page);
  await teachReady(page);
  assert.equal(await page.getAttribute('#ov-q', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('#ov-pv', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('#ov-visits', 'aria-pressed'), 'false');
  assert.equal(new URL(page.url()).searchParams.get('overlays'), 'q,pv');
  await page.click('#ov-visits');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('overlays') === 'visits,q,pv');
  await clickCell(page, 'c3');
  await waitForPly(page, 2);
  await waitIdle(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-tree')]);
  const json = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  assert.equal(json.game, 'hex:5');
  assert.equal(json.slot, 'p1');
  assert.ok(json.tree.visits >= 400, `root visits ${json.tree.visits}`);
  assert.ok(json.tree.children.length > 0);
  assert.ok(json.tree.children.every((c) => typeof c.move === 'string' && c.q >= 0 && c.q <= 1));
  assertClean(assert, page);
});

test('?view=compare and ?view=arena open those views, and the URL keeps them', async () => {
  for (const view of ['compare', 'arena']) {
    const page = await h.openPage(`?game=hex:5&view=${view}`);
    // The play board is hidden behind the open view: wait for the page, not for a visible board.
    await teachReady(page);
    await page.waitForFunction((v) => document.body.dataset.view === v, view);
    assert.equal(await page.getAttribute('body', 'data-url-errors'), '0');
    assert.equal(await page.locator(`#${view}`).isVisible(), true, `the ${view} view is shown`);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('view'), view);
    assert.equal(url.hash, `#${view}`);
    assertClean(assert, page);
  }
});

test('playing moves on a phone never scrolls the page: the move list scrolls in its own box', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person', { viewport: { width: 390, height: 844 } });
  await boardReady(page);
  await teachReady(page);
  const before = await page.evaluate(() => window.scrollY);
  const cells = ['a1', 'b1', 'c1', 'd1', 'e1', 'a2', 'b2', 'c2', 'd2', 'e2'];
  for (const [i, c] of cells.entries()) {
    // A synthetic click: Playwright's own click would scroll the cell into view itself.
    await page.locator(`[data-cell="${c}"]`).dispatchEvent('click');
    await waitForPly(page, i + 1);
  }
  assert.deepEqual(await moves(page), cells);
  assert.equal(await page.evaluate(() => window.scrollY), before, 'the page did not scroll');
  await screenshot(page, 'phone-10-moves');
  assertClean(assert, page);
});

test('the browser Back button undoes a move, Forward replays it', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person');
  await boardReady(page);
  await teachReady(page);
  await clickCell(page, 'b2');
  await waitForPly(page, 1);
  await clickCell(page, 'a1');
  await waitForPly(page, 2);
  assert.equal(new URL(page.url()).searchParams.get('moves'), 'b2 a1');
  await page.goBack();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 1);
  assert.deepEqual((await snapshot(page)).moves, ['b2']);
  await page.goBack();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 0);
  await page.goForward();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 1);
  assert.deepEqual((await snapshot(page)).moves, ['b2']);
  assertClean(assert, page);
});

test('Back against the engine undoes one move, holds the engine there, and the person plays on', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=engine&playouts=200&seed=1');
  await boardReady(page);
  await teachReady(page);
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  await waitIdle(page);
  await clickCell(page, (await snapshot(page)).legal[0]);
  await waitForPly(page, 4);
  await waitIdle(page);
  const game = (await snapshot(page)).moves;
  // One Back = one move: the engine's reply goes, and the engine does not play it again.
  await page.goBack();
  await page.waitForFunction(() => Number(document.body.dataset.ply) !== 4);
  assert.equal(await ply(page), 3);
  assert.deepEqual((await snapshot(page)).moves, game.slice(0, 3));
  await workerRoundTrip(page);
  assert.equal(await page.getAttribute('body', 'data-thinking'), '', 'the engine holds');
  assert.equal(await ply(page), 3);
  assert.equal(await page.isVisible('#pause'), true, 'Resume is offered');
  assert.match(await page.textContent('#pause'), /Resume/);
  await page.goBack();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 2);
  await page.goForward();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 3);
  await page.goForward();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 4);
  assert.deepEqual((await snapshot(page)).moves, game);
  // Back to the person's turn, a move: the engine answers it again.
  await page.goBack();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 3);
  await page.goBack();
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 2);
  const other = (await snapshot(page)).legal.find((m) => m !== game[2]);
  await clickCell(page, other);
  await waitForPly(page, 4);
  await waitIdle(page);
  assert.equal((await snapshot(page)).moves[2], other);
  assertClean(assert, page);
});

test('malformed URL parameters give a clear message and a usable page', async () => {
  const page = await h.openPage('?game=chess&moves=e4&p1=robot&preset=nope&ms=-5&view=tree&bogus=1');
  await boardReady(page);
  await teachReady(page);
  const msg = await page.textContent('#message');
  for (const part of ['game=chess', 'p1=robot', 'preset=nope', 'ms=-5', 'view=tree', "'bogus'"])
    assert.ok(msg.includes(part), `${part} in: ${msg}`);
  // Still playable.
  const n = await ply(page);
  const s = await snapshot(page);
  await page.evaluate(() => {
    document.getElementById('who-1').value = 'person';
    document.getElementById('who-1').dispatchEvent(new Event('change'));
  });
  await clickCell(page, s.legal[0]);
  await waitForPly(page, n + 1);

  const bad = await h.openPage('?game=hex:5&moves=c3,c3,b2&p1=person');
  await boardReady(bad);
  await teachReady(bad);
  const m2 = await bad.textContent('#message');
  // The legal prefix is kept and shown; the message names the bad move and its position.
  assert.match(m2, /move 2 of 3, 'c3', cannot be played/);
  assert.equal((await snapshot(bad)).view.spec, 'hex:5');
  assert.deepEqual((await snapshot(bad)).moves, ['c3']);
  await screenshot(bad, 'teach-bad-url');
  assertClean(assert, page);
  assertClean(assert, bad);
});

test('move list and SGF round trips through the UI; a HexGui-style SGF imports; bad records are explained', async () => {
  const page = await h.openPage('?game=hex:5:swap&moves=b2,swap,c3,d2&p0=person&p1=person');
  await boardReady(page);
  await teachReady(page);
  await page.click('#record-show');
  await page.waitForFunction(() => document.getElementById('record-text').value.includes('\n'));
  const list = await page.inputValue('#record-text');
  assert.equal(list, 'hex:5:swap\nb2 swap c3 d2\n');
  await page.click('#record-show-sgf');
  await page.waitForFunction(() => document.getElementById('record-text').value.startsWith('('));
  const sgf = await page.inputValue('#record-text');
  assert.match(
    sgf.replace(/\n/g, ''),
    /^\(;FF\[4\]GM\[11\]SZ\[5\]AP\[mcts-playground:[^\]]+\]RU\[swap\];B\[b2\];W\[swap-pieces\];B\[c3\];W\[d2\]\)/,
  );
  // Load something else, then the SGF back: same game.
  await page.fill('#record-text', 'tictactoe\n1. b2 a1');
  await page.click('#record-load');
  await page.waitForFunction(() => document.body.dataset.game === 'tictactoe' && document.body.dataset.ply === '2');
  await page.fill('#record-text', sgf);
  await page.click('#record-load');
  await page.waitForFunction(() => document.body.dataset.game === 'hex:5:swap' && document.body.dataset.ply === '4');
  assert.deepEqual((await snapshot(page)).moves, ['b2', 'swap', 'c3', 'd2']);
  // The move list loads too, and the URL follows.
  await page.fill('#record-text', list);
  await page.click('#record-load');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('moves') === 'b2 swap c3 d2');
  // A HexGui-style file (tests/data/hexgui-example.sgf) through the file input.
  await page.setInputFiles('#record-file', join(ROOT, 'tests', 'data', 'hexgui-example.sgf'));
  await page.waitForFunction(() => document.body.dataset.game === 'hex:9:swap' && document.body.dataset.ply === '7');
  assert.match(await page.textContent('#message'), /7 moves and 1 variation\./);
  // Bad records: clear messages, the game kept.
  await page.fill('#record-text', 'hex:9\ne5 e5');
  await page.click('#record-load');
  await page.waitForFunction(() => /move 2 'e5'/.test(document.getElementById('message').textContent));
  await page.fill('#record-text', '(;FF[4]GM[1]SZ[19];B[dd])');
  await page.click('#record-load');
  await page.waitForFunction(() => /GM\[1\] is not Hex/.test(document.getElementById('message').textContent));
  assert.equal(await ply(page), 7);
  // Exports: SVG and PNG downloads of the board.
  const [svg] = await Promise.all([page.waitForEvent('download'), page.click('#dl-svg')]);
  const svgText = readFileSync(await svg.path(), 'utf8');
  assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#dl-png')]);
  assert.deepEqual([...readFileSync(await png.path()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  await screenshot(page, 'teach-records');
  assertClean(assert, page);
});

test('a lesson opens by URL with its configuration and text', async () => {
  const page = await h.openPage('?lesson=ucb1');
  await teachReady(page);
  assert.match(await page.textContent('#lesson h2'), /UCB1/);
  assert.equal(await page.getAttribute('body', 'data-view'), 'compare');
  assert.equal(await page.inputValue('#cmp-c-0'), '0.1');
  assert.equal(await page.inputValue('#cmp-c-2'), '3');
  assert.equal(await page.getAttribute('body', 'data-url-errors'), '0');
  await screenshot(page, 'teach-lesson-ucb1');
  // The solver lesson, run: the solver pane proves Tic-Tac-Toe a draw, plain UCT does not.
  const solver = await h.openPage('?lesson=solver');
  await teachReady(solver);
  assert.equal(await solver.inputValue('#cmp-preset-1'), 'solver');
  await solver.click('#cmp-run');
  // Read once every pane has finished.
  await solver.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  assert.match(await solver.textContent('#cmp-readout-1'), /proven draw/);
  assert.doesNotMatch(await solver.textContent('#cmp-readout-0'), /proven/);
  await screenshot(solver, 'teach-lesson-solver');
  assertClean(assert, solver);
  const bad = await h.openPage('?lesson=nope');
  await boardReady(bad);
  await teachReady(bad);
  assert.match(await bad.textContent('#message'), /lesson=nope: no such lesson/);
  assertClean(assert, page);
  assertClean(assert, bad);
});
