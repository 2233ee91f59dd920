// The game review's views of a finished review (review/view.ts, review/marks.ts): a report
// injected for a game the engine played against itself (every move keeps its search, so every
// position can be shown) puts its classes' glyphs in the move list and on the board's last-move
// marker, draws the game graph (a click on it shows that position), steps through the mistakes
// with n / N, and summarises each player's counts and accuracy; desktop, dark and phone screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setup, boardReady, assertClean, screenshot, ROOT, SCREENSHOTS } from './harness.mjs';

let h;
let fixture;
before(async () => {
  h = await setup();
  fixture = JSON.parse(await readFile(join(ROOT, 'www/src/review/testdata/hex9-estimates.json'), 'utf8'));
});
after(async () => {
  await h?.close();
});

const GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??', exact: '??✗' };

/** A report for `moves` (a Hex game): the fixture's plies in turn (they alternate black, white),
 * with move 3 an exact blunder (won → lost); the summary counted from them. */
function reportFor(moves) {
  const plies = moves.map((move, i) => {
    const p = { ...fixture.plies[i % fixture.plies.length], ply: i, move, mover: i % 2 ? 'white' : 'black' };
    if (i === 2)
      Object.assign(p, {
        class: 'blunder',
        label: 'won → lost',
        exact_before: 'win',
        exact_after: 'loss',
        value_before: 1,
        value_after: 0,
        loss: 1,
      });
    return p;
  });
  const summary = {};
  for (const [who, acc] of [
    ['black', 71.24],
    ['white', 40.06],
  ]) {
    const mine = plies.filter((p) => p.mover === who);
    summary[who] = {
      accuracy: acc,
      ...Object.fromEntries(['best', 'good', 'inaccuracy', 'mistake', 'blunder'].map((c) => [c, mine.filter((p) => p.class === c).length])),
    };
  }
  return { ...fixture, game: 'hex:5', moves, plies, summary };
}

/** The kind of mark a ply gets (null: best and good). */
const kindOf = (p) =>
  p.class === 'blunder' && p.label ? 'exact' : ['inaccuracy', 'mistake', 'blunder'].includes(p.class) ? p.class : null;

/** Plays an engine-against-engine Hex 5×5 game to its end and injects a review of it. */
async function reviewedGame(viewport, colorScheme = 'light') {
  const page = await h.openPage('?game=hex:5&p0=engine&p1=engine&preset=uct&playouts=100&seed=3', { viewport, colorScheme });
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.over === 'true' && document.body.dataset.thinking === '');
  const moves = await page.evaluate(() => window.__playground.snapshot().moves);
  const report = reportFor(moves);
  await page.evaluate((r) => window.__playground.setGameReview(r), report);
  await page.waitForFunction(() => !document.querySelector('#game-review').hidden && document.querySelector('#rv-graph canvas'));
  return { page, moves, report };
}

test('the marks, the graph, next / previous mistake and the summary of a finished review', async () => {
  const { page, moves, report } = await reviewedGame({ width: 1280, height: 900 });
  // Marks in the move list: each move's glyph is its class's.
  const listed = await page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.rv-glyph')?.dataset.class ?? null));
  assert.deepEqual(listed, report.plies.map(kindOf));
  const texts = await page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.rv-glyph')?.textContent ?? null));
  assert.deepEqual(
    texts,
    report.plies.map((p) => (kindOf(p) ? GLYPH[kindOf(p)] : null)),
  );
  assert.match(await page.getAttribute('#moves li:nth-child(3) .rv-glyph', 'title'), /won → lost/);

  // The summary: each player's counts and accuracy with one decimal.
  for (const [who, acc] of [
    ['black', '71.2%'],
    ['white', '40.1%'],
  ]) {
    const row = await page.$eval(`#rv-summary tr[data-player="${who}"]`, (tr) =>
      Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.class, td.textContent])),
    );
    const s = report.summary[who];
    assert.deepEqual(row, {
      best: String(s.best),
      good: String(s.good),
      inaccuracy: String(s.inaccuracy),
      mistake: String(s.mistake),
      blunder: String(s.blunder),
      accuracy: acc,
    });
  }
  assert.match(await page.textContent('#rv-how'), /Advice\.scala.*lichess\.org\/page\/accuracy/);

  // A click on the graph at position 3 shows it: the position before move 4, three stones, move
  // 3's stone marked with its glyph (the exact blunder).
  const n = moves.length;
  const clickAt = async (k) => {
    await page.locator('#rv-graph .u-over').scrollIntoViewIfNeeded();
    const box = await page.locator('#rv-graph .u-over').boundingBox();
    await page.mouse.move(box.x + (k / n) * box.width, box.y + box.height / 2);
    await page.mouse.click(box.x + (k / n) * box.width, box.y + box.height / 2);
  };
  await clickAt(3);
  await page.waitForFunction(() => document.body.dataset.review === '4');
  const stones = await page.$$eval('#board .cell.p0, #board .cell.p1', (cs) => cs.map((c) => c.dataset.cell).sort());
  assert.deepEqual(stones, moves.slice(0, 3).sort(), 'the board shows the position after three moves');
  const glyph = await page.$eval(`#board [data-cell="${moves[2]}"] text.last-glyph`, (t) => ({
    shown: t.style.display !== 'none',
    text: t.querySelector('tspan').textContent,
    cls: t.getAttribute('class'),
  }));
  assert.deepEqual(glyph, { shown: true, text: '??✗', cls: 'last-glyph rv-exact' });
  await screenshot(page, 'review-view-desktop');

  // n steps through every marked move of both sides in order; N goes back.
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.review === '');
  await page.click('#game-review-title');
  const marked = report.plies.filter((p) => kindOf(p)).map((p) => String(p.ply + 1));
  const seen = [];
  for (const want of marked) {
    await page.keyboard.press('n');
    await page.waitForFunction((w) => document.body.dataset.review === w, want);
    seen.push(want);
  }
  assert.deepEqual(seen, marked);
  await page.keyboard.press('n');
  await page.waitForFunction(() => document.querySelector('#rv-nav-note').textContent === 'No further mistake.');
  for (const want of marked.slice(0, -1).reverse()) {
    await page.keyboard.press('Shift+N');
    await page.waitForFunction((w) => document.body.dataset.review === w, want);
  }
  // One side only: White's mistakes, with the button.
  await page.selectOption('#rv-side', 'white');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.review === '');
  const white = report.plies.filter((p) => kindOf(p) && p.mover === 'white').map((p) => String(p.ply + 1));
  for (const want of white) {
    await page.click('#rv-next');
    await page.waitForFunction((w) => document.body.dataset.review === w, want);
  }
  // A window made narrow (a phone turned, a desktop window shrunk): the section follows the page
  // and the graph is redrawn to its width (the graph drawn at 1280 never holds the page wide).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => {
    const g = document.querySelector('#rv-graph .uplot')?.getBoundingClientRect();
    return document.documentElement.scrollWidth <= 390 && g && g.right <= 390;
  });
  assertClean(assert, page);
});

test('the review section in the dark scheme and on a phone: the graph fits the width', async () => {
  const dark = await reviewedGame({ width: 1280, height: 900 }, 'dark');
  await screenshot(dark.page, 'review-view-dark');
  await dark.page.locator('#game-review').screenshot({ path: join(SCREENSHOTS, 'review-view-dark-section.png') });
  assertClean(assert, dark.page);
  const { page } = await reviewedGame({ width: 390, height: 844 });
  const right = await page.$eval('#rv-graph canvas', (c) => c.getBoundingClientRect().right);
  assert.ok(right <= 390, `the graph ends at ${right}px, inside the 390px screen`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 390, `the page is ${overflow}px wide`);
  await page.locator('#game-review').scrollIntoViewIfNeeded();
  await screenshot(page, 'review-view-phone');
  await page.locator('#game-review').screenshot({ path: join(SCREENSHOTS, 'review-view-phone-section.png') });
  assertClean(assert, page);
});

test('an exact review (every position proven) of a game loaded from a link: exact blunders, Black’s curve from the exact values, and a move without a kept search shown all the same', async () => {
  const exact = JSON.parse(await readFile(join(ROOT, 'www/src/review/testdata/hex7-exact.json'), 'utf8'));
  const page = await h.openPage(`?game=hex:7&p0=person&p1=person&moves=${encodeURIComponent(exact.moves.join(' '))}`);
  await boardReady(page);
  await page.waitForFunction((n) => document.body.dataset.ply === String(n), exact.moves.length);
  await page.evaluate((r) => window.__playground.setGameReview(r), exact);
  await page.waitForFunction(() => !document.querySelector('#game-review').hidden && document.querySelector('#rv-graph canvas'));
  const listed = await page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.rv-glyph')?.textContent ?? null));
  assert.deepEqual(
    listed,
    exact.plies.map((p) => (p.class === 'blunder' ? '??✗' : null)),
  );
  // Black's win probability: value_before where Black moves, 1 − value_before where White does,
  // the end from the last move's value_after (White's win there: Black's 0).
  const want = [...exact.plies.map((p) => (p.mover === 'black' ? p.value_before : 1 - p.value_before)), 1 - exact.plies.at(-1).value_after];
  assert.equal(await page.getAttribute('#rv-graph', 'data-curve'), want.map((v) => v.toFixed(3)).join(' '));
  // The last move (g2, White's) is not marked: the board's last-move marker has no glyph.
  assert.equal(await page.$$eval('#board text.last-glyph', (ts) => ts.filter((t) => t.style.display !== 'none').length), 0);
  // No move of a loaded game keeps its search, and the mistake step shows its position all the
  // same (the analysis board shows every move): the position before move 3.
  await page.click('#rv-next');
  await page.waitForFunction(() => /^Move 3 \(e3\) \?\?✗$/.test(document.querySelector('#rv-nav-note').textContent.trim()));
  await page.waitForFunction(() => document.body.dataset.review === '3' && document.body.dataset.shownPly === '2');
  await page.locator('#game-review').screenshot({ path: join(SCREENSHOTS, 'review-view-exact-section.png') });
  assertClean(assert, page);
});

test('Pentago: the last move’s glyph sits with the last-move marker in the cell where its stone ended', async () => {
  // A report for four Pentago moves, built from the Hex fixture's values: only the last move is
  // classed (a mistake), so the live position's last move is the one marked.
  const moves = ['a1-TL-cw', 'c3-BR-cw', 'd4-TR-ccw', 'f6-BL-cw'];
  const fx = JSON.parse(await readFile(join(ROOT, 'www/src/review/testdata/hex9-estimates.json'), 'utf8'));
  const plies = moves.map((move, i) => ({
    ...fx.plies[i],
    ply: i,
    move,
    mover: i % 2 ? 'white' : 'black',
    class: i === 3 ? 'mistake' : 'best',
  }));
  const page = await h.openPage(`?game=pentago&p0=person&p1=person&moves=${encodeURIComponent(moves.join(' '))}`);
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.ply === '4');
  const last = await page.evaluate(() => window.__playground.snapshot().view.last_cells.at(-1));
  await page.evaluate((r) => window.__playground.setGameReview(r), { ...fx, game: 'pentago:official', moves, plies });
  await page.waitForFunction(() => [...document.querySelectorAll('#board text.last-glyph')].some((t) => t.style.display !== 'none'));
  const shown = await page.$$eval('#board text.last-glyph', (ts) =>
    ts
      .filter((t) => t.style.display !== 'none')
      .map((t) => ({ cell: Number(t.closest('[data-index]').dataset.index), text: t.querySelector('tspan').textContent })),
  );
  assert.deepEqual(shown, [{ cell: last, text: '?' }]);
  await page.locator('#board').screenshot({ path: join(SCREENSHOTS, 'review-view-pentago-board.png') });
  assert.deepEqual(await page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.rv-glyph')?.textContent ?? null)), [
    null,
    null,
    null,
    '?',
  ]);
  assertClean(assert, page);
});
