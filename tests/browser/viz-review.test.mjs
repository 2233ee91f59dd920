// The search behind every move: the views keep the search that chose the engine's move after it
// is played; the move list reaches it again (review: the position before the move, a move played there starts a variation,
// with that search's overlay, trees and internals); Back to live (button, Escape, End) returns;
// the game's JSON record carries each engine move's root statistics and loads again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { setup, boardReady, assertClean, waitForPly, waitIdle, clickCell, screenshot, teachReady } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** The status names move `ply` and the icicle has drawn the tree of the search behind it (its
 *  `data-behind` is written when it draws, so a tree drawn earlier during the search does not
 *  count). */
async function waitBehind(page, ply) {
  await page.waitForFunction((n) => document.querySelector('#an-status').dataset.behind === String(n), ply);
  await page.waitForFunction((n) => {
    const icicle = document.querySelector('#analysis .icicle');
    return icicle.dataset.behind === String(n) && Number(icicle.dataset.total || 0) > 0;
  }, ply);
}

/** The board cell `name` (has it a stone?) and the overlay drawn on it (heat and ghost stone
 *  shown?, label text). */
function overlayCell(page, name) {
  return page.$eval(`#board [data-cell="${name}"]`, (c) => {
    const g = document.querySelector(`#board .viz-overlay [data-ov-cell="${c.dataset.index}"]`);
    const shown = (sel) => g.querySelector(sel).style.display !== 'none';
    return {
      stone: /\b(p0|p1)\b/.test(c.getAttribute('class')),
      heat: shown('.ov-heat'),
      ghost: shown('.ov-ghost'),
      label: g.querySelector('.ov-label').textContent,
    };
  });
}

test('the search behind an engine move survives the move, is reachable from the move list, and back to live works', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=rave&playouts=3000&seed=1');
  await boardReady(page);
  await clickCell(page, 'c3');
  await waitForPly(page, 2);
  await waitIdle(page);
  // The views keep the engine's search after its move: the panel names move 2 and its playouts.
  await waitBehind(page, 2);
  const snap = await page.evaluate(() => window.__playground.snapshot());
  const reply = snap.moves[1];
  const status = await page.textContent('#an-status');
  assert.match(status, new RegExp(`Search behind move 2 \\(${reply}\\), 3,000 playouts, rave`));
  assert.ok(Number(await page.evaluate(() => document.body.dataset.overlay)) >= 3000, 'the overlay still shows that search');
  // The engine's stone shows through that overlay (drawn on the position after the move): no
  // heat or ghost stone on its cell, only its visit share as a label.
  const played = await overlayCell(page, reply);
  assert.equal(played.stone, true, 'the engine move is a stone on the board');
  assert.deepEqual([played.heat, played.ghost], [false, false], 'no heat or ghost stone covers it');
  assert.match(played.label, /%$/, 'its visit share is written on it');
  const kept = await page.evaluate(() => document.querySelector('#analysis .icicle').dataset.total);
  // A second person move and engine reply: move 2 stays reachable from the list.
  const free = snap.legal.find((m) => m !== 'c3' && m !== reply);
  await clickCell(page, free);
  await waitForPly(page, 4);
  await waitIdle(page);
  await waitBehind(page, 4);
  // One search, one count: the search behind move 4 ran 3,000 playouts on the tree kept from
  // move 2 — what the engine's readout said — not the 6,000 the tree has run in all.
  assert.equal(await page.getAttribute('#thinking', 'data-playouts'), '3000');
  assert.equal(await page.getAttribute('#an-status', 'data-iterations'), '3000');
  assert.match(
    await page.textContent('#an-status'),
    /Search behind move 4 \(\w+\), 3,000 playouts( \(root N [\d,]+ with the tree kept from earlier moves\))?, rave/,
  );
  const buttons = await page.$$eval('#moves button.mv.searched', (bs) => bs.map((b) => b.dataset.ply));
  assert.deepEqual(buttons, ['2', '4'], 'engine moves keep their search (underlined), person moves without a search do not');
  await page.click('#moves button[data-ply="2"]');
  await page.waitForFunction(() => document.body.dataset.review === '2');
  await waitBehind(page, 2);
  assert.equal(await page.evaluate(() => document.querySelector('#analysis .icicle').dataset.total), kept, 'the same tree as after move 2');
  assert.match(await page.textContent('#review-text'), new RegExp(`Reviewing move 2 \\(${reply}\\)`));
  assert.match(await page.textContent('#an-status'), /Search behind move 2 .*3,000 playouts, rave/);
  // The board shows the position before move 2: one stone (c3).
  const stones = await page.evaluate(() => window.__playground.snapshot().moves.length);
  assert.equal(stones, 4, 'the game itself is untouched');
  const occupied = await page.$$eval('#board [data-index]', (cs) => cs.filter((c) => /\b(p0|p1)\b/.test(c.getAttribute('class'))).length);
  assert.equal(occupied, 1, 'the board shows the position before move 2');
  // There the move's cell is empty and carries its heat again.
  const reviewed = await overlayCell(page, reply);
  assert.deepEqual([reviewed.stone, reviewed.heat], [false, true], 'in review the move is heat on an empty cell');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'review-hex5-1280-light');
  // Back to live: the button.
  await page.click('#live');
  await page.waitForFunction(() => document.body.dataset.review === '');
  await waitBehind(page, 4);
  // Keyboard: focus move 2, Enter reviews it, Escape returns; End too.
  await page.focus('#moves button[data-ply="2"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.review === '2');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.review === '');
  await page.focus('#moves button[data-ply="4"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.review === '4');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.body.dataset.review === '');
  assertClean(assert, page);
});

test('review screenshots at 390×844 and in dark mode', async () => {
  for (const [name, viewport, colorScheme] of [
    ['review-hex5-390-light', { width: 390, height: 844 }, 'light'],
    ['review-hex5-390-dark', { width: 390, height: 844 }, 'dark'],
    ['review-hex5-1280-dark', { width: 1280, height: 800 }, 'dark'],
  ]) {
    const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=rave&playouts=2000&seed=1', { viewport, colorScheme });
    await boardReady(page);
    await clickCell(page, 'c3');
    await waitForPly(page, 2);
    await waitIdle(page);
    await waitBehind(page, 2);
    await page.click('#moves button[data-ply="2"]');
    await page.waitForFunction(() => document.body.dataset.review === '2');
    await screenshot(page, name);
    assertClean(assert, page);
  }
});

test('the JSON record carries each engine move’s root statistics and loads again', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=uct&playouts=1500&seed=3');
  await boardReady(page);
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  await waitIdle(page);
  await page.click('#record-show-json');
  await page.waitForFunction(() => document.querySelector('#record-text').value.startsWith('{'));
  const json = JSON.parse(await page.inputValue('#record-text'));
  assert.equal(json.format, 'mcts-playground-game');
  assert.equal(json.game, 'hex:5');
  assert.equal(json.moves.length, 2);
  assert.equal(json.searches.length, 1, 'one engine move');
  const s = json.searches[0];
  assert.equal(s.ply, 2);
  assert.equal(s.move, json.moves[1]);
  assert.equal(s.player, 1);
  assert.equal(s.preset, 'uct');
  assert.ok(s.playouts >= 1500);
  assert.equal(s.chosen.move, s.move);
  assert.ok(s.chosen.visits > 0 && s.chosen.win_rate >= 0 && s.chosen.win_rate <= 1);
  assert.ok(s.best_rival && s.best_rival.move !== s.move && s.best_rival.visits <= s.chosen.visits);
  // Download gives the same document.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-json')]);
  const text = await readFile(await dl.path(), 'utf8');
  assert.deepEqual(JSON.parse(text).searches, json.searches);
  // Load it again in a fresh page: the moves and the statistics come back (move 2 reviewable,
  // its tree gone but its root statistics shown).
  const other = await h.openPage('?game=hex:7');
  await boardReady(other);
  await other.fill('#record-text', text);
  await other.click('#record-load');
  await waitForPly(other, 2);
  // The move's button knows its search from the record (data-search) before it is clicked: a
  // click on it earlier reviews the position alone, and the status never names the search.
  await other.waitForSelector('#moves button[data-ply="2"][data-search="record"]');
  await other.click('#moves button[data-ply="2"]');
  await other.waitForFunction(() => document.querySelector('#an-status').dataset.behind === '2');
  assert.match(await other.textContent('#an-status'), new RegExp(`move 2 \\(${s.move}\\).*from the loaded record.*N = ${s.chosen.visits}`));
  // An old record without statistics (a move list) still loads.
  await other.fill('#record-text', 'hex:5\nc3 b2');
  await other.click('#record-load');
  await other.waitForFunction(() => window.__playground.snapshot().moves.join(' ') === 'c3 b2');
  assertClean(assert, page);
  assertClean(assert, other);
});

test('a person’s move after Analyse keeps that analysis as the search behind the move', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '2000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await clickCell(page, 'c3');
  await waitForPly(page, 1);
  await waitBehind(page, 1);
  assert.match(await page.textContent('#an-status'), /Search behind move 1 \(c3\), 2,000 playouts, uct/);
  await page.click('#moves button[data-ply="1"]');
  await page.waitForFunction(() => document.body.dataset.review === '1');
  const occupied = await page.$$eval('#board [data-index]', (cs) => cs.filter((c) => /\b(p0|p1)\b/.test(c.getAttribute('class'))).length);
  assert.equal(occupied, 0, 'the position before move 1: the empty board');
  // A new search (Analyse of the live position) replaces the kept one on the views.
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.review === '');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  assert.equal(await page.evaluate(() => document.querySelector('#an-status').dataset.behind), '');
  assertClean(assert, page);
});

test('a reload and the copied link keep what the move list can review, with the same figures', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&preset=uct&playouts=1500&seed=3');
  await boardReady(page);
  await teachReady(page);
  // Move 2: the engine's reply; move 3: a person's move after Analyse; move 4: the engine's reply.
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  await waitIdle(page);
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'rave');
  await page.fill('#an-budget', '1000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  const free = (await page.evaluate(() => window.__playground.snapshot())).legal.find((m) => m !== 'c3');
  await clickCell(page, free);
  await waitForPly(page, 4);
  await waitIdle(page);
  await waitBehind(page, 4);
  const reviewable = (p) => p.$$eval('#moves button[data-search]', (bs) => bs.map((b) => Number(b.dataset.ply)));
  const figures = async (p) => {
    await p.click('#record-show-json');
    await p.waitForFunction(() => document.querySelector('#record-text').value.startsWith('{'));
    return JSON.parse(await p.inputValue('#record-text'));
  };
  await page.waitForFunction(() => document.querySelectorAll('#moves button[data-search]').length === 3);
  assert.deepEqual(await reviewable(page), [2, 3, 4]);
  const want = await figures(page);
  assert.deepEqual(
    want.searches.map((s) => [s.ply, s.source, s.preset]),
    [
      [2, 'engine', 'uct'],
      [3, 'analysis', 'rave'],
      [4, 'engine', 'uct'],
    ],
  );
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#copy-link').dataset.url);
  const link = await page.getAttribute('#copy-link', 'data-url');
  assert.ok(new URL(link).searchParams.get('searches'), link);

  // A reload: the same moves reviewable, the same root statistics.
  await page.reload();
  await boardReady(page);
  await teachReady(page);
  assert.deepEqual((await page.evaluate(() => window.__playground.snapshot())).moves, want.moves);
  assert.deepEqual(await reviewable(page), [2, 3, 4]);
  assert.deepEqual((await figures(page)).searches, want.searches);

  // The copied link in a fresh browser context: the same, and reviewing move 3 shows its figures.
  const other = await h.openPage(link.slice(h.url.length));
  await boardReady(other);
  await teachReady(other);
  assert.deepEqual(await reviewable(other), [2, 3, 4]);
  assert.deepEqual((await figures(other)).searches, want.searches);
  const s3 = want.searches[1];
  await other.click('#moves button[data-ply="3"]');
  await other.waitForFunction(() => document.body.dataset.review === '3');
  assert.match(
    await other.textContent('#review-bar'),
    new RegExp(
      `Reviewing move 3 \\(${s3.move}\\).*Search behind move 3 \\(${s3.move}\\), 1,000 playouts, rave \\(from the link: root statistics only\\)`,
    ),
  );
  await other.waitForFunction(() => document.querySelector('#an-status').dataset.behind === '3');
  assert.match(
    await other.textContent('#an-status'),
    new RegExp(`from the link.*N = ${s3.chosen.visits}, win rate ${(s3.chosen.win_rate * 100).toFixed(1)}%`),
  );
  await screenshot(other, 'viz-review-from-link');
  assertClean(assert, page);
  assertClean(assert, other);
});
