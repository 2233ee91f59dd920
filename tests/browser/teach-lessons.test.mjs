// Lessons walked step by step, as a student would: each step's button does what the step says,
// then the element the step points at is outlined and on screen. "Start here" drives the
// step-through through its four phases and the choice of the move, in one language (the root's
// win rate the same in the tree and the path table); on a phone the step's question stays on
// screen beside what it outlines (the lesson dock), and the last step leads to the next lesson.
// The Pentago-Twist lesson previews a twist before it is played. Screenshots of a lesson step at
// both sizes and in both schemes. The lessons whose steps quote figures are walked in
// teach-lessons-figures.test.mjs, which reads each figure back from the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, assertClean, screenshot, SCREENSHOTS, lessonReady, doLessonStep, rewriteBundle, ROOT } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

async function ready(page) {
  await lessonReady(page);
  await page.waitForFunction(() => document.querySelector('#st-preset').options.length > 0);
}

test('Start here: five steps drive the step-through (select, expand, playout, back up, choose)', async () => {
  const page = await h.openPage('?lesson=start');
  await ready(page);
  assert.match(await page.textContent('#lesson h2'), /Start here/);
  assert.equal(await page.$$eval('#lesson-steps > li', (l) => l.length), 5);
  assert.match(await page.getAttribute('#lesson-paper', 'href'), /^https:\/\/doi\.org\//);
  // Every step has a question with its answer folded away.
  assert.equal(await page.$$eval('#lesson details.lesson-q:not([open])', (d) => d.length), 5);
  await doLessonStep(page, 1);
  assert.equal(await page.getAttribute('#step', 'data-phase'), 'Selection');
  assert.equal(await page.getAttribute('#step', 'data-iteration'), '11');
  assert.ok(await page.$eval('.lesson-look', (e) => e.classList.contains('st-right')));
  // One language for one value: the root's win rate for the side to move, in the tree and in
  // the path table alike (not a win rate in one and the raw Q of the other player in the other).
  const rootInTree = (await page.textContent('#step .nodelink [data-node="0"] .nl-label')).match(/\d+\.\d%/)[0];
  const rootRow = await page.$$eval('#st-table tbody tr', (trs) => [...trs[0].children].map((td) => td.textContent));
  assert.equal(rootRow[1], 'root');
  assert.equal(rootRow[2], '(X to move)');
  assert.equal(rootRow[4], rootInTree, 'the root’s win rate in the table is the tree’s');
  assert.match(await page.textContent('#st-table thead'), /win rate/);
  await doLessonStep(page, 2);
  assert.equal(await page.getAttribute('#step', 'data-phase'), 'Expansion');
  assert.equal(await doLessonStep(page, 3), 'st-board');
  assert.equal(await page.getAttribute('#step', 'data-phase'), 'Playout');
  assert.equal(await doLessonStep(page, 4), 'st-table');
  assert.match(await page.textContent('#st-table'), /→/, 'N and Q before → after');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'lesson-start-step4-1280-light');
  await doLessonStep(page, 5);
  assert.equal(await page.getAttribute('#step', 'data-iteration'), '111');
  // The answer unfolds.
  await page.click('#lesson-step-5 summary');
  assert.ok(await page.isVisible('#lesson-step-5 details p'));
  // The last step leads on to the next lesson in the menu's order.
  assert.equal(await page.getAttribute('#lesson-next', 'data-lesson'), 'ucb1');
  assertClean(assert, page);
});

test('on a phone, each step’s question stays on screen beside what it outlines, the tree and table fit; the dock leads on', async () => {
  const page = await h.openPage('?lesson=start', { viewport: { width: 390, height: 844 } });
  await ready(page);
  assert.ok(await page.$eval('#lesson-dock', (d) => d.hidden), 'no dock before a step has run');
  for (const n of [1, 2, 3, 4, 5]) {
    // Steps 2–5 are started from the dock, where the reader is, not from the card far above.
    if (n === 1) await doLessonStep(page, 1);
    else {
      assert.match(await page.textContent('#lesson-dock-next'), new RegExp(`^Step ${n}: `));
      await page.click('#lesson-dock-next');
      await page.waitForFunction((k) => {
        const c = document.querySelector('#lesson');
        return c.dataset.step === String(k) && c.dataset.stepState === 'done';
      }, n);
    }
    await page.waitForFunction((k) => document.querySelector('#lesson-dock').dataset.step === String(k), n);
    assert.match(await page.textContent('#lesson-dock-q .lesson-question'), /Question:/);
    // The outlined element's top is on screen above the dock, and the dock with its question on
    // screen too: both at once, without scrolling.
    await page.waitForFunction(() => {
      const t = document.querySelector('.lesson-look').getBoundingClientRect();
      const d = document.querySelector('#lesson-dock').getBoundingClientRect();
      const q = document.querySelector('#lesson-dock-q').getBoundingClientRect();
      return t.top >= 0 && t.top + 40 <= d.top && d.bottom <= window.innerHeight + 1 && q.top >= d.top && q.bottom <= window.innerHeight;
    });
    assert.equal(await page.textContent('#lesson-dock-q .lesson-question'), await page.textContent(`#lesson-step-${n} .lesson-question`));
    // The step-through's tree and path table fit the card: nothing cut off on the right.
    const fit = await page.evaluate(() => {
      const t = document.querySelector('#st-table');
      const nl = document.querySelector('#step .nodelink');
      return { table: t.scrollWidth - t.parentElement.clientWidth, tree: nl.scrollWidth - nl.clientWidth };
    });
    assert.deepEqual(fit, { table: 0, tree: 0 }, `step ${n}: pixels cut off on the right`);
  }
  // The last step's dock offers the next lesson.
  assert.match(await page.textContent('#lesson-dock-next'), /^Next lesson: UCB1/);
  assert.match(await page.getAttribute('#lesson-dock-next', 'href'), /\?lesson=ucb1$/);
  // Nothing is cut off sideways at 390 px: the page does not scroll horizontally.
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await page.screenshot({ path: join(SCREENSHOTS, 'lesson-start-dock-390.png') });
  assertClean(assert, page);
});

test('the Pentago-Twist lesson previews the twist before it is played', async () => {
  const page = await h.openPage('?lesson=pentago-twist');
  await ready(page);
  await page.waitForFunction(() => document.body.dataset.game === 'pentago:twist');
  await doLessonStep(page, 1);
  await doLessonStep(page, 2);
  assert.equal(await page.getAttribute('#board svg', 'data-preview'), 'TL-cw');
  assert.equal(await page.evaluate(() => window.__playground.snapshot().moves.length), 0, 'nothing played by the preview');
  await screenshot(page, 'lesson-pentago-preview');
  await doLessonStep(page, 3);
  const moves = await page.evaluate(() => window.__playground.snapshot().moves);
  assert.equal(moves[0], 'a2-TL-cw');
  assert.equal(await page.getAttribute('body', 'data-review'), '2');
  assertClean(assert, page);
});

test('lesson step screenshots at 390×844 and in dark mode', async () => {
  for (const [name, viewport, colorScheme] of [
    ['lesson-start-step4-390-light', { width: 390, height: 844 }, 'light'],
    ['lesson-start-step4-390-dark', { width: 390, height: 844 }, 'dark'],
    ['lesson-start-step4-1280-dark', { width: 1280, height: 800 }, 'dark'],
  ]) {
    const page = await h.openPage('?lesson=start', { viewport, colorScheme });
    await ready(page);
    for (const n of [1, 2, 3, 4]) await doLessonStep(page, n);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    assertClean(assert, page);
  }
});

test('a lesson file that names what the page does not have: the card names the step and the name, that step’s button is off', async () => {
  // The built page, served with two names of the start lesson's step 1 misspelt: an intent's
  // and the target it outlines.
  const edits = [
    ['{intent:"step.new",', '{intent:"step.nwe",'],
    ['look:"step.path"', 'look:"step.pth"'],
  ];
  let bundle;
  const page = await h.openPage('?lesson=start', {
    before: (p) => {
      bundle = rewriteBundle(p, edits);
      return bundle.ready;
    },
  });
  await ready(page);
  assert.equal(bundle.rewritten.count, 1, 'the start lesson was served with the misspelt names');
  await page.waitForSelector('#lesson');
  const said = await page.$eval('#lesson', (c) => c.querySelector('#lesson-problems')?.textContent ?? '(no problems named)');
  assert.match(
    said,
    /start\.json, step 1, action 1: unknown intent "step\.nwe" \(the page's intents are listed in lessons\/catalogue\.ts and docs\.html\); the step's button is off/,
  );
  assert.match(
    said,
    /start\.json, step 1, "look": "step\.pth" is not a target the page has \(lessons\/catalogue\.ts\); nothing is outlined/,
  );
  assert.equal(await page.$$eval('#lesson-step-1 .lesson-step-error', (p) => p.length), 2, 'step 1 names its problems');
  assert.equal(await page.$$eval('#lesson-step-2 .lesson-step-error', (p) => p.length), 0);
  assert.ok(await page.isDisabled('#lesson-do-1'), 'the broken step’s button is off');
  assert.ok(await page.isEnabled('#lesson-do-2'), 'the other steps’ buttons work');
  await screenshot(page, 'lesson-bad-names');
  assertClean(assert, page);
});

test('a lesson file that does not read: the card says which file and why, never a blank card', async () => {
  // The start lesson served with its first step's title empty.
  let bundle;
  const page = await h.openPage('?lesson=start', {
    before: (p) => {
      bundle = rewriteBundle(p, [['title:"Select",', 'title:"",']]);
      return bundle.ready;
    },
  });
  await lessonReady(page);
  assert.equal(bundle.rewritten.count, 1, 'the start lesson was served broken');
  await page.waitForSelector('#lesson');
  assert.equal(await page.getAttribute('#lesson', 'data-error'), 'true');
  assert.match(await page.textContent('#lesson h2'), /The lesson “start” could not be opened/);
  assert.match(
    await page.textContent('#lesson-problems'),
    /Lesson files not read: start\.json, step 1: "title" must be a non-empty string/,
  );
  // The URL line says it too, and the other lessons are still in the menu.
  assert.match(await page.textContent('#message'), /lesson=start: no such lesson/);
  assert.ok((await page.$$eval('#lesson-menu option', (os) => os.length)) >= 10);
  await screenshot(page, 'lesson-not-read');
});

test('a version-1 lesson file (CSS selectors) still loads, converted, and its steps run', async () => {
  // The built page, serving the Pentago-Twist lesson as its version-1 file was (no version field,
  // selectors): the page converts it on load (lessons/migrate.ts).
  const v1 = JSON.parse(readFileSync(join(ROOT, 'www', 'src', 'lessons', 'fixtures', 'pentago-twist-v1.json'), 'utf8'));
  const v2 = JSON.parse(readFileSync(join(ROOT, 'www', 'src', 'lessons', 'data', 'pentago-twist.json'), 'utf8'));
  // Vite bundles a JSON file as an object literal (unquoted keys): each step's actions and look, as bundled.
  const lit = (v) => JSON.stringify(v).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:');
  const edits = v2.steps.flatMap((s, k) => [
    [`actions:${lit(s.actions)}`, `actions:${lit(v1.steps[k].actions)}`],
    [`look:${lit(s.look)}`, `look:${lit(v1.steps[k].look)}`],
  ]);
  // And its version field gone: 1 (the bundle names the file's top-level fields as constants,
  // `version:X,…` with `X=2,Y="pentago-twist"`).
  let served = 0;
  const page = await h.openPage('?lesson=pentago-twist', {
    before: (p) =>
      p.route(/\/assets\/.*\.js$/, async (route) => {
        const response = await route.fetch();
        let body = await response.text();
        const version = /([\w$]+)=2,([\w$]+)="pentago-twist"/.exec(body);
        if (!version || !edits.every(([from]) => body.includes(from))) return route.fulfill({ response });
        for (const [from, to] of edits) body = body.replaceAll(from, to);
        body = body.replace(version[0], `${version[1]}=1,${version[2]}="pentago-twist"`);
        served++;
        return route.fulfill({ response, body });
      }),
  });
  await ready(page);
  assert.equal(served, 1, 'the lesson was served as its version-1 file');
  await page.waitForSelector('#lesson-migrated');
  assert.equal(await page.$('#lesson-problems'), null, await page.textContent('#lesson'));
  await page.waitForFunction(() => document.body.dataset.game === 'pentago:twist');
  await doLessonStep(page, 1);
  await doLessonStep(page, 2);
  assert.equal(await page.getAttribute('#board svg', 'data-preview'), 'TL-cw');
  assertClean(assert, page);
});

test('every name of the lesson catalogue is registered by a feature of the page (the Train view’s once it has opened)', async () => {
  const page = await h.openPage('?lesson=start');
  await ready(page);
  const before = await page.evaluate(() => window.__playground.lessonNamesUnregistered());
  assert.ok(
    before.every((n) => /^(state|intent|target) train\./.test(n)),
    `only the Train view's names wait for it to mount: ${before.join(', ')}`,
  );
  await page.click('#tab-train');
  await page.waitForFunction(() => window.__playground.lessonNamesUnregistered().length === 0);
  assertClean(assert, page);
});

test('every shipped lesson’s names are the page’s: no lesson card names a problem', async () => {
  const first = await h.openPage('?lesson=start');
  await ready(first);
  const ids = await first.$$eval('#lesson-menu option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(ids.length >= 9, ids.join());
  for (const id of ids) {
    const page = id === 'start' ? first : await h.openPage(`?lesson=${id}`);
    await page.waitForSelector('#lesson');
    assert.equal(await page.$('#lesson-problems'), null, `${id}: ${await page.textContent('#lesson')}`);
    assert.equal(await page.$$eval('.lesson-do[disabled]', (b) => b.length), 0, `${id}: every button works`);
  }
});
