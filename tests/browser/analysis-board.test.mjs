// The analysis board (issue 49, item 1): every move of the game can be looked at — the move list,
// ← → Home End — whether or not a search was kept for it; a move played at an earlier move starts
// a variation, kept in the game's tree (the move list shows it after the move it replaces; promote,
// delete); the URL keeps the ply looked at (`ply=`); the engine is held on a line looked at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, assertClean, screenshot, clickCell, snapshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

const GAME = ['c3', 'b4', 'd2', 'c2', 'e3'];
/** The stones the board shows, by cell name (`p0`/`p1`). */
const stones = (page) =>
  page.$$eval('#board [data-cell]', (cs) =>
    Object.fromEntries(
      cs
        .map((c) => [c.dataset.cell, /\bp0\b/.test(c.getAttribute('class')) ? 'p0' : /\bp1\b/.test(c.getAttribute('class')) ? 'p1' : null])
        .filter(([, p]) => p),
    ),
  );
const shownPly = (page, n) => page.waitForFunction((k) => document.body.dataset.shownPly === String(k), n);
const review = (page) => page.evaluate(() => document.body.dataset.review);

test('every move can be looked at: the move list, ← → Home End, and the URL keeps the ply', async () => {
  // Two people: no engine moves while the test looks around.
  const page = await h.openPage(`?game=hex:5&p0=person&p1=person&moves=${GAME.join(',')}`);
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.ply === '5');
  // Every move is a button (no search was kept for any of them).
  assert.deepEqual(await page.$$eval('#moves button[data-ply]', (bs) => bs.map((b) => b.dataset.ply)), ['1', '2', '3', '4', '5']);
  await page.click('#moves button[data-ply="3"]');
  await shownPly(page, 2);
  assert.equal(await review(page), '3');
  assert.deepEqual(await stones(page), { c3: 'p0', b4: 'p1' }, 'the position before move 3');
  assert.match(await page.textContent('#review-text'), /Reviewing move 3 \(d2\): the position before it/);
  assert.match(page.url(), /[?&]ply=2(&|$)/);
  // The keys, from the page (not the board, whose arrows move its cursor).
  await page.focus('#moves button[data-ply="3"]');
  await page.keyboard.press('ArrowLeft');
  await shownPly(page, 1);
  await page.keyboard.press('Home');
  await shownPly(page, 0);
  assert.deepEqual(await stones(page), {});
  assert.match(page.url(), /[?&]ply=0(&|$)/);
  await page.keyboard.press('ArrowRight');
  await shownPly(page, 1);
  await page.keyboard.press('End');
  await shownPly(page, 5);
  assert.equal(await review(page), '');
  assert.doesNotMatch(page.url(), /[?&]ply=/);
  await page.keyboard.press('ArrowLeft');
  await shownPly(page, 4);
  assert.equal(await review(page), '5');
  // A reload of the link shows the same position.
  const again = await h.openPage(new URL(page.url()).search);
  await boardReady(again);
  await shownPly(again, 4);
  assert.equal(await review(again), '5');
  assert.deepEqual(await stones(again), { c3: 'p0', b4: 'p1', d2: 'p0', c2: 'p1' });
  // A bad ply is named and ignored.
  const bad = await h.openPage(`?game=hex:5&p0=person&p1=person&moves=${GAME.join(',')}&ply=9`);
  await boardReady(bad);
  await bad.waitForFunction(() => document.body.dataset.urlErrors === '1');
  assert.match(await bad.textContent('#message'), /ply=9: expected a whole number 0\.\.5/);
  assertClean(assert, page);
  assertClean(assert, again);
});

test('a move played at an earlier move starts a variation; the move list keeps both; promote and delete', async () => {
  const page = await h.openPage(`?game=hex:5&p0=person&p1=person&moves=${GAME.join(',')}`);
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.ply === '5');
  await page.click('#moves button[data-ply="3"]');
  await shownPly(page, 2);
  // The game's own move steps forward.
  await clickCell(page, 'd2');
  await shownPly(page, 3);
  assert.equal(await review(page), '4');
  // (The board keeps its arrow keys for its cursor: ← from the move list.)
  await page.focus('#moves button[data-ply="4"]');
  await page.keyboard.press('ArrowLeft');
  await shownPly(page, 2);
  // Another move: a variation; the game goes on in it.
  await clickCell(page, 'a5');
  await page.waitForFunction(() => document.body.dataset.ply === '3' && document.body.dataset.review === '');
  assert.deepEqual((await snapshot(page)).moves, ['c3', 'b4', 'a5']);
  const tree = await page.evaluate(() => window.__playground.gameTree());
  assert.deepEqual(tree.moves, GAME, 'the main line stays');
  assert.deepEqual(tree.variations, [{ at: 2, moves: ['a5'], variations: [] }]);
  await page.waitForSelector('#moves li.variation');
  assert.equal(await page.textContent('#moves li.variation'), '(3.a5)');
  assert.equal(await page.getAttribute('#moves li.variation', 'data-from'), '3', 'after the move it replaces');
  // The game goes on in the variation: a move there extends it.
  await clickCell(page, 'a4');
  await page.waitForFunction(() => document.body.dataset.ply === '4');
  assert.deepEqual((await page.evaluate(() => window.__playground.gameTree())).variations, [
    { at: 2, moves: ['a5', 'a4'], variations: [] },
  ]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'analysis-variation-1280');
  // A main-line move in the list: the game goes back to the main line, held there.
  await page.click('#moves li:not(.variation) button[data-line="c3 b4 d2 c2"]');
  await page.waitForFunction(() => document.body.dataset.review === '4');
  assert.deepEqual((await snapshot(page)).moves, GAME);
  assert.equal(await page.isHidden('#pause'), true, 'two people: no engine to hold, no Resume');
  // And a variation move: back in the variation.
  await page.click('#moves li.variation button[data-line="c3 b4 a5"]');
  await page.waitForFunction(() => document.body.dataset.review === '3');
  assert.deepEqual((await snapshot(page)).moves, ['c3', 'b4', 'a5', 'a4']);
  assert.deepEqual(await stones(page), { c3: 'p0', b4: 'p1' });
  // Promote: the variation becomes the main line, the old main line a variation.
  await page.click('button[data-variation="promote"]');
  await page.waitForFunction(() => window.__playground.gameTree().moves.join(' ') === 'c3 b4 a5 a4');
  assert.deepEqual((await page.evaluate(() => window.__playground.gameTree())).variations, [
    { at: 2, moves: ['d2', 'c2', 'e3'], variations: [] },
  ]);
  assert.equal(await page.$('button[data-variation]'), null, 'the game is on the main line now');
  // Delete the other line (go to it first).
  await page.click('#moves li.variation button[data-line="c3 b4 d2 c2 e3"]');
  await page.waitForFunction(() => document.body.dataset.review === '5');
  await page.click('button[data-variation="delete"]');
  await page.waitForFunction(() => window.__playground.gameTree().variations.length === 0);
  assert.deepEqual((await snapshot(page)).moves, ['c3', 'b4', 'a5', 'a4']);
  assert.equal(await review(page), '3', 'looking at the move where the deleted line branched');
  assertClean(assert, page);
});

test('against the engine: a line looked at holds it; a variation played lets it answer', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=engine&preset=uct&playouts=200&seed=1');
  await boardReady(page);
  await clickCell(page, 'b2');
  await page.waitForFunction(() => document.body.dataset.ply === '2' && document.body.dataset.thinking === '');
  const first = (await snapshot(page)).moves;
  // Look at move 1 and play another first move: the engine answers it.
  await page.click('#moves button[data-ply="1"]');
  await shownPly(page, 0);
  await clickCell(page, 'a1');
  await page.waitForFunction(() => document.body.dataset.ply === '2' && document.body.dataset.thinking === '');
  const second = (await snapshot(page)).moves;
  assert.equal(second[0], 'a1');
  const tree = await page.evaluate(() => window.__playground.gameTree());
  assert.deepEqual(tree.moves, first);
  assert.deepEqual(tree.variations, [{ at: 0, moves: second, variations: [] }]);
  // Back to the main line's last move: the engine is held (it is the person's turn there anyway);
  // at its move 1 the engine would be to move after b2: it does not play while held.
  await page.click(`#moves li:not(.variation) button[data-line="${first[0]}"]`);
  await page.waitForFunction(() => document.body.dataset.review === '1');
  assert.deepEqual((await snapshot(page)).moves, first);
  assert.equal(await page.textContent('#pause'), 'Resume', 'held: Resume shows');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'analysis-variation-390');
  assertClean(assert, page);
});

test('learn from your mistakes: the position before each mistake, a try judged by the solver, the answer, next', async () => {
  // O's edge reply to the centre loses a proven draw (drawn → lost).
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person&moves=b2,a2');
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  await page.selectOption('#review-playouts', '2000');
  await page.click('#review-run');
  await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished');
  await page.click('#rv-learn');
  await page.waitForFunction(() => document.querySelector('#learn')?.dataset.feedback === 'find');
  assert.equal(await page.getAttribute('#learn', 'data-move'), '2');
  await shownPly(page, 1);
  assert.match(await page.textContent('#learn-ask'), /Move 2: O played a2 \?\?✗ \(drawn → lost\)\. Find a better move for O/);
  assert.equal(await page.isHidden('#review-bar'), true, 'the card says what is shown');
  // An edge: loses too (proven) — not played, the game is untouched.
  await clickCell(page, 'b1');
  await page.waitForFunction(() => document.querySelector('#learn')?.dataset.feedback === 'wrong');
  assert.match(await page.textContent('#learn-verdict'), /b1 loses \(proven\) where this position draws: try again/);
  assert.deepEqual((await snapshot(page)).moves, ['b2', 'a2']);
  // A corner keeps the draw.
  await clickCell(page, 'a1');
  await page.waitForFunction(() => document.querySelector('#learn')?.dataset.feedback === 'right');
  assert.match(await page.textContent('#learn-verdict'), /a1 draws \(proven by the solver\)/);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'learn-right-390');
  await page.click('#learn-next');
  await page.waitForFunction(() => document.querySelector('#learn')?.dataset.feedback === 'done');
  assert.match(await page.textContent('#learn-ask'), /You went through 1 mistake; 1 found a better move/);
  await page.click('#learn-stop');
  await page.waitForFunction(() => document.querySelector('#learn').hidden && document.body.dataset.review === '');
  assertClean(assert, page);
});

test('a move after Undo continues the game: the new line is the main line, the line taken back a variation', async () => {
  const page = await h.openPage(`?game=hex:5&p0=person&p1=person&moves=${GAME.join(',')}`);
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.ply === '5');
  await page.click('#undo');
  await page.waitForFunction(() => document.body.dataset.ply === '4');
  // The move taken back stays in the list, dimmed, until another is played.
  assert.equal(await page.getAttribute('#moves li.ahead button', 'data-line'), GAME.join(' '));
  await clickCell(page, 'a1');
  await page.waitForFunction(() => document.body.dataset.ply === '5');
  const tree = await page.evaluate(() => window.__playground.gameTree());
  assert.deepEqual(tree.moves, [...GAME.slice(0, 4), 'a1']);
  assert.deepEqual(tree.variations, [{ at: 4, moves: ['e3'], variations: [] }]);
  assertClean(assert, page);
});
