// In Chromium: the example page embeds the playground twice (an iframe and the
// <mcts-playground> element), receives their events, and drives both with commands.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, assertClean, screenshot, workerRoundTrip, teachReady } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** Waits until neither embedded playground runs a search (both iframes: the left one and the
 * element's). */
async function embedsIdle(page) {
  for (const id of ['left', 'right']) {
    const frame = page.frames().find((f) => new URL(f.url()).searchParams.get('id') === id);
    assert.ok(frame, `the ${id} embed is there`);
    await frame.waitForFunction(() => document.body.dataset.thinking === '' && document.body.dataset.teachReady === 'true');
  }
}

const count = (page, who, type) =>
  page.evaluate(([w, t]) => window.__events.filter((e) => e.who === w && e.type === t).length, [who, type]);

test('the example page loads both embeds and receives their events', async () => {
  const page = await h.openPage('example-embed.html');
  // Both report ready, then their engine (White, to move after c3) plays: move + searchFinished.
  await page.waitForFunction(() => ['left', 'right'].every((w) => window.__events?.some((e) => e.who === w && e.type === 'move')));
  for (const who of ['left', 'right']) {
    assert.ok((await count(page, who, 'ready')) >= 1, `${who} ready`);
    assert.ok((await count(page, who, 'searchFinished')) >= 1, `${who} searchFinished`);
    const move = await page.evaluate((w) => window.__events.find((e) => e.who === w && e.type === 'move'), who);
    assert.equal(move.source, 'mcts-playground');
    assert.equal(move.version, 1);
    assert.equal(move.game, 'hex:5');
    assert.equal(move.moves.length, 2);
    assert.equal(move.moves[0], 'c3');
  }
  const left = await page.evaluate(() => window.__events.find((e) => e.who === 'left' && e.type === 'ready'));
  assert.equal(left.id, 'left');
  // Commands: setPosition back to c3 on both, then startSearch with play.
  await page.click('#both-reset');
  await page.waitForFunction(() => ['left', 'right'].every((w) => window.__events.some((e) => e.who === w && e.type === 'position')));
  // The embedded engines answer c3 again by themselves (White to move); wait for the replies.
  await page.waitForFunction(() =>
    ['left', 'right'].every((w) => window.__events.filter((e) => e.who === w && e.type === 'move').length >= 2),
  );
  // The person's turn in both: no search runs, so startSearch is not refused as busy.
  await embedsIdle(page);
  await page.click('#both-search');
  await page.waitForFunction(() =>
    ['left', 'right'].every((w) => window.__events.filter((e) => e.who === w && e.type === 'move').length >= 3),
  );
  for (const who of ['left', 'right']) {
    // The third move: the one startSearch played (the engine then answers it by itself).
    const third = await page.evaluate((w) => window.__events.filter((e) => e.who === w && e.type === 'move')[2], who);
    assert.equal(third.moves.length, 3, `${who}: startSearch played a move for the side to move`);
  }
  // A command in another protocol version, or an unknown one, gets an error event.
  await page.evaluate(() =>
    document
      .getElementById('left')
      .contentWindow.postMessage({ source: 'mcts-playground', version: 2, type: 'setPosition' }, location.origin),
  );
  await page.evaluate(() =>
    document.getElementById('left').contentWindow.postMessage({ source: 'mcts-playground', version: 1, type: 'fly' }, location.origin),
  );
  await page.evaluate(() =>
    document
      .getElementById('left')
      .contentWindow.postMessage(
        { source: 'mcts-playground', version: 1, type: 'setPosition', game: 'hex:5', moves: 'c3 c3' },
        location.origin,
      ),
  );
  await page.waitForFunction(() => window.__events.filter((e) => e.who === 'left' && e.type === 'error').length >= 3);
  const errs = await page.evaluate(() => window.__events.filter((e) => e.who === 'left' && e.type === 'error').map((e) => e.message));
  assert.match(errs[0], /version 2/);
  assert.match(errs[1], /unknown command "fly"/);
  assert.match(errs[2], /move 2 \(c3\)/);
  // The embeds show the board only (no header, no side panel) and fit their frames.
  const frame = page.frame({ url: /embed=1/ });
  assert.ok(frame, 'the iframe is there');
  assert.equal(await frame.evaluate(() => getComputedStyle(document.querySelector('header')).display), 'none');
  assert.equal(await frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), true, 'no horizontal scrolling');
  await embedsIdle(page);
  await screenshot(page, 'teach-embed-example');
  assertClean(assert, page);
});

test('commands from another window or with another version are refused; docs page loads', async () => {
  const page = await h.openPage('?embed=1&game=tictactoe&p1=person');
  await teachReady(page);
  // Top-level page: commands posted by itself do not come from a parent frame: ignored. A marker
  // message posted after it is delivered after it, so the command has been handled (and, had it
  // been obeyed, its newGame request sent) when the marker arrives; a round trip through the
  // worker then brings any answer to that request in.
  await page.evaluate(async () => {
    const marker = new Promise((ok) => {
      const on = (ev) => {
        if (ev.data === 'test-marker') {
          window.removeEventListener('message', on);
          ok();
        }
      };
      window.addEventListener('message', on);
    });
    window.postMessage({ source: 'mcts-playground', version: 1, type: 'setPosition', game: 'hex:5', moves: ['c3'] }, '*');
    window.postMessage('test-marker', '*');
    await marker;
  });
  await workerRoundTrip(page);
  assert.equal(await page.getAttribute('body', 'data-game'), 'tictactoe');
  assert.equal(await page.getAttribute('body', 'data-ply'), '0');
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.panel')).display), 'none');
  const docs = await h.openPage('docs.html');
  assert.match(await docs.textContent('h1'), /teachers/);
  for (const k of ['moves', 'seed', 'embed', 'setPosition', 'startSearch', 'swap-pieces'])
    assert.ok((await docs.textContent('body')).includes(k), k);
  assertClean(assert, page);
  assertClean(assert, docs);
});
