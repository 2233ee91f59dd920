// A game review lasts (issue 49, item 8): a link with `review=1` reviews the game again on load
// and its figures equal `mcts review --json` with the link's seed and playouts; Copy link of a
// reviewed game writes `review=1` and its budget; the game's JSON carries the review and loading it
// in a fresh page brings the marks, the graph and the summary back (a malformed review is refused,
// a review of other moves left out); a time budget per position (`ms`) reviews too; the embed's
// `review` command reviews the game and `reviewFinished` carries the report. Waits for states and
// events, never for time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setup, boardReady, assertClean, screenshot, buildNative, teachReady, ROOT, SCREENSHOTS } from './harness.mjs';
import { GAME, MOVES, assertSameReport, figures, nativeReview, reviewState } from './review-common.mjs';

let h;
before(async () => {
  buildNative();
  h = await setup();
});
after(async () => {
  await h?.close();
});

const finished = (page) => page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished');

/** The move list's glyphs (null: no mark). */
const glyphs = (page) => page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.rv-glyph')?.textContent ?? null));

test('a link with review=1 reviews the game on load: the figures equal mcts review --json with its seed and playouts; Copy link writes it', async () => {
  const page = await h.openPage(`?game=${GAME}&moves=${MOVES.join(',')}&p0=person&p1=person&seed=3&review=1&reviewplayouts=2000`);
  await boardReady(page);
  await finished(page);
  const r = (await reviewState(page)).report;
  assert.deepEqual(
    { iterations: r.settings.iterations, ms: r.settings.ms, seed: r.settings.seed },
    { iterations: 2000, ms: null, seed: 3 },
  );
  assert.deepEqual(r.moves, MOVES);
  assertSameReport(figures(r), figures(nativeReview(r.settings)));
  assert.equal(await page.getAttribute('body', 'data-url-errors'), '0');
  // The select shows the link's budget.
  assert.equal(await page.inputValue('#review-playouts'), '2000');
  // The address and Copy link carry the review (the seed is the link's seed=: no reviewseed).
  const address = new URL(page.url()).searchParams;
  assert.equal(address.get('review'), '1');
  assert.equal(address.get('reviewplayouts'), '2000');
  assert.equal(address.get('reviewseed'), null);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#copy-link').dataset.url);
  const link = new URL(await page.getAttribute('#copy-link', 'data-url')).searchParams;
  assert.deepEqual(
    ['review', 'reviewplayouts', 'seed', 'moves'].map((k) => link.get(k)),
    ['1', '2000', '3', MOVES.join(' ')],
  );
  // A new game makes the review stale (Undo would not: the review is of the tree's main line,
  // which Undo keeps): the address drops review=1.
  await page.click('#new-game');
  await page.waitForFunction(() => window.__playground.gameReview() === null);
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('review'));
  assertClean(assert, page);
});

test('review= values that do not read are named and left out: review=1 then reviews with the page’s defaults', async () => {
  const page = await h.openPage(`?game=${GAME}&moves=c3&p0=person&p1=person&review=1&reviewms=0&reviewseed=x`);
  await teachReady(page);
  assert.equal(await page.getAttribute('body', 'data-url-errors'), '2');
  assert.match(await page.textContent('#message'), /reviewms=0: expected a whole number from 1 to 600,000 \(ms\)/);
  assert.match(await page.textContent('#message'), /reviewseed=x: expected a whole number/);
  // review=1 still reviews, with the page's default budget (10,000 playouts) and seed 0.
  await finished(page);
  const r = (await reviewState(page)).report;
  assert.deepEqual([r.settings.iterations, r.settings.seed], [10000, 0]);
  assertClean(assert, page);
});

test('the game JSON carries the review: loaded in a fresh page, the marks, the graph and the summary come back', async () => {
  const page = await h.openPage(`?game=${GAME}&moves=${MOVES.join(',')}&p0=person&p1=person&review=1&reviewplayouts=2000`);
  await boardReady(page);
  await finished(page);
  const before = (await reviewState(page)).report;
  const marks = await glyphs(page);
  const curve = await page.getAttribute('#rv-graph', 'data-curve');
  const summary = await page.$eval('#rv-summary', (t) => t.textContent);
  await page.click('#record-show-json');
  const text = await page.inputValue('#record-text');
  const json = JSON.parse(text);
  assert.equal(json.format, 'mcts-playground-game');
  assert.deepEqual(json.review, before);
  // The download is the same record.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-json')]);
  assert.deepEqual(JSON.parse(await readFile(await dl.path(), 'utf8')).review, before);

  // A fresh page (another game on its board): Load record brings the game and its review.
  const fresh = await h.openPage('?game=hex:7&p0=person&p1=person');
  await boardReady(fresh);
  await fresh.fill('#record-text', text);
  await fresh.click('#record-load');
  await finished(fresh);
  assert.deepEqual(await fresh.evaluate(() => window.__playground.snapshot().moves), MOVES);
  assert.deepEqual((await reviewState(fresh)).report, before);
  assert.match(await fresh.textContent('#message'), /Loaded hex:5, 6 moves, the statistics of 0 searches and its review\./);
  assert.deepEqual(await glyphs(fresh), marks);
  await fresh.waitForFunction(() => document.querySelector('#rv-graph canvas'));
  assert.equal(await fresh.getAttribute('#rv-graph', 'data-curve'), curve);
  assert.equal(await fresh.$eval('#rv-summary', (t) => t.textContent), summary);
  assert.equal(await fresh.textContent('#review-status'), 'Reviewed: 7 positions');
  await screenshot(fresh, 'review-lasts-restored');
  await fresh.locator('#game-review').screenshot({ path: join(SCREENSHOTS, 'review-lasts-restored-section.png') });

  // A malformed review: the record is refused with a sentence; the game and its review stay.
  const bad = { ...json, moves: [...MOVES.slice(0, 4)], review: { ...json.review, plies: json.review.plies.slice(1) } };
  await fresh.fill('#record-text', JSON.stringify(bad));
  await fresh.click('#record-load');
  await fresh.waitForFunction(() =>
    /Cannot read the record: the review cannot be read/.test(document.querySelector('#message').textContent),
  );
  assert.deepEqual(await fresh.evaluate(() => window.__playground.snapshot().moves), MOVES);
  assert.deepEqual((await reviewState(fresh)).report, before);
  // A review of other moves: the game loads without it, and the page says so.
  await fresh.fill('#record-text', JSON.stringify({ ...json, moves: MOVES.slice(0, 4) }));
  await fresh.click('#record-load');
  await fresh.waitForFunction(() => /its review is of another game/.test(document.querySelector('#message').textContent));
  assert.deepEqual(await fresh.evaluate(() => window.__playground.snapshot().moves), MOVES.slice(0, 4));
  assert.equal(await reviewState(fresh), null);
  assertClean(assert, fresh);

  // The phone, with a record of the exact review of a Hex 7×7 game (review/testdata): its exact
  // blunders are marked in the move list again, and the section fits the screen.
  const exact = JSON.parse(await readFile(join(ROOT, 'www/src/review/testdata/hex7-exact.json'), 'utf8'));
  const record = { format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: exact.moves, searches: [], review: exact };
  const phone = await h.openPage('?game=hex:5&p0=person&p1=person', { viewport: { width: 390, height: 844 } });
  await boardReady(phone);
  await phone.fill('#record-text', JSON.stringify(record));
  await phone.click('#record-load');
  await finished(phone);
  assert.deepEqual(
    await glyphs(phone),
    exact.plies.map((p) => (p.class === 'blunder' ? '??✗' : null)),
  );
  await phone.waitForFunction(() => document.querySelector('#rv-graph canvas'));
  assert.ok((await phone.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  await phone.locator('#game-review').scrollIntoViewIfNeeded();
  await screenshot(phone, 'review-lasts-restored-phone');
  assertClean(assert, phone);
});

test('a time budget per position: the review row offers milliseconds, and the report says so', async () => {
  const page = await h.openPage(`?game=${GAME}&moves=c3,b3&p0=person&p1=person`);
  await boardReady(page);
  await page.waitForFunction(() => window.__playground.snapshot()?.moves.length === 2);
  const options = await page.$$eval('#review-playouts option', (os) => os.map((o) => o.value));
  assert.deepEqual(options, ['2000', '10000', '50000', 'ms:100', 'ms:250', 'ms:1000']);
  await page.selectOption('#review-playouts', 'ms:100');
  await page.click('#review-run');
  await finished(page);
  const r = (await reviewState(page)).report;
  assert.deepEqual([r.settings.iterations, r.settings.ms], [null, 100]);
  assert.equal(r.plies.length, 2);
  assert.ok(
    r.plies.every((p) => p.iterations > 0),
    'every position was searched',
  );
  const link = new URL(page.url()).searchParams;
  assert.deepEqual([link.get('review'), link.get('reviewms'), link.get('reviewplayouts')], ['1', '100', null]);
  await page.locator('#review').screenshot({ path: join(SCREENSHOTS, 'review-lasts-ms-row.png') });
  assertClean(assert, page);
});

test('the embed’s review command reviews the game; reviewFinished carries the report, equal to mcts review --json', async () => {
  const host = await h.openPage('docs.html');
  await host.evaluate((moves) => {
    window.__events = [];
    window.addEventListener('message', (ev) => {
      if (ev.data?.source === 'mcts-playground') window.__events.push(ev.data);
    });
    const f = document.createElement('iframe');
    f.id = 'rv-frame';
    f.style.width = '420px';
    f.style.height = '900px';
    f.src = `index.html?embed=1&id=rv&show=review&game=hex:5&moves=${moves}&p0=person&p1=person`;
    document.body.prepend(f);
  }, MOVES.join(','));
  await host.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  const send = (msg) =>
    host.evaluate(
      (m) =>
        document.getElementById('rv-frame').contentWindow.postMessage({ source: 'mcts-playground', version: 1, ...m }, location.origin),
      msg,
    );
  // A malformed command: an error event naming the field.
  await send({ type: 'review', seed: -1 });
  await host.waitForFunction(() => window.__events.some((e) => e.type === 'error'));
  assert.equal(
    (await host.evaluate(() => window.__events.find((e) => e.type === 'error'))).message,
    "review: field 'seed' must be a whole number in 0..10^15",
  );
  await send({ type: 'review', budget: { kind: 'playouts', value: 1500 }, seed: 4 });
  await host.waitForFunction(() => window.__events.some((e) => e.type === 'reviewFinished'));
  const ev = await host.evaluate(() => window.__events.find((e) => e.type === 'reviewFinished'));
  assert.deepEqual([ev.id, ev.game, ev.moves], ['rv', 'hex:5', MOVES]);
  assert.deepEqual([ev.report.settings.iterations, ev.report.settings.seed], [1500, 4]);
  assertSameReport(figures(ev.report), figures(nativeReview(ev.report.settings)));
  assert.equal(ev.report.timing.length, MOVES.length + 1);
  // `show=review`: the review's section under the board, in the frame.
  const frame = host.frame({ url: /id=rv/ });
  await frame.waitForFunction(() => document.querySelector('#rv-graph canvas'));
  const board = await frame.$eval('.board-host svg', (e) => e.getBoundingClientRect().height);
  assert.ok(board > 200, `the board is drawn (${board}px high)`);
  await host.locator('#rv-frame').screenshot({ path: join(SCREENSHOTS, 'review-lasts-embed.png') });
  assertClean(assert, host);
});
