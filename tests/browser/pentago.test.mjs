// Pentago (official and Twist) in the browser: place, twist with the on-board controls (mouse and
// keyboard), the animation, refusals, and the engine's answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, ply, moves, snapshot, waitForPly, waitIdle, clickCell, assertClean, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('Pentago official: place then twist, rotation animated; the engine answers', async () => {
  // A budget far beyond the test: the engine thinks until Stop, so the position after the
  // person's move can be read while it thinks.
  const page = await h.openPage('?game=pentago&p0=person&p1=engine&ms=600000');
  await boardReady(page);
  assert.equal((await snapshot(page)).view.spec, 'pentago:official');
  await clickCell(page, 'a1');
  // Placement is pending: the stone shows, eight twist buttons (4 quadrants × cw/ccw) appear.
  await page.waitForSelector('[data-cell="a1"].pending');
  assert.equal(await page.locator('[data-twist]').count(), 8);
  assert.equal(await page.locator('[data-twist$="-flip"]').count(), 0);
  assert.equal(await ply(page), 0, 'nothing is played before the twist');
  // A click on another cell while pending is refused with a message.
  await clickCell(page, 'f6');
  assert.match(await page.textContent('#message'), /First pick a twist/);
  // The rotation is animated: a quadrant gets the class 'turning' (recorded as it happens).
  await page.evaluate(() => {
    window.__turned = false;
    new MutationObserver((ms) => {
      if (ms.some((m) => m.target.classList?.contains('quadrant') && m.target.classList.contains('turning'))) window.__turned = true;
    }).observe(document.getElementById('board'), { attributes: true, attributeFilter: ['class'], subtree: true });
  });
  await page.click('[data-twist="TL-cw"]');
  await page.waitForFunction(() => window.__turned);
  await waitForPly(page, 1);
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  // a1 rotated clockwise inside the top-left quadrant lands on c1 (read while the engine thinks).
  const first = await snapshot(page);
  assert.equal(first.view.ply, 1);
  assert.equal(first.view.cells[2], 0, 'the stone is on c1');
  assert.equal(first.view.cells[0], -1, 'a1 is empty again');
  assert.deepEqual(first.view.last_cells, [2], 'the last move is marked where the stone ended');
  // The engine answers (Stop: at once, with its best move so far).
  await page.click('#stop');
  await waitForPly(page, 2);
  await waitIdle(page);
  const ms = await moves(page);
  assert.equal(ms[0], 'a1-TL-cw');
  assert.match(ms[1], /^[a-f][1-6]-(TL|TR|BR|BL)-(cw|ccw)$/);
  await page.waitForFunction(() => !document.querySelector('.quadrant.turning'));
  await screenshot(page, 'pentago-official');
  assertClean(assert, page);
});

test('Pentago-Twist: flip and cw controls, keyboard placement and twist', async () => {
  const page = await h.openPage('?game=pentago:twist&p0=person&p1=person');
  await boardReady(page);
  await clickCell(page, 'd4');
  await page.waitForSelector('[data-twist]');
  assert.equal(await page.locator('[data-twist$="-flip"]').count(), 4);
  assert.equal(await page.locator('[data-twist$="-cw"]').count(), 4);
  assert.equal(await page.locator('[data-twist$="-ccw"]').count(), 0);
  // Escape takes the stone back.
  await page.focus('#board');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-twist]').count(), 0);
  await clickCell(page, 'd4');
  await page.click('[data-twist="BR-flip"]');
  await waitForPly(page, 1);
  assert.deepEqual(await moves(page), ['d4-BR-flip']);
  // d4 is row 4 col d → flipped left-right within BR it lands on f4.
  const snap = await snapshot(page);
  assert.equal(snap.view.cells[3 * 6 + 5], 0, 'the stone moved to f4');
  assert.equal(snap.view.cells[3 * 6 + 3], -1);
  // Keyboard: Enter places at the cursor, then focus a twist button and press Enter.
  await page.focus('#board');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-twist]');
  await page.focus('[data-twist="TL-cw"]');
  await page.keyboard.press('Enter');
  await waitForPly(page, 2);
  assert.match((await moves(page))[1], /^[a-f][1-6]-TL-cw$/);
  await page.waitForFunction(() => !document.querySelector('.quadrant.turning'));
  await screenshot(page, 'pentago-twist');
  assertClean(assert, page);
});

test('the search overlay stays in the renderer’s overlay layer, over the cells, through a twist', async () => {
  const page = await h.openPage('?game=pentago&p0=person&p1=person&moves=a1-TL-cw,f6-BR-cw');
  await boardReady(page);
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'rave');
  await page.fill('#an-budget', '2000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  // Every cell's heat sits on its hole (the renderer's cell geometry, not read from its shapes);
  // the layer is the last thing in the board's <svg>.
  const placed = () =>
    page.evaluate(() => {
      const svg = document.querySelector('.board-host svg');
      const layer = svg.querySelector(':scope > .overlay-layer');
      const off = [...svg.querySelectorAll('[data-index]')].filter((g) => {
        const hole = g.querySelector('.cell-bg');
        const heat = layer?.querySelector(`[data-ov-cell="${g.dataset.index}"] .ov-heat`);
        return !heat || heat.getAttribute('cx') !== hole.getAttribute('cx') || heat.getAttribute('cy') !== hole.getAttribute('cy');
      });
      return { last: svg.lastElementChild === layer, overlays: layer?.querySelectorAll(':scope > .viz-overlay').length, off: off.length };
    });
  assert.deepEqual(await placed(), { last: true, overlays: 1, off: 0 });
  // The layer seen while the quadrant turns (recorded when the renderer marks it turning): not in
  // the turning quadrant, still the board's last child.
  await page.evaluate(() => {
    window.__layer = document.querySelector('.board-host svg > .overlay-layer');
    window.__turning = [];
    new MutationObserver(() => {
      const q = document.querySelector('.quadrant.turning');
      if (q)
        window.__turning.push(
          q.contains(window.__layer) ? 'inside' : window.__layer.parentNode.lastElementChild === window.__layer ? 'over' : 'under',
        );
    }).observe(document.querySelector('.board-host svg'), { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  await clickCell(page, 'b2');
  await page.click('[data-twist="TL-cw"]');
  await waitForPly(page, 3);
  await page.waitForFunction(() => window.__turning.length > 0 && !document.querySelector('.quadrant.turning'));
  assert.ok(
    (await page.evaluate(() => window.__turning)).every((w) => w === 'over'),
    'over the board while the quadrant turns',
  );
  assert.equal(
    await page.evaluate(() => document.querySelector('.board-host svg > .overlay-layer') === window.__layer),
    true,
    'the same layer',
  );
  assert.deepEqual(await placed(), { last: true, overlays: 1, off: 0 });
  assertClean(assert, page);
});
