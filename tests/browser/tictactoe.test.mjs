// Tic-Tac-Toe in the browser: a whole game against the engine, refusals, undo/redo.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, ply, moves, snapshot, waitForPly, waitPersonTurn, clickCell, assertClean, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('a whole Tic-Tac-Toe game against the engine, played by clicks, ends with a result', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=engine&ms=150');
  await boardReady(page);
  assert.equal(await page.textContent('#status'), 'X to move');
  for (let turn = 0; turn < 5; turn++) {
    // The person (X) plays the first legal cell on each of its turns; the engine (O) answers.
    await waitPersonTurn(page, 0);
    const snap = await snapshot(page);
    if (snap.outcome) break;
    const n = await ply(page);
    await clickCell(page, snap.legal[0]);
    await waitForPly(page, n + 1);
  }
  await waitPersonTurn(page, 0);
  const snap = await snapshot(page);
  assert.ok(snap.outcome, 'the game reached its end');
  assert.match(await page.textContent('#status'), /^Game over: (X wins|O wins|a draw)\./);
  assert.equal((await moves(page)).length, snap.view.ply);
  assert.equal(await page.getAttribute('#hint', 'disabled'), '');
  if (snap.outcome.winner !== null) {
    assert.equal(await page.locator('.cell.win').count(), 3, 'the winning line is highlighted');
  }
  // After the end a click changes nothing and says why.
  const before = await ply(page);
  await page.click('[data-index="0"]');
  assert.match(await page.textContent('#message'), /game is over/);
  assert.equal(await ply(page), before);
  await screenshot(page, 'tictactoe-vs-engine');
  assertClean(assert, page);
});

test('an illegal click gets visible feedback and changes nothing; undo/redo; keyboard play', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person');
  await boardReady(page);
  await clickCell(page, 'b2');
  await waitForPly(page, 1);
  await clickCell(page, 'b2');
  await page.waitForSelector('[data-cell="b2"].refused');
  assert.match(await page.textContent('#message'), /b2 is not a legal move/);
  assert.equal(await ply(page), 1);
  assert.deepEqual(await moves(page), ['b2']);
  // Keyboard: focus the board, arrows move the cursor from the centre, Enter plays.
  await page.focus('#board');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await waitForPly(page, 2);
  assert.deepEqual(await moves(page), ['b2', 'a1']);
  await page.click('#undo');
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  await page.click('#redo');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  assert.deepEqual(await moves(page), ['b2', 'a1']);
  assert.equal(await page.locator('[data-cell="a1"].last').count(), 1, 'the last move is marked');
  assertClean(assert, page);
});
