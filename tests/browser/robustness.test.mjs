// Bad input and failures: malformed worker messages (and engine parameters of the wrong type), a
// panic in the engine, a terminated worker, records over the size limit (a file, a text, a paste),
// and the narrow / dark layouts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  setup,
  boardReady,
  ply,
  moves,
  snapshot,
  waitForPly,
  waitIdle,
  clickCell,
  assertClean,
  screenshot,
  watchReadsAndPosts,
  readsAndPosts,
  chooseBigFile,
  workerRoundTrip,
  buildNative,
  native,
} from './harness.mjs';

let h;
before(async () => {
  h = await setup();
  buildNative();
});
after(async () => {
  await h?.close();
});

test('malformed messages to the worker get error responses; the worker keeps working', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person');
  await boardReady(page);
  const raw = (m) => page.evaluate((msg) => window.__playground.raw(msg), m);
  let r = await raw('hello');
  assert.equal(r.type, 'error');
  assert.equal(r.id, null);
  r = await raw({ id: 7777, type: 'fly' });
  assert.deepEqual([r.type, r.id], ['error', 7777]);
  assert.match(r.message, /unknown request type/);
  r = await raw({ id: 7778, type: 'play' });
  assert.match(r.message, /field 'move'/);
  r = await raw({ id: 7779, type: 'play', move: 'z9' });
  assert.equal(r.type, 'error');
  assert.match(r.message, /z9/);
  r = await raw({ id: 7780, type: 'newGame', spec: 'chess', moves: [] });
  assert.match(r.message, /unknown game/);
  r = await raw({
    id: 7781,
    type: 'search',
    slot: 'x',
    engine: { preset: 'nope', params: {} },
    budget: { kind: 'millis', value: 10 },
    progressMs: 100,
  });
  assert.match(r.message, /preset/);
  r = await raw({
    id: 7782,
    type: 'search',
    slot: 'x',
    engine: { preset: 'uct', params: {} },
    budget: { kind: 'millis', value: -1 },
    progressMs: 100,
  });
  assert.match(r.message, /budget/);
  // Still alive and the game untouched.
  await clickCell(page, 'a1');
  await waitForPly(page, 1);
  assert.deepEqual(await moves(page), ['a1']);
  assertClean(assert, page);
});

// Engine parameters cross to the engine typed (`EngineParams`: numbers, booleans, names; Rust
// `ParamValue`): a search with `{ c: 0.5, ... }` is the native `mcts search --set c=0.5 ...`, and
// the older text form gives the same search. A value of the wrong type is refused with a sentence
// naming the parameter, the value and what it takes; the worker and its game go on.
test('typed engine parameters search as mcts search --set; a value of the wrong type is named and the worker lives on', async () => {
  const page = await h.openPage('?game=hex:5&moves=c3&p0=person&p1=person');
  await boardReady(page);
  await page.waitForFunction(() => window.__playground.snapshot()?.moves.length === 1);
  let id = 7800;
  const raw = (m) => page.evaluate((msg) => window.__playground.raw(msg), m);
  const search = (params) =>
    raw({
      id: id++,
      type: 'search',
      slot: `typed${id}`, // a fresh tree each (no reuse between them)
      engine: { preset: 'uct', params },
      budget: { kind: 'playouts', value: 2000 },
      progressMs: 1e9,
    });
  const typed = await search({ c: 0.5, solver: true, final_move: 'max', seed: 4 });
  assert.equal(typed.type, 'searchDone', JSON.stringify(typed));
  const want = native('search', [
    '--game',
    'hex:5',
    '--moves',
    'c3',
    '--algo',
    'uct',
    '--set',
    'c=0.5',
    '--set',
    'solver=true',
    '--set',
    'final_move=max',
    '--iterations',
    '2000',
    '--seed',
    '4',
  ]);
  const figures = (r) => ({ best: r.best_move, pv: r.pv, visits: r.children.map((c) => [c.move, c.visits]) });
  assert.equal(typed.report.iterations, 2000);
  assert.deepEqual(figures(typed.report), figures(want), 'the native search, move for move and visit for visit');
  assert.equal(typed.report.final_move, 'max');
  const plain = await search({ seed: 4 });
  assert.notDeepEqual(figures(plain.report), figures(want), 'the parameters changed the search');
  const text = await search({ c: '0.5', solver: 'true', final_move: 'max', seed: '4' });
  assert.deepEqual(figures(text.report), figures(want), 'text values (the older form) read as --set reads them');
  // Wrong types: the engine's sentence, naming the parameter, the value and what it takes.
  for (const [params, re] of [
    [{ c: true }, /engine parameter c = true: bad value 'true' for 'c': expected a number/],
    [{ rave_k: 'abc' }, /engine parameter rave_k = abc: bad value 'abc' for 'rave_k': expected a number/],
    [{ selection: 3 }, /engine parameter selection = 3: bad value '3' for 'selection': expected one of uct, puct/],
    [{ pool_k: 2.5 }, /bad value '2.5' for 'pool_k': expected a whole number/],
    [{ c: 200 }, /c = 200 is out of range \[0, 100\]/],
    [{ colour: 1 }, /unknown config key 'colour'/],
  ]) {
    const r = await search(params);
    assert.equal(r.type, 'error', `${JSON.stringify(params)}: ${JSON.stringify(r)}`);
    assert.match(r.message, re);
  }
  // A value that is no parameter value at all is refused where the worker reads the request.
  const nul = await search({ c: null });
  assert.equal(nul.type, 'error');
  assert.match(nul.message, /request 'search': field 'engine' is missing or malformed/);
  // The arena says it as a sentence.
  const arena = await raw({
    id: id++,
    type: 'arenaGame',
    game: {
      spec: 'hex:3',
      a: { preset: 'uct', params: { c: true } },
      b: { preset: 'uct', params: {} },
      iterations: 10,
      millis: null,
      seed: 1,
      index: 0,
    },
  });
  assert.equal(arena.type, 'error');
  assert.match(arena.message, /configuration A: c must be a number, not 'true'/);
  // The worker lives on and its game is untouched.
  await workerRoundTrip(page);
  assert.deepEqual((await snapshot(page)).moves, ['c3']);
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  assert.deepEqual(await moves(page), ['c3', 'b2']);
  assertClean(assert, page);
});

test('a panic in the engine: the page says so, starts a new worker and keeps the game', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  for (const c of ['c3', 'b2', 'd2']) {
    const n = await ply(page);
    await clickCell(page, c);
    await waitForPly(page, n + 1);
  }
  await page.click('#undo');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  await page.evaluate(() => window.__playground.debugPanic());
  await page.waitForFunction(() => /engine worker stopped[\s\S]*game is kept/.test(document.getElementById('message').textContent));
  const msg = await page.textContent('#message');
  assert.match(msg, /panicked[\s\S]*debugPanic/);
  assert.match(msg, /game is kept/);
  await page.waitForFunction(() => window.__playground.snapshot()?.moves.length === 2);
  assert.deepEqual(await moves(page), ['c3', 'b2']);
  assert.deepEqual((await snapshot(page)).redo, ['d2'], 'redo kept too');
  await clickCell(page, 'e1');
  await waitForPly(page, 3);
  assert.deepEqual(await moves(page), ['c3', 'b2', 'e1']);
  // The panic hook writes the panic to the console; nothing else may.
  assertClean(assert, page, [/debugPanic/]);
});

test('a terminated worker: the page says so and carries on with the game against the engine', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=engine&ms=100');
  await boardReady(page);
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  await waitIdle(page);
  await page.evaluate(() => window.__playground.killWorker());
  await page.waitForFunction(() => /engine worker stopped[\s\S]*game is kept/.test(document.getElementById('message').textContent));
  const snap = await snapshot(page);
  await clickCell(page, snap.legal[0]);
  await waitForPly(page, 4);
  assert.equal((await moves(page))[0], 'b2');
  assertClean(assert, page);
});

const LIMIT = 'records of at most 1000000 bytes are read';
const message = (page) => page.textContent('#message');
const stones = (page) => page.locator('#board [data-cell].p0, #board [data-cell].p1').count();

/** Finding: a 100 MB record file was read whole into the record box and sent to the worker
 * before the 1 MB limit was checked: the page froze, then the tab crashed, the game with it. */
test('a record file over the limit is refused by its size, never read; the game and the page carry on', async () => {
  const page = await h.openPage('?game=hex:7&p0=person&p1=person&moves=d4,c5');
  await boardReady(page);
  await waitForPly(page, 2);
  await watchReadsAndPosts(page);
  // 100 MB: an SGF with one huge comment.
  const size = await chooseBigFile(page, '#record-file', {
    name: 'big.sgf',
    size: 100_000_000,
    head: '(;FF[4]GM[11]SZ[7]C[',
    tail: '];B[a1])',
  });
  await page.waitForFunction(() => /bytes long/.test(document.getElementById('message').textContent));
  assert.equal(
    await message(page),
    `Cannot read the record file “big.sgf”: the record is ${size} bytes long; ${LIMIT}; nothing was read and the game on the board is kept.`,
  );
  const { reads, posts } = await readsAndPosts(page);
  assert.deepEqual(reads, [], 'the file was not read');
  assert.ok(!posts.includes('parseRecord'), `nothing was sent to the worker: ${posts}`);
  assert.equal(await page.inputValue('#record-text'), '');
  await screenshot(page, 'record-file-too-big');
  // The game is kept, and the page and its worker answer.
  await workerRoundTrip(page);
  assert.deepEqual(await moves(page), ['d4', 'c5']);
  assert.equal(await stones(page), 2);
  assert.equal(await ply(page), 2);
  // A record file within the limit still loads.
  await page.setInputFiles('#record-file', { name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('hex:7\nd4 c5 e3\n') });
  await waitForPly(page, 3);
  assert.deepEqual(await moves(page), ['d4', 'c5', 'e3']);
  assertClean(assert, page);
});

test('a record text over the limit (in UTF-8 bytes) is refused before it is parsed or sent to the worker', async () => {
  const page = await h.openPage('?game=hex:7&p0=person&p1=person&moves=d4,c5');
  await boardReady(page);
  await waitForPly(page, 2);
  await watchReadsAndPosts(page);
  // A move list whose comment is 499,999 two-byte characters: 500,011 characters, 1,000,010 bytes
  // (over the limit in bytes only); and a JSON record over the limit.
  for (const [text, bytes] of [
    [`# ${'é'.repeat(499_999)}\nhex:7\nd4\n`, 2 + 999_998 + 10],
    [`{"format":"mcts-playground-game","x":"${'x'.repeat(1_000_000)}"}`, 1_000_040],
  ]) {
    await page.evaluate((t) => {
      document.getElementById('record-text').value = t;
    }, text);
    await page.click('#record-load');
    await page.waitForFunction((b) => document.getElementById('message').textContent.includes(`is ${b} bytes`), bytes);
    const { posts } = await readsAndPosts(page);
    assert.ok(!posts.includes('parseRecord'), `nothing was sent to the worker: ${posts}`);
    assert.equal(
      await message(page),
      `Cannot read the record: the record is ${bytes} bytes long; ${LIMIT}; the game on the board is kept.`,
    );
  }
  // A paste over the limit does not reach the box.
  const kept = await page.evaluate(() => {
    const box = document.getElementById('record-text');
    box.value = 'hex:7';
    const data = new DataTransfer();
    data.setData('text/plain', 'x'.repeat(2_000_000));
    const inserted = box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    return { inserted, value: box.value };
  });
  assert.deepEqual(kept, { inserted: false, value: 'hex:7' });
  assert.equal(await message(page), `The pasted text is not put in the record box: the record is 2000000 bytes long; ${LIMIT}.`);
  await workerRoundTrip(page);
  assert.deepEqual(await moves(page), ['d4', 'c5']);
  assertClean(assert, page);
});

test('narrow dark layout: the board and controls fit a phone screen', async () => {
  const page = await h.openPage('?game=hex:11', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await boardReady(page);
  const box = await page.locator('#board svg').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board width ${box.width}`);
  const scrollW = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollW <= 390, `no horizontal scrolling (scrollWidth ${scrollW})`);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(23, 24, 27)', 'dark theme applied');
  await clickCell(page, 'f6');
  await waitForPly(page, 2, 30000);
  await waitIdle(page);
  await screenshot(page, 'hex-11-narrow-dark');
  assertClean(assert, page);
});

// Finding: a JSON record of 1,000,000 moves gave a 3,000,093-character message (every move
// quoted), a 514,314-pixel block on the page. Such a record is now refused by its size; messages
// quote inputs by their ends (a 100,000-move record under the size limit).
test('a 1,000,000-move record or a megabyte of garbage: the message is a sentence and the game is kept', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person&moves=c3,b2');
  await boardReady(page);
  const before = await snapshot(page);
  // Each record is made in the page (a megabyte through the protocol would be slow) and loaded
  // through the record box.
  const load = async (kind) => {
    await page.evaluate((k) => {
      const q = 'q'.repeat(999_000);
      const records = {
        json: JSON.stringify({
          format: 'mcts-playground-game',
          version: 1,
          game: 'hex:7',
          moves: Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? 'b2' : 'a1')),
        }),
        // Under the size limit (about 500 KB), still 100 times the moves a request carries: the
        // worker refuses the request by its length (MAX_REQUEST_MOVES) before replaying a move.
        jsonList: JSON.stringify({
          format: 'mcts-playground-game',
          version: 1,
          game: 'hex:7',
          moves: Array.from({ length: 100_000 }, (_, i) => (i % 2 ? 'b2' : 'a1')),
        }),
        sgfMove: `(;GM[11]SZ[7];B[${q}])`,
        sgfGame: `(;GM[${q}]SZ[7])`,
        spec: `${q}\nd4`,
        move: `hex:7\nd4 ${q}`,
      };
      document.querySelector('#message').textContent = '';
      document.querySelector('#record-text').value = records[k];
    }, kind);
    await page.click('#record-load');
    await page.waitForFunction(() => document.querySelector('#message').textContent !== '');
    return page.textContent('#message');
  };
  const cases = [
    // 5 MB: refused by its size before it is parsed (finding 2).
    ['json', 'Cannot read the record: the record is 5000070 bytes long; records of at most 1000000 bytes are read'],
    [
      'jsonList',
      "Cannot load hex:7 with moves a1 b2 a1 b2 a1 … 99,993 more … a1 b2: request 'newGame': 100000 moves; a request carries at most 1000",
    ],
    ['sgfMove', "Cannot read the record: move 1 'qqq"],
    ['sgfGame', 'is not Hex (GM[11])'],
    ['spec', "Cannot read the record: bad game spec: unknown game 'qqq"],
    ['move', "Cannot read the record: move 2 'qqq"],
  ];
  for (const [kind, says] of cases) {
    const text = await load(kind);
    assert.ok(text.includes(says), `${says}: ${text.slice(0, 300)}`);
    assert.ok(text.length <= 1000, `a sentence, not ${text.length} characters`);
    const box = await page.locator('#message').boundingBox();
    assert.ok(box && box.height < 200, `the message is a few lines high, not ${box?.height} px`);
    const overflow = await page.$eval('#message', (e) => {
      const text = document.createRange();
      text.selectNodeContents(e);
      const t = text.getBoundingClientRect();
      // The text inside every box around it (a box may grow past its own column).
      let over = 0;
      for (let box = e; box; box = box.parentElement) {
        const b = box.getBoundingClientRect();
        over = Math.max(over, b.left - t.left, t.right - b.right);
      }
      return over;
    });
    assert.ok(overflow < 1, `the message wraps within its column (${overflow} px over)`);
  }
  await workerRoundTrip(page);
  const kept = await snapshot(page);
  assert.deepEqual([kept.view.spec, kept.moves], [before.view.spec, before.moves], 'the refused records replaced nothing');
  await screenshot(page, 'robustness-long-record-messages');
  assertClean(assert, page);
});
