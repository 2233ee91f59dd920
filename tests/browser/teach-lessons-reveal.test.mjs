// A lesson does not give its answers away: its steps open one at a time, what to look at shows
// once the step has run, a question's answer only on "Show answer", and the exact solver's
// verdict in Compare (its line, the panes' lines, the ✓/✗ on the pane boards) only once a step
// asks for it or the reader presses "Reveal". And a sentence the lesson says about the chart can
// be checked on it: each pane's best-move changes are named under the chart (and on it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, assertClean, lessonReady, doLessonStep, SCREENSHOTS } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** What of the lesson and of Compare's verdict is on screen now. */
const shown = (page) =>
  page.evaluate(() => {
    // Not displayed, hidden, or inside a closed <details>: not visible.
    const vis = (el) => !!el && el.checkVisibility({ visibilityProperty: true }) && el.getClientRects().length > 0;
    const steps = [...document.querySelectorAll('#lesson-steps > li')];
    return {
      doButtons: steps.map((li) => vis(li.querySelector('.lesson-do'))),
      lookAt: steps.map((li) => vis(li.querySelector('.lesson-where'))),
      questions: steps.map((li) => vis(li.querySelector('.lesson-question'))),
      answers: [...document.querySelectorAll('#lesson .lesson-answer')].filter(vis).length,
      exactLine: vis(document.getElementById('cmp-exact')) && document.getElementById('cmp-exact').textContent.trim() !== '',
      truthLines: [...document.querySelectorAll('#compare .cmp-truth')].filter((t) => vis(t) && t.textContent.trim()).length,
      paneMarks: [...document.querySelectorAll('#cmp-panes .viz-overlay .ov-exact-mark')].filter((t) => vis(t) && t.textContent.trim())
        .length,
      reveal: vis(document.getElementById('lesson-reveal')),
    };
  });

test('which-policy: one step at a time, answers on request, the solver’s verdict hidden until step 2 asks for it', async () => {
  const page = await h.openPage('?lesson=which-policy');
  await lessonReady(page);
  // The lesson's steps (six since the spread over seeds was added): the first k open.
  const n = await page.$$eval('#lesson-steps > li', (l) => l.length);
  const first = (k) => Array.from({ length: n }, (_, i) => i < k);
  let s = await shown(page);
  assert.deepEqual(s.doButtons, first(1), 'only step 1 can be done at first');
  assert.deepEqual(s.lookAt, first(0), 'no step says what to see before it has run');
  assert.deepEqual(s.questions, first(1));
  assert.equal(s.answers, 0, 'no answer shown');
  // Every step's title is there: the way ahead is known.
  assert.equal(await page.$$eval('#lesson-steps > li h3', (hs) => hs.filter((x) => x.getClientRects().length).length), n);

  await doLessonStep(page, 1);
  // The solve beside the panes has proven the position: its verdict exists, and stays hidden.
  await page.waitForFunction(() => document.getElementById('compare').dataset.exact === 'proven');
  await page.waitForFunction(() => document.querySelectorAll('#cmp-panes .viz-overlay [data-exact]:not([data-exact=""])').length > 0);
  s = await shown(page);
  assert.deepEqual(s.doButtons, first(2), 'step 2 opens once step 1 has run');
  assert.deepEqual(s.lookAt, first(1));
  assert.equal(s.exactLine, false, 'the exact solver’s line is hidden while step 1 asks “can you tell which move is right?”');
  assert.equal(s.truthLines, 0, 'the panes’ verdict lines are hidden');
  assert.equal(s.paneMarks, 0, 'no ✓/✗ on the pane boards');
  assert.equal(s.reveal, true, 'a Reveal control is offered');
  await page.screenshot({ path: join(SCREENSHOTS, 'lesson-which-policy-step1-hidden.png') });

  // The answer, when asked.
  await page.click('#lesson-step-1 .lesson-q summary');
  assert.equal((await shown(page)).answers, 1);

  // Step 2 asks for the verdict: shown.
  await doLessonStep(page, 2);
  s = await shown(page);
  assert.equal(s.exactLine, true, 'the exact line once step 2 asks for it');
  assert.ok(s.paneMarks > 0, 'the ✓/✗ on the pane boards');
  assert.equal(s.reveal, false);
  await doLessonStep(page, 3);
  s = await shown(page);
  assert.ok(s.truthLines >= 3, 'each pane’s line against the exact values');

  // Step 3's sentence, checkable on screen: UCT (pane 1) had d3, lost it, found it again at
  // 29,000 and ended on c4 — the chart names each change.
  const changes = await page.$eval('#cmp-value-changes li[data-pane="1"]', (li) => ({ text: li.textContent, data: li.dataset.changes }));
  assert.match(changes.text, /best move: d3 from 1,000 → /, changes.text);
  assert.match(changes.text, /d3 at 29,000/, changes.text);
  assert.match(changes.text, /c4 at [\d,]+$/, changes.text);
  // The history it lists is the pane's samples' (the truth line's record of them).
  const history = await page.getAttribute('#cmp-truth-0', 'data-history');
  let prev = null;
  const want = [];
  for (const [x, m] of history.split(' ').map((e) => e.split(':'))) {
    if (m !== prev) want.push(`${x}:${m}`);
    prev = m;
  }
  assert.equal(changes.data, want.join(' '));
  await page.locator('#cmp-value-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, 'lesson-which-policy-chart-changes.png') });
  assertClean(assert, page);
});

test('rave-connect4: the solver’s verdict (its line and the ✓/✗ on the Connect Four pane boards) hidden while step 1 asks which search is right, shown at step 2', async () => {
  const page = await h.openPage('?lesson=rave-connect4');
  await lessonReady(page);
  await doLessonStep(page, 1);
  await page.waitForFunction(() => document.getElementById('compare').dataset.exact === 'proven');
  await page.waitForFunction(() => document.querySelectorAll('#cmp-panes .viz-overlay [data-exact]:not([data-exact=""])').length > 0);
  let s = await shown(page);
  assert.equal(s.exactLine, false, 'the exact solver’s line is hidden at step 1');
  assert.equal(s.truthLines, 0, 'the panes’ verdict lines are hidden');
  assert.equal(s.paneMarks, 0, 'no ✓/✗ on the pane boards');
  assert.equal(s.reveal, true, 'a Reveal control is offered');
  await doLessonStep(page, 2);
  s = await shown(page);
  assert.equal(s.exactLine, true, 'the exact line once step 2 asks for it');
  // ✓ on e in both panes (the only winning column), ✗ on RAVE's ringed a.
  assert.ok(s.paneMarks >= 3, `the ✓/✗ on the pane boards (${s.paneMarks})`);
  await page.screenshot({ path: join(SCREENSHOTS, 'lesson-rave-connect4-step2-shown.png') });
  assertClean(assert, page);
  await page.context().close();
});

test('Reveal shows the verdict at once; Show all steps opens every step (a teacher preparing)', async () => {
  const page = await h.openPage('?lesson=which-policy');
  await lessonReady(page);
  await doLessonStep(page, 1);
  await page.waitForFunction(() => document.getElementById('compare').dataset.exact === 'proven');
  assert.equal((await shown(page)).exactLine, false);
  await page.click('#lesson-reveal');
  await page.waitForFunction(() => document.getElementById('cmp-exact').getClientRects().length > 0);
  assert.equal((await shown(page)).reveal, false);
  await page.click('#lesson-show-all');
  const n = await page.$$eval('#lesson-steps > li', (l) => l.length);
  const s = await shown(page);
  assert.deepEqual(s.doButtons, Array(n).fill(true));
  assert.deepEqual(s.lookAt, Array(n).fill(true));
  assert.equal(s.answers, 0, 'the answers still wait for “Show answer”');
  assertClean(assert, page);
});

test('a lesson with no step about the verdict hides nothing in Compare', async () => {
  const page = await h.openPage('?lesson=ucb1');
  await lessonReady(page);
  assert.equal((await shown(page)).reveal, false);
  assert.equal(await page.$eval('#compare', (c) => c.classList.contains('lesson-verdict-hidden')), false);
});
