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
        (g) => `${g.classList.contains('hl') ? '*' : ''}${g.classList.contains('nl-expanded') ? '+' : ''}${g.textContent}`,
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

/** A new step-through session with `preset` and seed 1, at iteration 0. */
async function newSession(page, preset) {
  await page.waitForFunction(() => document.querySelector('#st-preset').options.length > 0);
  await page.selectOption('#st-preset', preset);
  await page.fill('#st-seed', '1');
  await page.click('#st-new');
  await page.waitForFunction(() => document.querySelector('#step').dataset.iteration === '0');
}

/** New session (uct, seed 1), then three iterations phase by phase; returns traces and screens. */
async function stepThrough(page) {
  await newSession(page, 'uct');
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

test('step-through counter: ◀◀/▶▶ move by one after Run 100 and Run 10; a new position or preset resets it, with the word', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  await page.waitForFunction(() => document.querySelector('#st-preset').options.length > 0);
  await page.selectOption('#st-preset', 'uct');
  await page.fill('#st-seed', '1');
  await page.click('#st-new');
  const at = async (n) => {
    await page.waitForFunction(
      (k) => document.querySelector('#step').dataset.iteration === String(k) && !document.querySelector('#st-new').disabled,
      n,
    );
    const st = await page.evaluate(() => window.__step.state());
    assert.equal(st.iteration, n);
    if (n > 0) assert.match(await page.textContent('#st-status'), new RegExp(`^Iteration ${n}\\b`));
  };
  await at(0);
  for (const k of [1, 2, 3]) {
    await page.click('#st-iter');
    await at(k);
  }
  // Back to 2, then Run 10: 12 (the worker was at 3: the session is rebuilt from the seed).
  await page.click('#st-back-it');
  await at(2);
  await page.click('#st-run10');
  await at(12);
  assert.match(await page.textContent('#st-status'), /the last of 10 just run/);
  // Run 100, then ◀◀ twice and ▶▶: 112, 111, 110, 111 (not back to 12).
  await page.click('#st-run100');
  await at(112);
  await page.click('#st-back-it');
  await at(111);
  await page.click('#st-back-it');
  await at(110);
  await page.click('#st-iter');
  await at(111);
  await page.click('#st-run10');
  await at(121);
  // Phase back from the first phase of an iteration goes to the end of the one before.
  await page.click('#st-phase');
  await at(122);
  assert.equal(await page.evaluate(() => document.querySelector('#step').dataset.phase), 'Selection');
  await page.click('#st-back');
  await at(121);
  assert.equal(await page.evaluate(() => document.querySelector('#step').dataset.phase), 'Backpropagation');
  // The iteration reached by going back is the very iteration a straight run makes.
  const t111 = (await page.evaluate(() => window.__step.traces())).find((t) => t?.iteration === 111);
  assert.ok(t111, 'iteration 111 is stored');
  const fresh = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(fresh);
  await newSession(fresh, 'uct');
  await fresh.click('#st-run100');
  await fresh.waitForFunction(
    () => document.querySelector('#step').dataset.iteration === '100' && !document.querySelector('#st-run10').disabled,
  );
  await fresh.click('#st-run10');
  await fresh.waitForFunction(
    () => document.querySelector('#step').dataset.iteration === '110' && !document.querySelector('#st-iter').disabled,
  );
  await fresh.click('#st-iter');
  await fresh.waitForFunction(() => document.querySelector('#step').dataset.iteration === '111');
  const f111 = (await fresh.evaluate(() => window.__step.traces())).find((t) => t?.iteration === 111);
  assert.deepEqual(f111, t111, 'the same iteration 111 whichever way it was reached');
  // A move on the board: the session restarts on the new position, and says so.
  await page.click('[data-cell="c3"]');
  await page.waitForFunction(() => document.querySelector('#step').dataset.reset === 'position changed');
  await at(0);
  assert.equal(await page.textContent('#st-reset'), 'reset: position changed');
  assert.ok(await page.isVisible('#st-reset'));
  await page.click('#st-run10');
  await at(10);
  assert.equal(await page.isVisible('#st-reset'), false, 'the word goes with the next step');
  // Another preset: a fresh session with the word.
  await page.selectOption('#st-preset', 'rave');
  await page.waitForFunction(() => document.querySelector('#step').dataset.reset === 'preset changed');
  await at(0);
  await page.click('#st-iter');
  await at(1);
  assert.match(await page.textContent('#st-phases'), /β|AMAF|RAVE/i, 'the RAVE formula is shown');
  assertClean(assert, page);
  assertClean(assert, fresh);
});

test('step-through with rave on hex:7: the playout fills the board and says where the game was decided', async () => {
  const page = await h.openPage('?game=hex:7');
  await boardReady(page);
  await newSession(page, 'rave');
  await page.focus('#step');
  for (const ph of ['Selection', 'Expansion', 'Playout']) {
    await page.keyboard.press('ArrowRight');
    await waitPhase(page, 1, ph);
  }
  const t = (await page.evaluate(() => window.__step.traces()))[1];
  assert.equal(t.filled, true, 'AMAF credits the filled board');
  assert.equal(t.playout.length + 1, 49, 'the expanded move and the playout cover the 7×7 board');
  const s = JSON.parse(await screen(page));
  assert.equal(s.nums.length, 49, 'every cell is numbered on the board');
  if (t.decided_at === null) {
    assert.match(s.phases, /play random moves to the end of the game/);
  } else {
    assert.ok(t.decided_at < t.playout.length);
    assert.match(s.phases, new RegExp(`until the board is full.*decided at move ${t.decided_at}`));
  }
  assertClean(assert, page);
});
