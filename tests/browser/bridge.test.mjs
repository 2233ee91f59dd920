// Save-bridge playouts (`save_bridge`, src/game/hex/bridges.rs) in the page: the Compare view offers the
// switch in every pane (and in its URL, `pane2=...,save_bridge:true`), and a pane with it on
// searches exactly as the native `mcts search --set save_bridge=true` with the same seed and
// playouts (the WebAssembly build and the native one agree); the Arena takes it as a setting
// (`save_bridge=true`) and plays the games of `mcts arena --set-b save_bridge=true`. Waits for
// states, never for time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, assertClean, screenshot, teachReady, paneFigures, buildNative, native, assertPaneAsNative } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
  buildNative();
});
after(async () => {
  await h?.close();
});

test('save-bridge: a Compare pane with the switch on searches as mcts search --set save_bridge=true', async () => {
  const q = 'view=compare&cmpgame=hex:5&cmpmoves=c3&panes=2&pane1=preset:rave&pane2=preset:rave,save_bridge:true&cmpbudget=3000&cmpseed=4';
  const page = await h.openPage(`?${q}&cmprun=1`);
  await page.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  assert.equal(await page.inputValue('#cmp-save_bridge-0'), '', 'pane 1: the preset’s (off)');
  assert.equal(await page.inputValue('#cmp-save_bridge-1'), 'true', 'pane 2: on, from the URL');
  const options = await page.$$eval('#cmp-save_bridge-0 option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, [
    ['', 'preset'],
    ['true', 'on'],
    ['false', 'off'],
  ]);
  for (const [k, sets] of [
    [0, []],
    [1, ['--set', 'save_bridge=true']],
  ]) {
    const want = native('search', ['--game', 'hex:5', '--moves', 'c3', '--algo', 'rave', ...sets, '--iterations', '3000', '--seed', '4']);
    await assertPaneAsNative(assert, page, k, want, 3000);
    if (k === 1) assert.ok(want.policy.save_bridge_moves_played > 0 && want.policy.active.includes('save_bridge'));
  }
  assert.notDeepEqual((await paneFigures(page, 0)).visits, (await paneFigures(page, 1)).visits, 'the switch changed the search');
  await screenshot(page, 'bridge-compare');
  // Switched off in the form, the link says so; a value the engine does not read is named.
  await page.click('#cmp-settings-1 summary');
  await page.selectOption('#cmp-save_bridge-1', 'false');
  await page.click('#cmp-link');
  await page.waitForFunction(() => (document.querySelector('#cmp-link')?.dataset.url ?? '').includes('save_bridge:false'));
  const bad = await h.openPage(`?${q.replace('save_bridge:true', 'save_bridge:yes')}`);
  await teachReady(bad);
  assert.equal(await bad.getAttribute('body', 'data-url-errors'), '1');
  assert.match(await bad.textContent('body'), /pane2: save_bridge=yes: save-bridge playouts \(Hex\) must be true or false/);
  assertClean(assert, page);
});

test('save-bridge: an Arena match with save_bridge=true plays the games of mcts arena', async () => {
  const page = await h.openPage('#arena');
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'hex:5');
  await page.dispatchEvent('#ar-game', 'change');
  await page.uncheck('#ar-openings');
  await page.selectOption('#ar-a', 'uct');
  await page.selectOption('#ar-b', 'uct');
  await page.fill('#ar-set-a', '');
  await page.fill('#ar-set-b', 'save_bridge=true');
  await page.fill('#ar-games', '4');
  await page.fill('#ar-budget', '300');
  await page.selectOption('#ar-unit', 'iterations');
  await page.fill('#ar-seed', '11');
  await page.fill('#ar-workers', '2');
  await page.click('#ar-run');
  await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#ar-json')]);
  const web = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  const want = native('arena', [
    '--game',
    'hex:5',
    '--a',
    'uct',
    '--b',
    'uct',
    '--set-b',
    'save_bridge=true',
    '--openings',
    'none',
    '--games',
    '4',
    '--iterations',
    '300',
    '--seed',
    '11',
  ]);
  const strip = (r) => ({ index: r.index, a_first: r.a_first, moves: r.moves, a_score: r.a_score, winner: r.winner });
  assert.deepEqual(web.records.map(strip), want.records.map(strip), 'the same games, move by move');
  assert.deepEqual(web.set_b, ['save_bridge=true']);
  assertClean(assert, page);
});
