// In Chromium: the page's inputs from the URL. `?moves=` with one bad token keeps the legal prefix
// on the board and names the bad token and its position; absurd compare parameters are named in
// the same message as every other parameter, and the compare form keeps its values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, snapshot, moves, assertClean, screenshot, teachReady } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('moves= with a bad token keeps the legal prefix, shows it and names the token and its position', async () => {
  const page = await h.openPage('?game=hex:7&moves=d4,c5,zz9,e3&p0=person&p1=person');
  await boardReady(page);
  await teachReady(page);
  const s = await snapshot(page);
  assert.equal(s.view.spec, 'hex:7');
  assert.deepEqual(s.moves, ['d4', 'c5'], 'the two legal moves before the bad one are played');
  assert.deepEqual(await moves(page), ['d4', 'c5'], 'and shown in the move list');
  const msg = await page.textContent('#message');
  assert.match(msg, /move 3 of 4, 'zz9', cannot be played/);
  assert.match(msg, /the 2 moves before it are on the board, the 1 after it left out/);
  assert.equal(new URL(page.url()).searchParams.get('moves'), 'd4 c5', 'the URL holds what is on the board');
  await screenshot(page, 'moves-url-prefix');

  // An occupied cell (legal notation, illegal move) at the first position: nothing is kept.
  const first = await h.openPage('?game=tictactoe&moves=b2,b2&p0=person&p1=person');
  await boardReady(first);
  await teachReady(first);
  assert.deepEqual((await snapshot(first)).moves, ['b2']);
  assert.match(await first.textContent('#message'), /move 2 of 2, 'b2', cannot be played/);
  assertClean(assert, page);
  assertClean(assert, first);
});

test('absurd compare parameters are named in the message and leave the form as it was', async () => {
  const page = await h.openPage('?view=compare&cmpbudget=99999999999999999999&cmpseed=abc&pane1=c:-3&cmpmode=fast');
  await teachReady(page);
  const msg = await page.textContent('#message');
  for (const part of [
    'cmpbudget=99999999999999999999: expected a whole number from 100 to 100,000,000 (playouts)',
    'cmpseed=abc',
    'pane1: c=-3: the exploration constant c must be a number from 0 to 100',
    'cmpmode=fast',
  ])
    assert.ok(msg.includes(part), `${part} in: ${msg}`);
  assert.equal(await page.inputValue('#cmp-budget'), '50000', 'the form keeps its budget');
  assert.equal(await page.inputValue('#cmp-c-0'), '');
  // The form checks what is typed with the same sentences, and does not run.
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.fill('#cmp-budget', '5');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'invalid');
  assert.match(await page.textContent('#cmp-note'), /playouts=5: expected a whole number from 100 to 100,000,000/);
  assertClean(assert, page);
});

test('the keyboard cursor is announced to screen readers (aria-activedescendant)', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  await teachReady(page);
  await page.focus('#board');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('board').getAttribute('aria-activedescendant'));
  const active = await page.evaluate(() => {
    const id = document.getElementById('board').getAttribute('aria-activedescendant');
    const cell = document.getElementById(id);
    return { cell: cell?.dataset.cell, selected: cell?.getAttribute('aria-selected'), label: cell?.getAttribute('aria-label') };
  });
  assert.equal(active.cell, 'd3', 'the cursor moved right from the centre c3');
  assert.equal(active.selected, 'true');
  assert.match(active.label, /^d3 empty$/);
  assertClean(assert, page);
});

test('engine against engine: no Pause once the game is over', async () => {
  const page = await h.openPage('?game=tictactoe&p0=engine&p1=engine&preset=uct&playouts=300&seed=2');
  await boardReady(page);
  await teachReady(page);
  await page.waitForSelector('#status.over');
  assert.equal(await page.isHidden('#pause'), true, 'no Pause after the game ended');
  assert.match(await page.textContent('#status'), /draw|wins/i);
  assertClean(assert, page);
});
