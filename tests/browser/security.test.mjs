// Script injection through every door: URL parameters, an SGF record's properties (player
// names, comments) and moves, the embed API's postMessage commands, and the <mcts-playground>
// element's attributes. Nothing from them may reach HTML parsing: no script runs, no page error,
// no request for the injected image. Also the embed allow-list (`allowed-origins=`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, boardReady, workerRoundTrip, snapshot, assertClean, screenshot, ROOT, teachReady, rewriteBundle } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

const PAYLOADS = [
  '<img src=x onerror=window.__pwned=1>',
  '"><svg onload=window.__pwned=2>',
  "'><script>window.__pwned=3</script>",
  'javascript:window.__pwned=4',
];
const XSS = PAYLOADS[0];

/** No payload ran in `frame` (a page or a frame) and no element the payloads would create exists. */
async function assertNoScript(frame, where) {
  const r = await frame.evaluate(() => ({
    pwned: window.__pwned ?? null,
    injected: document.querySelectorAll('img[src="x"], svg[onload], script:not([src]):not([type])').length,
  }));
  assert.deepEqual(r, { pwned: null, injected: 0 }, `${where}: no injected element, no script`);
}

test('URL parameters: every parameter with markup is text, never HTML', async () => {
  // Every parameter of the page's one list (www/src/lib/params.ts) except the modes tried
  // below (view, lesson, embed), plus one unknown name.
  const listed = readFileSync(join(ROOT, 'www', 'src', 'lib', 'params.ts'), 'utf8').match(/URL_PARAMS = \[([^\]]*)\]/)[1];
  const names = [...listed.matchAll(/'([^']+)'/g)].map((m) => m[1]).filter((n) => !['view', 'lesson', 'embed'].includes(n));
  assert.ok(names.includes('allowed-origins') && names.length >= 25, `the parameter list was read (${names.length})`);
  names.push('<b>unknown</b>');
  for (const [i, payload] of PAYLOADS.entries()) {
    const q = new URLSearchParams();
    for (const n of names) q.set(n, payload);
    const page = await h.openPage(`?${q}`);
    await teachReady(page);
    await workerRoundTrip(page);
    await assertNoScript(page, `URL payload ${i}`);
    // The page said which parameters it did not use, as text.
    assert.ok(Number(await page.getAttribute('body', 'data-url-errors')) > 0, 'the bad parameters are named');
    if (i === 0) {
      assert.ok((await page.textContent('#message')).includes('<img src=x'), 'the markup is shown as text');
      await screenshot(page, 'security-url');
    }
    assertClean(assert, page);
  }
  // The views, the lessons and embed mode read their parameters too.
  for (const extra of ['view=compare', 'view=arena', 'lesson=ucb1', 'embed=1&show=moves,thinking', 'view=' + encodeURIComponent(XSS)]) {
    const q = new URLSearchParams(extra);
    for (const n of ['game', 'moves', 'id', 'cmpgame', 'pane1', 'lesson', 'origin', 'allowed-origins']) if (!q.has(n)) q.set(n, XSS);
    const page = await h.openPage(`?${q}`);
    await teachReady(page);
    await workerRoundTrip(page);
    await assertNoScript(page, extra);
    assertClean(assert, page);
  }
});

test('SGF import: player names, comments and bad moves with markup stay text; a bad record keeps the game', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person&moves=c3,b2');
  await boardReady(page);
  const before = await snapshot(page);
  // A bad record (a move with markup) is refused by name; the game is untouched.
  await page.fill('#record-text', `(;FF[4]GM[11]SZ[5]PB[${XSS}];B[c3];W[${XSS}])`);
  await page.click('#record-load');
  await page.waitForFunction(() => document.querySelector('#message').textContent.includes('move 2'));
  await workerRoundTrip(page);
  const kept = await snapshot(page);
  assert.deepEqual([kept.view.spec, kept.moves], [before.view.spec, before.moves], 'the bad record replaced nothing');
  assert.ok((await page.textContent('#message')).includes('<img'), 'the bad move is named as text');
  // A good record whose properties carry markup loads; nothing runs.
  const props = PAYLOADS.map((p) => p.replace(/\]/g, '\\]'));
  const sgf = `(;FF[4]GM[11]SZ[7]AP[${props[1]}]PB[${props[0]}]PW[${props[2]}]GN[${props[3]}]C[${props[0]}];B[d4]C[${props[0]}];W[c5]N[${props[1]}])`;
  await page.fill('#record-text', sgf);
  await page.click('#record-load');
  await page.waitForFunction(() => document.body.dataset.game === 'hex:7' && document.body.dataset.ply === '2');
  await workerRoundTrip(page);
  await assertNoScript(page, 'SGF import');
  assert.deepEqual((await snapshot(page)).moves, ['d4', 'c5']);
  // Move lists too.
  await page.fill('#record-text', `# ${XSS}\ntictactoe\nb2 ${XSS}`);
  await page.click('#record-load');
  await page.waitForFunction(() => document.querySelector('#message').textContent.includes('move 2'));
  await workerRoundTrip(page);
  assert.equal((await snapshot(page)).view.spec, 'hex:7', 'the bad move list replaced nothing');
  await assertNoScript(page, 'move list import');
  assertClean(assert, page);
});

/** A host page (docs.html, same origin) with one embedded playground whose events it logs. */
async function hostWithEmbed(query) {
  const page = await h.openPage('docs.html');
  await page.evaluate((q) => {
    window.__events = [];
    const frame = document.createElement('iframe');
    frame.id = 'embed';
    frame.style.width = '400px';
    frame.style.height = '440px';
    frame.src = `index.html?embed=1&${q}`;
    window.addEventListener('message', (ev) => {
      if (ev.source !== frame.contentWindow) return;
      if (ev.data === 'marker') window.__marker = true;
      else if (ev.data?.source === 'mcts-playground') window.__events.push(ev.data);
    });
    document.body.prepend(frame);
  }, query);
  const frame = await (await page.waitForSelector('#embed')).contentFrame();
  await teachReady(frame);
  return { page, frame };
}

const post = (page, msg) => page.evaluate((m) => document.getElementById('embed').contentWindow.postMessage(m, location.origin), msg);

test('embed postMessage: malformed commands get an error event naming the problem; markup stays text', async () => {
  const { page, frame } = await hostWithEmbed('id=sec&game=hex:5&p0=person&p1=person');
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  const base = { source: 'mcts-playground', version: 1 };
  const bad = [
    [{ ...base, type: XSS }, /unknown command "<img src=x/],
    [{ ...base, type: 'setPosition', game: 7 }, /field 'game' must be a string/],
    [{ ...base, type: 'setPosition', moves: [1] }, /field 'moves' entry 1/],
    [{ ...base, type: 'setPosition', innerHTML: XSS }, /unknown field "innerHTML"/],
    [{ ...base, type: 'startSearch', budget: { kind: 'millis', value: 'lots' } }, /value must be a whole number/],
    [{ ...base, type: 'startSearch', play: 1 }, /field 'play'/],
    [{ ...base, type: 'setPosition', game: XSS }, /unknown game/],
    [{ ...base, type: 'setPosition', game: 'hex:5', moves: [XSS] }, /entry 1 must be a move string/],
    [{ ...base, type: 'setPosition', game: 'hex:5', moves: ['<b>b</b>'] }, /move 1/],
    [{ ...base, type: 'startSearch', preset: XSS }, /field 'preset' must be at most 32 characters/],
    [{ ...base, type: 'startSearch', preset: '<b>x</b>' }, /unknown preset "<b>x<\/b>"/],
    [{ ...base, version: '1', type: 'setPosition' }, /^version must be the number 1, got the string "1"$/],
  ];
  for (const [m] of bad) await post(page, m);
  // An own `__proto__` key, as JSON.parse makes it.
  await page.evaluate(() =>
    document
      .getElementById('embed')
      .contentWindow.postMessage(
        JSON.parse('{"source":"mcts-playground","version":1,"type":"setPosition","__proto__":{"x":1}}'),
        location.origin,
      ),
  );
  await page.waitForFunction((n) => window.__events.filter((e) => e.type === 'error').length >= n, bad.length + 1);
  const errors = await page.evaluate(() => window.__events.filter((e) => e.type === 'error').map((e) => e.message));
  for (const [k, [, re]] of bad.entries())
    assert.ok(
      errors.some((e) => re.test(e)),
      `error for command ${k}: ${re} in ${JSON.stringify(errors)}`,
    );
  assert.ok(
    errors.some((e) => /unknown field "__proto__"/.test(e)),
    JSON.stringify(errors),
  );
  // The game is untouched and the embed still obeys a good command.
  await workerRoundTrip(frame);
  assert.deepEqual((await snapshot(frame)).moves, []);
  await post(page, { ...base, type: 'setPosition', game: 'hex:5', moves: ['c3'] });
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'position'));
  assert.deepEqual((await snapshot(frame)).moves, ['c3']);
  await assertNoScript(frame, 'embed');
  await assertNoScript(page, 'host');
  assertClean(assert, page);
});

test('embed allow-list: only the allowed origins may command, and only they hear events', async () => {
  const origin = new URL(h.url).origin;
  // Allowed: our origin.
  const ok = await hostWithEmbed(
    `id=a&game=tictactoe&p0=person&p1=person&allowed-origins=${encodeURIComponent(`https://elsewhere.example ${origin}`)}`,
  );
  await ok.page.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  await post(ok.page, { source: 'mcts-playground', version: 1, type: 'setPosition', moves: ['b2'] });
  await ok.page.waitForFunction(() => window.__events.some((e) => e.type === 'position'));
  assert.deepEqual((await snapshot(ok.frame)).moves, ['b2']);
  // Not allowed: commands are dropped without an answer, events are not posted to us.
  const no = await hostWithEmbed('id=b&game=tictactoe&p0=person&p1=person&allowed-origins=https://elsewhere.example');
  await post(no.page, { source: 'mcts-playground', version: 1, type: 'setPosition', moves: ['b2'] });
  await post(no.page, { source: 'mcts-playground', version: 1, type: 'fly' });
  // A marker from the frame to the host, posted after everything the frame could have sent.
  await no.frame.evaluate(() => {
    // The commands were posted before this evaluation; a message to itself queued now is handled
    // after them, so their handlers have run when the marker goes to the host.
    return new Promise((done) => {
      window.addEventListener('message', (ev) => {
        if (ev.data === 'marker') {
          window.parent.postMessage('marker', '*');
          done();
        }
      });
      window.postMessage('marker', '*');
    });
  });
  await no.page.waitForFunction(() => window.__marker === true);
  await workerRoundTrip(no.frame);
  assert.deepEqual((await snapshot(no.frame)).moves, [], 'the command was not obeyed');
  assert.deepEqual(await no.page.evaluate(() => window.__events.map((e) => e.type)), [], 'no event reached a host that is not allowed');
  // A malformed allow-list refuses every command and says so in the frame.
  const bad = await hostWithEmbed(`id=c&game=tictactoe&allowed-origins=${encodeURIComponent(XSS)}`);
  assert.match(await bad.frame.textContent('#message'), /allowed-origins: '<img' is not an origin/);
  await assertNoScript(bad.frame, 'allow-list');
  await screenshot(bad.page, 'security-embed-allow-list');
  assertClean(assert, ok.page);
  assertClean(assert, no.page);
});

test('embed allow-list: an origin named twice (other case, with a path) hears each event once', async () => {
  const origin = new URL(h.url).origin;
  const twice = `${origin}/ ${origin.toUpperCase()}/sub/dir/,${origin}`;
  const { page, frame } = await hostWithEmbed(`id=d&game=tictactoe&p0=person&p1=person&allowed-origins=${encodeURIComponent(twice)}`);
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  await post(page, { source: 'mcts-playground', version: 1, type: 'setPosition', moves: ['b2'] });
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'position'));
  // A marker from the frame, posted after the events: messages from one window arrive in order,
  // so a second copy of any event would be here before it.
  await frame.evaluate(() => window.parent.postMessage('marker', '*'));
  await page.waitForFunction(() => window.__marker === true);
  const types = await page.evaluate(() => window.__events.map((e) => e.type));
  assert.equal(types.filter((t) => t === 'ready').length, 1, JSON.stringify(types));
  assert.equal(types.filter((t) => t === 'position').length, 1, JSON.stringify(types));
  assert.deepEqual((await snapshot(frame)).moves, ['b2']);
  assertClean(assert, page);
});

test('element attributes: markup in every attribute stays in the URL, never in HTML', async () => {
  const page = await h.openPage('docs.html');
  await page.addScriptTag({ url: 'embed.js', type: 'module' });
  await page.waitForFunction(() => customElements.get('mcts-playground') !== undefined);
  await page.evaluate((x) => {
    window.__events = [];
    const el = document.createElement('mcts-playground');
    for (const a of [
      'game',
      'moves',
      'p0',
      'preset',
      'algo',
      'ms',
      'seed',
      'show',
      'id',
      'lesson',
      'title',
      'width',
      'height',
      'allowed-origins',
    ])
      el.setAttribute(a, x);
    el.setAttribute('width', '400px');
    el.setAttribute('height', '440px');
    for (const t of ['ready', 'error']) el.addEventListener(t, (e) => window.__events.push(e.detail));
    el.id = 'el';
    document.body.prepend(el);
  }, XSS);
  const frame = await (await page.waitForSelector('#el iframe')).contentFrame();
  await teachReady(frame);
  await workerRoundTrip(frame);
  await assertNoScript(frame, 'element frame');
  await assertNoScript(page, 'element host');
  assert.equal(await page.evaluate(() => document.querySelector('#el iframe').title), XSS, 'the title is the text given');
  assertClean(assert, page);
});

/** Every spelling of a URL that would run the attribute author's script (in the host, in the
 * frame, or in a page of its own), each trying to set `__xss` where it runs. */
const HOSTILE_SRC = [
  'javascript:parent.__xss=2//',
  'JaVaScRiPt:parent.__xss=3//',
  '  javascript:parent.__xss=4//',
  '\x01javascript:parent.__xss=5//',
  '\x00\x1fjavascript:parent.__xss=6//',
  'java\tscript:parent.__xss=7//',
  'java\nscript:parent.__xss=8//',
  'data:text/html,<script>window.__xss=9;try{parent.__xss=9}catch(e){}</script>',
  'vbscript:parent.__xss=10',
  'filesystem:http://127.0.0.1/temporary/x.html',
  'BLOB', // replaced in the page by a blob: URL of an HTML page that sets parent.__xss
];
const REFUSED =
  /^<mcts-playground>: the src attribute is refused: .* has the scheme (javascript|data|vbscript|filesystem|blob): \(only http:, https: and relative URLs are allowed\); no frame is shown$/;

test('element src: only http(s) and relative URLs become the frame; every script spelling is refused with an error event', async () => {
  const page = await h.openPage('docs.html');
  await page.addScriptTag({ url: 'embed.js', type: 'module' });
  await page.waitForFunction(() => customElements.get('mcts-playground') !== undefined);
  const errors = await page.evaluate((list) => {
    const blob = URL.createObjectURL(new Blob(['<script>parent.__xss=11</script>'], { type: 'text/html' }));
    const out = [];
    for (const [k, raw] of list.entries()) {
      const el = document.createElement('mcts-playground');
      el.id = `hostile-${k}`;
      el.setAttribute('game', 'tictactoe');
      el.setAttribute('src', raw === 'BLOB' ? blob : raw);
      el.addEventListener('error', (e) => out.push({ k, detail: e.detail }));
      document.body.prepend(el);
    }
    return out;
  }, HOSTILE_SRC);
  // One error event per element, naming the attribute, the value and the reason; no frame at all.
  assert.equal(errors.length, HOSTILE_SRC.length, JSON.stringify(errors));
  for (const { k, detail } of errors) {
    assert.equal(detail.type, 'error');
    assert.equal(detail.attribute, 'src');
    if (HOSTILE_SRC[k] !== 'BLOB') assert.equal(detail.value, HOSTILE_SRC[k]);
    assert.match(detail.message, REFUSED, `element ${k}`);
  }
  assert.equal(await page.$$eval('mcts-playground[id^="hostile-"] iframe', (f) => f.length), 0, 'no frame for a refused src');

  // A frame showing a good src goes when src turns hostile; a relative and an http src still work.
  const good = await page.evaluate((httpSrc) => {
    window.__ready = [];
    window.__swapErrors = [];
    for (const [id, src] of [
      ['rel', 'index.html'],
      ['abs', httpSrc],
      ['swap', 'index.html'],
    ]) {
      const el = document.createElement('mcts-playground');
      el.id = id; // (also the embed's `id`, which its events carry)
      el.setAttribute('game', 'tictactoe');
      el.setAttribute('src', src);
      el.setAttribute('width', '300px');
      el.setAttribute('height', '300px');
      el.addEventListener('ready', (e) => window.__ready.push(e.detail.id));
      el.addEventListener('error', (e) => window.__swapErrors.push(e.detail));
      document.body.prepend(el);
    }
    return [...document.querySelectorAll('#rel iframe, #abs iframe')].map((f) => f.src);
  }, `${h.url}index.html`);
  assert.ok(good[0].startsWith(`${h.url}index.html?embed=1&`), good[0]);
  assert.ok(good[1].startsWith(`${h.url}index.html?embed=1&`), good[1]);
  await page.waitForFunction(() => ['rel', 'abs', 'swap'].every((id) => window.__ready.includes(id)));
  await page.evaluate(() => document.getElementById('swap').setAttribute('src', 'javascript:parent.__xss=12//'));
  assert.equal(await page.$$eval('#swap iframe', (f) => f.length), 0, 'the previous frame is removed');
  const swapErrors = await page.evaluate(() => window.__swapErrors);
  assert.equal(swapErrors.length, 1);
  assert.match(swapErrors[0].message, REFUSED);
  // The good frames answered after every refused element was handled: nothing ran anywhere.
  for (const f of page.frames()) assert.equal(await f.evaluate(() => window.__xss ?? null), null, `no script ran in ${f.url()}`);
  assert.equal(await page.evaluate(() => window.__xss ?? null), null, 'no script ran in the host');
  // The console said why, once per refused src.
  const said = page.problems.consoleErrors.filter((e) => REFUSED.test(e));
  assert.equal(said.length, HOSTILE_SRC.length + 1, JSON.stringify(page.problems.consoleErrors));
  assertClean(assert, page, [REFUSED]);
});

test('a lesson whose paper URL is javascript: gets no link, and its card names the URL', async () => {
  const real = 'https://doi.org/10.1109/TCIAIG.2012.2186810';
  let bundle;
  const page = await h.openPage('?lesson=start', {
    before: (p) => {
      bundle = rewriteBundle(p, [[real, 'JaVaScRiPt:window.__xss=13']]);
      return bundle.ready;
    },
  });
  await teachReady(page);
  await page.waitForSelector('#lesson');
  assert.equal(bundle.rewritten.count, 1, 'the start lesson was served with a javascript: paper URL');
  assert.match(
    await page.$eval('#lesson', (c) => c.querySelector('#lesson-problems')?.textContent ?? '(no problems named)'),
    /start\.json: "paper\.url" "JaVaScRiPt:window\.__xss=13" has the scheme javascript:/,
  );
  assert.equal(await page.$eval('#lesson-paper', (e) => e.tagName), 'SPAN', 'the paper is text, not a link');
  assert.match(await page.textContent('#lesson-paper'), /Paper: Browne et al\. 2012/);
  await page.click('#lesson-paper');
  // No link on the page leads anywhere but http(s).
  const schemes = await page.$$eval('a[href]', (as) => [...new Set(as.map((a) => a.protocol))]);
  assert.deepEqual(
    schemes.filter((s) => s !== 'http:' && s !== 'https:'),
    [],
  );
  await workerRoundTrip(page);
  assert.equal(await page.evaluate(() => window.__xss ?? null), null);
  assertClean(assert, page);
});
