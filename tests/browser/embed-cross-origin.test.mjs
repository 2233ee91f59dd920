// In Chromium: the <mcts-playground> element pasted, as the teachers' guide gives it, into a course
// page on ANOTHER origin (a second server on another port): it loads, plays and sends its events;
// a wrong address shows a sentence in the element's box instead of a blank gap; "Copy embed code"
// on the playground gives lines that show the same position there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, screenshot, teachReady, waitPersonTurn, ROOT, WAIT_MS } from './harness.mjs';

const { startServer } = await import(join(ROOT, 'www', 'serve.mjs'));

let h;
let course;
let courseDir;
before(async () => {
  h = await setup();
  courseDir = mkdtempSync(join(tmpdir(), 'mcts-course-'));
  course = await startServer({ dir: courseDir, port: 0, prefix: '/course/' });
});
after(async () => {
  await h?.close();
  await new Promise((ok) => course?.server.close(ok));
  if (courseDir) rmSync(courseDir, { recursive: true, force: true });
});

/** A course page holding `body` (the pasted lines), which records every event of every element. */
function coursePage(name, body) {
  const events = ['loading', 'ready', 'move', 'searchFinished', 'gameOver', 'position', 'size', 'error'];
  writeFileSync(
    join(courseDir, name),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Week 3: Monte Carlo tree search</title></head>
<body style="font-family: sans-serif; margin: 1rem"><h1>Week 3: Monte Carlo tree search</h1><p>Play Black against RAVE below.</p>
<script>window.__events = [];
document.addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('mcts-playground'))
    for (const t of ${JSON.stringify(events)}) el.addEventListener(t, (e) => window.__events.push({ type: t, ...e.detail }));
});</script>
${body}
<p>Questions for the tutorial follow.</p></body></html>`,
  );
  return `${course.url}${name}`;
}

/** Opens `url` in a fresh context and records its console errors and failed requests. */
async function open(url, viewport = { width: 900, height: 800 }) {
  const context = await h.browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.problems = { console: [], failed: [] };
  page.on('console', (m) => m.type() === 'error' && page.problems.console.push(m.text()));
  page.on('pageerror', (e) => page.problems.console.push(String(e)));
  page.on('requestfailed', (r) => page.problems.failed.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && page.problems.failed.push(`${r.url()} HTTP ${r.status()}`));
  await page.goto(url);
  return page;
}

const embedFrame = (page) => page.frames().find((f) => new URL(f.url()).searchParams.get('embed') === '1');
const eventsOf = (page, type) => page.evaluate((t) => window.__events.filter((e) => e.type === t), type);

test("the guide's element lines, pasted into a course page on another origin, load, play and send events", async () => {
  // The guide, read where the playground is: its snippet names this site, and Copy copies it.
  const docs = await h.openPage('docs.html');
  const snippet = await docs.textContent('pre[data-snippet="element"]');
  assert.ok(!snippet.includes('YOUR-SITE'), snippet);
  assert.ok(snippet.includes(`src="${h.url}embed.js"`), snippet);
  await docs.click('pre[data-snippet="element"] + .snippet-bar .copy-snippet');
  await docs.waitForFunction(() => document.querySelector('pre[data-snippet="element"] + .snippet-bar .copy-snippet').dataset.copied);
  assert.equal(await docs.getAttribute('pre[data-snippet="element"] + .snippet-bar .copy-snippet', 'data-copied'), snippet);
  assert.ok((await docs.textContent('pre[data-snippet="iframe"]')).includes(`src="${h.url}index.html?embed=1&`));
  assert.ok((await docs.textContent('pre[data-snippet="message"]')).includes(`'${new URL(h.url).origin}'`));

  const url = coursePage('week3.html', snippet);
  assert.notEqual(new URL(url).origin, new URL(h.url).origin, 'the course page is on another origin');
  const page = await open(url);
  // The script ran (a module script from another origin without CORS would not have).
  assert.equal(await page.evaluate(() => customElements.get('mcts-playground') !== undefined), true, 'embed.js defined the element');
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  assert.equal(await page.getAttribute('mcts-playground', 'data-state'), 'ready');
  const [loading] = await eventsOf(page, 'loading');
  assert.ok(loading, 'the loading event came first');
  const [ready] = await eventsOf(page, 'ready');
  assert.equal(ready.game, 'hex:7');
  assert.deepEqual(ready.moves, ['d4', 'c5']);
  // The guide's element has no height: it takes the height its board needs at 420 px (the
  // embedded page's `size` event), so no blank band is left under the board.
  await page.waitForFunction(() => {
    const sizes = window.__events.filter((e) => e.type === 'size');
    const el = document.querySelector('mcts-playground');
    return sizes.length > 0 && el.getBoundingClientRect().height === sizes[sizes.length - 1].height;
  });
  const box = await page.$eval('mcts-playground', (el) => {
    const f = el.querySelector('iframe').getBoundingClientRect();
    const note = el.querySelector('.mcts-playground-note');
    return { w: f.width, h: f.height, note: note ? getComputedStyle(note).display : 'none', text: el.innerText };
  });
  assert.equal(box.w, 420);
  assert.equal(box.note, 'none', 'no line over the frame');
  assert.ok(!box.text.includes('could not be loaded'), 'the fallback sentence is gone');
  const drawn = await embedFrame(page).evaluate(() => {
    const svg = document.querySelector('.board-host svg');
    const r = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    return { top: r.top + (r.height - vb.height * scale) / 2, bottom: r.top + (r.height + vb.height * scale) / 2, width: vb.width * scale };
  });
  assert.ok(box.h < 400, `the element is as tall as its board needs (${box.h} px), not 460`);
  assert.ok(box.h - drawn.bottom <= 12, `the board's drawing ends ${box.h - drawn.bottom} px above the frame's bottom`);
  assert.ok(drawn.width >= 400, `the board is as wide as the frame (${drawn.width} px)`);

  // A person's move (Black) on the board, then the engine's reply (RAVE, White): events for both.
  const frame = embedFrame(page);
  await teachReady(frame);
  await waitPersonTurn(frame, 0);
  await frame.click('[data-cell="b2"]');
  await page.waitForFunction(() => window.__events.filter((e) => e.type === 'move').length >= 2);
  const moves = await eventsOf(page, 'move');
  assert.equal(moves[0].move, 'b2');
  assert.deepEqual(moves[0].moves, ['d4', 'c5', 'b2']);
  assert.equal(moves[1].moves.length, 4);
  const [sf] = await eventsOf(page, 'searchFinished');
  assert.equal(sf.side, 1);
  assert.equal(sf.bestMove, moves[1].move);
  // A command from the course page: the engine plays for the side to move.
  await waitPersonTurn(frame, 0);
  await page.evaluate(() =>
    document.querySelector('mcts-playground').startSearch({ play: true, budget: { kind: 'playouts', value: 500 } }),
  );
  await page.waitForFunction(() => window.__events.filter((e) => e.type === 'move').length >= 3);
  assert.equal((await eventsOf(page, 'move'))[2].moves.length, 5);
  await waitPersonTurn(frame, 0);
  await screenshot(page, 'embed-cross-origin-course');
  assert.deepEqual(page.problems.console, [], 'console errors on the course page');
  assert.deepEqual(page.problems.failed, [], 'failed requests');
  assert.deepEqual(await eventsOf(page, 'error'), []);
});

test('a wrong address shows a sentence in the element box, never a blank gap', async () => {
  // The script tag names a wrong folder: embed.js never runs; the element's own sentence shows.
  const wrongScript = coursePage(
    'wrong-script.html',
    `<script src="${h.url}nowhere/embed.js"></script>
<mcts-playground game="hex:7" width="420px" height="460px">The MCTS playground could not be loaded from ${h.url}nowhere/embed.js.</mcts-playground>`,
  );
  const p1 = await open(wrongScript);
  assert.equal(await p1.evaluate(() => customElements.get('mcts-playground')), undefined);
  const shown = await p1.$eval('mcts-playground', (el) => ({ text: el.innerText, h: el.getBoundingClientRect().height }));
  assert.match(shown.text, /could not be loaded from .*nowhere\/embed\.js/);
  assert.ok(shown.h > 0, 'the sentence takes room');

  // The script loads, but the element's src shows no playground (a 404 page): the element says
  // so over the frame and fires an error event naming the attribute.
  const wrongPage = coursePage(
    'wrong-page.html',
    `<script src="${h.url}embed.js"></script>
<mcts-playground id="lost" src="${h.url}no-such-folder/index.html" game="hex:7" width="420px" height="300px">The MCTS playground could not be loaded.</mcts-playground>`,
  );
  const p2 = await open(wrongPage);
  assert.equal(await p2.getAttribute('#lost', 'data-state'), 'loading');
  assert.match(await p2.textContent('#lost .mcts-playground-note'), /^Loading the MCTS playground from 127\.0\.0\.1:\d+…$/);
  await p2.waitForFunction(() => document.querySelector('#lost').dataset.state === 'failed');
  const note = await p2.$eval('#lost .mcts-playground-note', (n) => {
    const r = n.getBoundingClientRect();
    return { text: n.textContent, display: getComputedStyle(n).display, w: r.width, h: r.height };
  });
  assert.equal(note.display, 'flex');
  assert.deepEqual([note.w, note.h], [420, 300], 'the sentence covers the frame');
  assert.match(
    note.text,
    /^The MCTS playground did not load from http:\/\/127\.0\.0\.1:\d+\/sub\/dir\/no-such-folder\/index\.html: check the address/,
  );
  const errors = await eventsOf(p2, 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].attribute, 'src');
  assert.equal(errors[0].message, note.text);
  await screenshot(p2, 'embed-cross-origin-wrong-address');
});

test('"Copy embed code" gives the lines for what the page shows; they show it on another origin; the module line works with the CORS header', async () => {
  const page = await h.openPage('?game=hex:5&moves=c3,b4&p0=person&p1=engine&preset=rave&playouts=2000&seed=3');
  await teachReady(page);
  await page.click('#copy-embed');
  await page.waitForFunction(() => document.querySelector('#copy-embed').dataset.code);
  const code = await page.getAttribute('#copy-embed', 'data-code');
  assert.ok(
    code.startsWith(`<script src="${h.url}embed.js"></script>\n<mcts-playground game="hex:5" moves="c3 b4" p0="person" p1="engine"`),
    code,
  );
  assert.match(code, / preset="rave" playouts="2000" seed="3" /);
  const p = await open(coursePage('copied.html', code));
  await p.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  const [ready] = await eventsOf(p, 'ready');
  assert.deepEqual([ready.game, ready.moves], ['hex:5', ['c3', 'b4']]);
  assert.deepEqual(p.problems.console, []);

  // The guide's earlier line, `<script type="module">`, works where the host sends CORS (serve.mjs does).
  const mod = await open(
    coursePage(
      'module.html',
      `<script type="module" src="${h.url}embed.js"></script>\n<mcts-playground game="tictactoe"></mcts-playground>`,
    ),
  );
  await mod.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  assert.equal((await eventsOf(mod, 'ready'))[0].game, 'tictactoe');
  assert.deepEqual(mod.problems.console, []);

  // import() of embed.js, as the notebook widget does (no script element names it): the element
  // still finds the playground next to the script.
  const dyn = await open(
    coursePage(
      'import.html',
      `<script type="module">
await import('${h.url}embed.js');
const el = document.createElement('mcts-playground');
el.setAttribute('game', 'hex:5');
el.addEventListener('ready', (e) => window.__events.push({ type: 'ready', ...e.detail }));
document.body.append(el);
</script>`,
    ),
  );
  await dyn.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  assert.ok((await dyn.$eval('mcts-playground iframe', (f) => f.src)).startsWith(`${h.url}index.html?embed=1&game=hex%3A5`));
  assert.deepEqual(dyn.problems.console, []);
});

/** Where the board is drawn in an embedded frame: its drawing's box (the SVG's viewBox as the
 * browser fits it) and the frame's height. */
const boardDrawn = (frame) =>
  frame.evaluate(() => {
    const svg = document.querySelector('.board-host svg');
    const r = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    return {
      top: r.top + (r.height - vb.height * scale) / 2,
      bottom: r.top + (r.height + vb.height * scale) / 2,
      width: vb.width * scale,
      frameHeight: window.innerHeight,
      scrolls: document.documentElement.scrollHeight > window.innerHeight,
    };
  });

test("the guide's iframe: the board fills the frame it is given, with no blank band under it", async () => {
  const docs = await h.openPage('docs.html');
  const snippet = await docs.textContent('pre[data-snippet="iframe"]');
  assert.match(snippet, /width="420" height="320"/);
  // The guide's frame, and the same frame 460 px tall (the size the guide gave before).
  const tall = snippet.replace('height="320"', 'height="460"').replace('title="MCTS playground"', 'title="tall"');
  const page = await open(coursePage('iframes.html', `${snippet}\n${tall}`));
  for (const title of ['MCTS playground', 'tall']) {
    const el = await page.waitForSelector(`iframe[title="${title}"]`);
    const frame = await el.contentFrame();
    await teachReady(frame);
    await frame.waitForSelector('.board-host svg');
    const d = await boardDrawn(frame);
    assert.equal(d.scrolls, false, `${title}: the frame does not scroll`);
    assert.ok(d.width >= 400, `${title}: the board is as wide as the frame (${d.width} px)`);
    // The board is centred in the height it is given: what is left is split above and below.
    const below = d.frameHeight - d.bottom;
    assert.ok(below <= (title === 'tall' ? 80 : 12), `${title}: ${below} px blank under the board`);
  }
  await screenshot(page, 'embed-iframes-420x320-420x460');
  assert.deepEqual(page.problems.console, []);
});
