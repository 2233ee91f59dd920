// Where the board's marks are drawn. Every mark of the search overlays (visit heat, labels, rings,
// principal-variation stones, the exact solver's ✓ = ✗ ? badges) must sit on its own cell,
// whatever way the board was reached: loaded in the play view, loaded hidden behind another view
// (a lesson that opens in Compare) and then shown, after each view switch, after a resize, and
// after each step of every lesson. A mark drawn at size 0 at the board's origin (the overlay read
// the cells' geometry while the board was hidden, and kept the zeros) fails here.
//
// Then a screenshot comparison of a few fixed states (exact solver marks: no randomness) against
// reference images in tests/browser/reference/, within a pixel tolerance. When a change of the
// board's drawing is meant, look at the new images and update the references with
//
//     UPDATE_REFERENCES=1 node --test tests/browser/board-marks.test.mjs
//
// (the test then writes tests/browser/reference/*.png instead of comparing; commit them after
// looking at them). A failed comparison writes the image taken and a difference image (the
// pixels that differ in red) to tests/browser/screenshots/ (`marks-ref-NAME-actual.png`,
// `marks-ref-NAME-diff.png`). The images are decoded and compared in the browser's canvas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, assertClean, boardReady, lessonReady, doLessonStep, ROOT, SCREENSHOTS } from './harness.mjs';

const REFERENCE = join(ROOT, 'tests', 'browser', 'reference');
const UPDATE = process.env.UPDATE_REFERENCES === '1';

const ALL_OVERLAYS = 'visits,q,amaf,proven,pv,prior,exact';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/**
 * Every shown mark of every overlay on the page, against its cell: the centre of the mark's box
 * on screen must lie inside its cell's box, and a shape must have a size. Boards not shown (a
 * hidden view) are skipped. Returns the number of marks checked per kind, the boards seen, and
 * the marks out of place (at most 12 described).
 */
function checkMarks(page) {
  return page.evaluate(() => {
    const counts = {};
    const bad = [];
    let boards = 0;
    for (const group of document.querySelectorAll('.viz-overlay')) {
      const root = group.ownerSVGElement;
      const rb = root?.getBoundingClientRect();
      if (!root || !rb || rb.width === 0 || rb.height === 0) continue;
      boards++;
      const where = root.closest('[id]')?.id ?? '?';
      for (const g of group.querySelectorAll(':scope > [data-ov-cell]')) {
        const i = g.dataset.ovCell;
        const cell = root.querySelector(`[data-index="${i}"]`);
        const cb = (cell.querySelector('.cell-bg') ?? cell).getBoundingClientRect();
        for (const m of g.children) {
          if (getComputedStyle(m).display === 'none') continue;
          const isText = m.tagName === 'text';
          if (isText && m.textContent.trim() === '') continue;
          const kind = m.getAttribute('class')?.split(' ')[0] ?? m.tagName;
          counts[kind] = (counts[kind] ?? 0) + 1;
          const b = m.getBoundingClientRect();
          const cx = b.left + b.width / 2;
          const cy = b.top + b.height / 2;
          const inside = cx >= cb.left - 0.5 && cx <= cb.right + 0.5 && cy >= cb.top - 0.5 && cy <= cb.bottom + 0.5;
          const sized = b.width > 0.5 && b.height > 0.5;
          if ((!inside || !sized) && bad.length < 12)
            bad.push(
              `${where} cell ${cell.getAttribute('data-cell')} ${kind} "${m.textContent}" at (${cx.toFixed(1)}, ${cy.toFixed(1)}) size ${b.width.toFixed(1)}×${b.height.toFixed(1)}, cell box (${cb.left.toFixed(1)}, ${cb.top.toFixed(1)})–(${cb.right.toFixed(1)}, ${cb.bottom.toFixed(1)})`,
            );
          else if (!inside || !sized) bad.push('…');
        }
      }
    }
    return { counts, bad, boards };
  });
}

/** Asserts that every mark shown is in its cell, that some board was checked, and that at least
 * `want[kind]` marks of each kind were (e.g. `{ 'ov-exact': 1 }`). */
async function assertMarks(page, what, want = {}) {
  const r = await checkMarks(page);
  assert.deepEqual(r.bad, [], `${what}: marks outside their cells`);
  assert.ok(r.boards > 0, `${what}: a board with an overlay is shown`);
  for (const [kind, n] of Object.entries(want))
    assert.ok((r.counts[kind] ?? 0) >= n, `${what}: at least ${n} ${kind} shown (${JSON.stringify(r.counts)})`);
  return r;
}

async function openView(page, view) {
  await page.click(`#tab-${view}`);
  await page.waitForFunction((v) => document.getElementById(v === 'play' ? 'board' : v).getBoundingClientRect().height > 0, view);
}

async function analyse(page, preset, playouts) {
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', preset);
  await page.fill('#an-budget', String(playouts));
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await page.waitForFunction(() => Number(document.body.dataset.overlay || 0) > 0);
}

async function solve(page) {
  await page.waitForFunction(() => ['idle', 'proven'].includes(document.getElementById('solve-status').dataset.state));
  await page.click('#solve-run');
  await page.waitForFunction(() => document.getElementById('solve-status').dataset.state === 'proven');
  await page.waitForFunction(() => document.querySelectorAll('#board .viz-overlay [data-exact]:not([data-exact=""])').length > 0);
}

const pentagoEndgame = () =>
  readFileSync(join(ROOT, 'tests', 'data', 'pentago-endgames.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((l) => l.empty === 4)
    .moves.replaceAll(' ', ',');

/** The games and positions the overlays are checked on (every size class of board). */
const GAMES = [
  { spec: 'hex:5', moves: 'c3', preset: 'rave', solve: true },
  { spec: 'hex:8', moves: 'd5', preset: 'rave', solve: false },
  { spec: 'hex:11', moves: 'f6', preset: 'uct', solve: false },
  { spec: 'tictactoe', moves: 'b2', preset: 'uct', solve: true },
  { spec: 'pentago', moves: null, preset: 'uct', solve: true },
];

for (const g of GAMES) {
  test(`${g.spec}: every overlay's marks in their cells, loaded behind Compare, after each view switch and a resize`, async () => {
    const moves = g.moves ?? pentagoEndgame();
    // Opened in Compare as a lesson that starts there opens it (the URL's #compare): the play
    // board is built hidden.
    const page = await h.openPage(`?game=${g.spec}&moves=${moves}&p0=person&p1=person&overlays=${ALL_OVERLAYS}#compare`);
    await lessonReady(page);
    await openView(page, 'play');
    await analyse(page, g.preset, 2000);
    await assertMarks(page, `${g.spec} analysed after Compare`, { 'ov-heat': 2, 'ov-label': 1, 'ov-ghost': 1 });
    if (g.solve) {
      await solve(page);
      await assertMarks(page, `${g.spec} solved`, { 'ov-exact': 1, 'ov-exact-mark': 1 });
    }
    // Each view switch, then back to the board.
    for (const v of ['compare', 'arena', 'play']) await openView(page, v);
    await assertMarks(page, `${g.spec} after the views were switched`, { 'ov-heat': 2 });
    // A phone's width, then a wide screen.
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1600, height: 1000 },
    ]) {
      await page.setViewportSize(viewport);
      await page.waitForFunction((w) => document.documentElement.clientWidth === w, viewport.width);
      await page.waitForFunction(() => new Promise((ok) => requestAnimationFrame(() => ok(true))));
      await assertMarks(page, `${g.spec} at ${viewport.width}×${viewport.height}`, { 'ov-heat': 2 });
    }
    // Analysed again: the marks are drawn anew, still in place.
    await analyse(page, g.preset, 1000);
    await assertMarks(page, `${g.spec} analysed again`, { 'ov-heat': 2 });
    assertClean(assert, page);
  });
}

test('loaded in the play view: every overlay in place on each game', async () => {
  for (const g of GAMES) {
    const page = await h.openPage(`?game=${g.spec}&moves=${g.moves ?? pentagoEndgame()}&p0=person&p1=person&overlays=${ALL_OVERLAYS}`);
    await boardReady(page);
    await analyse(page, g.preset, 1000);
    await assertMarks(page, `${g.spec} in the play view`, { 'ov-heat': 2, 'ov-label': 1 });
    assertClean(assert, page);
    await page.context().close();
  }
});

/** The lesson ids, in menu order (from the built page's menu). */
async function lessonIds() {
  const page = await h.openPage('?lesson=start');
  await page.waitForSelector('#lesson-menu option[value="start"]', { state: 'attached' });
  const ids = await page.$$eval('#lesson-menu option', (os) => os.map((o) => o.value).filter(Boolean));
  await page.context().close();
  return ids;
}

test('which-policy, “Solve in the play view”: ✓ on d3 in d3’s cell, ✗ on the other cells, in place', async () => {
  const page = await h.openPage('?lesson=which-policy');
  await lessonReady(page);
  // Up to the step that proves it on the play board (the lesson goes on in Compare after it).
  const titles = await page.$$eval('#lesson-steps > li', (l) => l.map((li) => li.textContent));
  const prove = titles.findIndex((t) => t.includes('Prove it on the board')) + 1;
  assert.ok(prove > 0, `the step "Prove it on the board": ${titles}`);
  for (let n = 1; n <= prove; n++) {
    await doLessonStep(page, n);
    await assertMarks(page, `which-policy step ${n}`);
  }
  await assertMarks(page, 'which-policy solved', { 'ov-exact-mark': 30 });
  // ✓ on d3 alone, in d3's cell.
  const wins = await page.$$eval('#board .viz-overlay [data-exact="win"]', (gs) =>
    gs.map((g) => document.querySelector(`#board [data-index="${g.dataset.ovCell}"]`).getAttribute('data-cell')),
  );
  assert.deepEqual(wins, ['d3']);
  await compareWithReference(page, 'which-policy-solved', '#board svg');
  assertClean(assert, page);
});

test('every lesson walked: after each step, every mark on every board shown is in its cell', async () => {
  for (const id of await lessonIds()) {
    const page = await h.openPage(`?lesson=${id}`);
    await lessonReady(page);
    const steps = await page.$$eval('#lesson-steps > li', (l) => l.length);
    for (let n = 1; n <= steps; n++) {
      await doLessonStep(page, n);
      const r = await checkMarks(page);
      assert.deepEqual(r.bad, [], `${id} step ${n}: marks outside their cells`);
    }
    // The board of the play view, reached after the lesson: marks still in place.
    await page.click('#tab-play');
    await page.waitForFunction(() => document.getElementById('board').getBoundingClientRect().height > 0);
    assert.deepEqual((await checkMarks(page)).bad, [], `${id}, play view after the lesson`);
    await page.screenshot({ path: join(SCREENSHOTS, `marks-lesson-${id}.png`) });
    assertClean(assert, page);
    await page.context().close();
  }
});

// ---- the screenshot comparison -------------------------------------------------------------

/** Share of pixels allowed to differ (a pixel differs when one of its channels does by more
 * than `CHANNEL`): anti-aliasing and font hinting move a few edge pixels; a mark in the wrong
 * place moves hundreds. */
const TOLERANCE = 0.004;
const CHANNEL = 40;

/** Decodes two PNGs in the page (a canvas: no image package needed) and counts the pixels that
 * differ; returns the sizes, the count and a PNG of the differences (red) as base64. */
function pixelDiff(page, a, b) {
  return page.evaluate(
    async ([a64, b64, channel]) => {
      const load = async (s) => {
        const img = new Image();
        img.src = `data:image/png;base64,${s}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d', { willReadFrequently: true });
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, c.width, c.height);
      };
      const [x, y] = [await load(a64), await load(b64)];
      if (x.width !== y.width || x.height !== y.height)
        return { same: false, size: [x.width, x.height, y.width, y.height], n: -1, diff: '' };
      const c = document.createElement('canvas');
      c.width = x.width;
      c.height = x.height;
      const ctx = c.getContext('2d');
      const out = ctx.createImageData(x.width, x.height);
      let n = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        const d = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(x.data[i + k] - y.data[i + k])));
        const off = d > channel;
        if (off) n++;
        out.data[i] = off ? 255 : x.data[i] / 3;
        out.data[i + 1] = off ? 0 : x.data[i + 1] / 3;
        out.data[i + 2] = off ? 0 : x.data[i + 2] / 3;
        out.data[i + 3] = 255;
      }
      ctx.putImageData(out, 0, 0);
      return { same: true, size: [x.width, x.height], n, diff: c.toDataURL('image/png').split(',')[1] };
    },
    [a.toString('base64'), b.toString('base64'), CHANNEL],
  );
}

/** Compares the screenshot of `selector` with tests/browser/reference/NAME.png (written instead
 * with UPDATE_REFERENCES=1). */
async function compareWithReference(page, name, selector) {
  // No caret, no animation, no hover: the same pixels for the same state.
  await page.addStyleTag({
    content: '*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }',
  });
  await page.evaluate(() => document.activeElement?.blur?.());
  await page.mouse.move(0, 0);
  const buf = await page.locator(selector).screenshot({ animations: 'disabled' });
  const file = join(REFERENCE, `${name}.png`);
  if (UPDATE) {
    mkdirSync(REFERENCE, { recursive: true });
    writeFileSync(file, buf);
    return;
  }
  assert.ok(existsSync(file), `no reference image ${file}: make it with UPDATE_REFERENCES=1 (see the top of this file)`);
  const r = await pixelDiff(page, readFileSync(file), buf);
  if (!r.same || r.n / (r.size[0] * r.size[1]) > TOLERANCE) {
    writeFileSync(join(SCREENSHOTS, `marks-ref-${name}-actual.png`), buf);
    if (r.diff) writeFileSync(join(SCREENSHOTS, `marks-ref-${name}-diff.png`), Buffer.from(r.diff, 'base64'));
  }
  assert.ok(r.same, `${name}: the image taken is ${r.size[2]}×${r.size[3]}, the reference ${r.size[0]}×${r.size[1]}`);
  const share = r.n / (r.size[0] * r.size[1]);
  assert.ok(
    share <= TOLERANCE,
    `${name}: ${r.n} pixels (${(share * 100).toFixed(2)}%) differ from the reference (at most ${TOLERANCE * 100}%)`,
  );
}

test('screenshots of fixed states match the reference images (exact solver marks, loaded behind Compare)', async () => {
  for (const { name, spec, moves } of [
    { name: 'tictactoe-solved', spec: 'tictactoe', moves: 'a1,b2' },
    { name: 'hex5-solved', spec: 'hex:5', moves: 'a1' },
    { name: 'pentago-endgame-solved', spec: 'pentago', moves: pentagoEndgame() },
  ]) {
    const page = await h.openPage(`?game=${spec}&moves=${moves}&p0=person&p1=person&overlays=exact#compare`, {
      viewport: { width: 1000, height: 900 },
    });
    await lessonReady(page);
    await openView(page, 'play');
    await solve(page);
    await assertMarks(page, name, { 'ov-exact-mark': 1 });
    await compareWithReference(page, name, '#board svg');
    await page.context().close();
  }
  if (!UPDATE)
    assert.ok(readdirSync(REFERENCE).filter((f) => f.endsWith('.png')).length >= 4, 'the reference images are in the repository');
});
