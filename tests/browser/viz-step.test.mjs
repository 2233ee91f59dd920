// Step-through: one MCTS iteration at a time on Hex 5×5 with seed 1, phase by phase with
// the arrow keys and the buttons; the same seed gives the same traces and the same screens twice;
// going back is exact; the playout is replayed on the board as numbered stones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, boardReady, assertClean, SCREENSHOTS } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** What the panel shows, as text (status, phase texts, table, tree labels, board numbers). */
async function screen(page) {
  return page.evaluate(() => {
    const card = document.querySelector('#step');
    const nums = [...card.querySelectorAll('#st-board .ov-num')]
      .filter((n) => n.style.display !== 'none')
      .map((n) => `${n.closest('g')?.previousSibling ? '' : ''}${n.textContent}@${n.getAttribute('x')},${n.getAttribute('y')}`)
      .sort();
    return JSON.stringify({
      status: card.querySelector('#st-status').textContent,
      phases: card.querySelector('#st-phases').textContent,
      table: card.querySelector('#st-table').textContent,
      tree: [...card.querySelectorAll('.nl-node')].map(
        (g) => `${g.classList.contains('hl') ? '*' : ''}${g.classList.contains('st-expanded') ? '+' : ''}${g.textContent}`,
      ),
      nums,
    });
  });
}

async function waitPhase(page, iteration, phase) {
  await page.waitForFunction(
    ([it, ph]) => {
      const c = document.querySelector('#step');
      return c.dataset.iteration === String(it) && c.dataset.phase === ph && !document.querySelector('#st-phase').disabled;
    },
    [iteration, phase],
  );
  if (phase === 'Playout') {
    await page.waitForFunction(() => document.querySelector('#st-board').dataset.playoutDone === 'true');
  }
}

/** New session (uct, seed 1), then three iterations phase by phase; returns traces and screens. */
async function stepThrough(page) {
  await page.waitForFunction(() => document.querySelector('#st-preset').options.length > 0);
  await page.selectOption('#st-preset', 'uct');
  await page.fill('#st-seed', '1');
  await page.click('#st-new');
  await page.waitForFunction(() => document.querySelector('#step').dataset.iteration === '0');
  await page.focus('#step');
  const screens = [];
  const phases = ['Selection', 'Expansion', 'Playout', 'Backpropagation'];
  for (let it = 1; it <= 3; it++) {
    for (const ph of phases) {
      await page.keyboard.press('ArrowRight');
      await waitPhase(page, it, ph);
      screens.push(await screen(page));
    }
  }
  const traces = await page.evaluate(() => window.__step.traces());
  return { traces, screens };
}

test('step-through on hex:5, seed 1: three iterations phase by phase, identical twice, back is exact', async () => {
  const runs = [];
  let page;
  for (let k = 0; k < 2; k++) {
    page = await h.openPage('?game=hex:5');
    await boardReady(page);
    runs.push(await stepThrough(page));
  }
  const [a, b] = runs;
  assert.equal(a.traces.length, 4, 'the fresh tree and three iterations');
  assert.equal(a.traces[0], null);
  assert.deepEqual(a.traces, b.traces, 'same seed, same traces');
  assert.deepEqual(a.screens, b.screens, 'same seed, same screens');
  // The phases say what happened.
  const t1 = a.traces[1];
  assert.equal(t1.path[0].kind, 'root');
  assert.equal(t1.expanded, t1.path[1].move, 'the first iteration expands a root move');
  assert.ok(t1.playout.length > 0);
  for (const t of a.traces.slice(1)) {
    for (const n of t.path) assert.equal(n.after.n, n.before.n + 1);
  }
  const sel = JSON.parse(a.screens[0]);
  assert.match(sel.phases, /UCT score = V \+ c·√\(ln N \/ n\)/, 'the selection formula is written out');
  const play = JSON.parse(a.screens[2]);
  assert.equal(play.nums.length, t1.playout.length + 1, 'the expanded move and every playout move are numbered on the board');
  const bp = JSON.parse(a.screens[3]);
  assert.match(bp.table, /0 → 1/, 'N before → after');
  // Back: phase by phase and by iteration, the stored screens come back exactly.
  await page.keyboard.press('ArrowLeft');
  await waitPhase(page, 3, 'Playout');
  assert.equal(await screen(page), a.screens[10]);
  await page.keyboard.press('Shift+ArrowLeft');
  await waitPhase(page, 2, 'Backpropagation');
  assert.equal(await screen(page), a.screens[7]);
  await page.keyboard.press('Shift+ArrowRight');
  await waitPhase(page, 3, 'Backpropagation');
  assert.equal(await screen(page), a.screens[11]);
  assert.deepEqual(await page.evaluate(() => window.__step.traces()), a.traces, 'forward again replays the stored steps');
  // Run 10: thirteen iterations, the last traced; the tree highlights its path.
  await page.click('#st-run10');
  await page.waitForFunction(() => document.querySelector('#step').dataset.iteration === '13');
  assert.match(await page.textContent('#st-status'), /Iteration 13 \(the last of 10 just run\)/);
  // Run 100 more, then the middle of iteration 114 for the picture: the playout on the board.
  await page.click('#st-run100');
  await page.waitForFunction(() => document.querySelector('#step').dataset.iteration === '113');
  await page.keyboard.press('ArrowRight');
  await waitPhase(page, 114, 'Selection');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await waitPhase(page, 114, 'Playout');
  const card = await page.$('#step');
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: join(SCREENSHOTS, 'viz-step-hex5.png') });
  assertClean(assert, page);
});
