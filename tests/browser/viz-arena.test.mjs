// Arena: a short match in the browser's workers finishes with the right totals, and its
// records and standings equal those of the native `mcts arena --json` for the same seed and
// iteration budget (both call src/arena.rs `play_game` and `Standings`). CSV and JSON download.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, assertClean, screenshot, ROOT, teachReady } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

function nativeArena(args) {
  // Build (or bring up to date) the native CLI from the same sources as the wasm: a stale binary
  // from an older checkout would play different games.
  execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });
  const bin = join(ROOT, 'target', 'release', 'mcts');
  return JSON.parse(execFileSync(bin, ['arena', ...args, '--json'], { cwd: ROOT, encoding: 'utf8' }));
}

test('arena: 6 games of hex:4 in workers, right totals, same records as mcts arena --json', async () => {
  const page = await h.openPage('#arena');
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'hex:4');
  await page.selectOption('#ar-a', 'uct');
  await page.selectOption('#ar-b', 'rave');
  await page.fill('#ar-set-a', 'c=0.8');
  await page.fill('#ar-games', '6');
  await page.fill('#ar-budget', '300');
  await page.selectOption('#ar-unit', 'iterations');
  await page.fill('#ar-seed', '7');
  await page.fill('#ar-workers', '2');
  await page.click('#ar-run');
  await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
  const cell = (k) => page.textContent(`#ar-standings-table td[data-k="${k}"]`).then(Number);
  const [games, wins, draws, losses] = [await cell('games'), await cell('wins'), await cell('draws'), await cell('losses')];
  assert.equal(games, 6);
  assert.equal(wins + draws + losses, 6);
  assert.equal(await page.locator('#ar-games-table tbody tr').count(), 6);
  assert.equal(await page.locator('#arena .uplot').count(), 1);
  // Downloads.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#ar-json')]);
  const web = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  const [dlc] = await Promise.all([page.waitForEvent('download'), page.click('#ar-csv')]);
  const csv = readFileSync(await dlc.path(), 'utf8')
    .trim()
    .split('\n');
  assert.equal(csv[0], 'index,a_first,a_score,winner,plies,moves');
  assert.equal(csv.length, 7);
  // The native command line, same seed and budget.
  const native = nativeArena([
    '--game',
    'hex:4',
    '--a',
    'uct',
    '--b',
    'rave',
    '--set-a',
    'c=0.8',
    '--games',
    '6',
    '--iterations',
    '300',
    '--seed',
    '7',
  ]);
  const strip = (r) => ({ index: r.index, a_first: r.a_first, moves: r.moves, a_score: r.a_score, winner: r.winner });
  assert.deepEqual(web.records.map(strip), native.records.map(strip), 'the same games, move by move');
  for (const k of ['games', 'wins', 'draws', 'losses', 'win_rate', 'win_rate_ci95', 'elo', 'elo_ci95', 'seed', 'iterations', 'set_a']) {
    assert.deepEqual(web[k], native[k], `${k}`);
  }
  assert.equal(wins, native.wins);
  // The progress bar is full; every game is a row that opens in the play view, replayable.
  assert.equal(await page.getAttribute('#ar-progress', 'value'), '6');
  assert.match(await page.textContent('#ar-status'), /games\/s/);
  const href = await page.getAttribute('#ar-games-table tr[data-index="1"] a.ar-open', 'href');
  const q = new URL(href, page.url()).searchParams;
  assert.equal(q.get('game'), 'hex:4');
  assert.equal(q.get('moves'), native.records[1].moves.join(' '));
  const replay = await h.openPage(new URL(href, page.url()).search);
  await teachReady(replay);
  const snap = await replay.evaluate(() => window.__playground.snapshot());
  assert.deepEqual(snap.moves, native.records[1].moves, 'the game opens in the play view with its moves');
  assert.equal(await replay.getAttribute('body', 'data-url-errors'), '0');
  await screenshot(page, 'viz-arena-hex4');
  assertClean(assert, replay);
  assertClean(assert, page);
});

// Balanced openings. Hex without the swap rule starts with the box ticked (as
// `mcts arena` defaults to all openings there); every first move of Hex 3×3 is played twice,
// colours swapped; the per-colour split shown adds up to the totals and equals the command line's.
test('arena: balanced openings on hex:3, every first move twice, per-colour split as mcts arena --openings all', async () => {
  const page = await h.openPage('#arena');
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'tictactoe');
  await page.dispatchEvent('#ar-game', 'change');
  assert.equal(await page.isChecked('#ar-openings'), false, 'Tic-Tac-Toe: from the empty board by default');
  await page.fill('#ar-game', 'hex:3');
  await page.dispatchEvent('#ar-game', 'change');
  assert.equal(await page.isChecked('#ar-openings'), true, 'Hex without swap: balanced openings by default');
  await page.selectOption('#ar-a', 'uct');
  await page.selectOption('#ar-b', 'rave');
  await page.fill('#ar-set-a', '');
  await page.fill('#ar-games', '18');
  await page.fill('#ar-budget', '30');
  await page.selectOption('#ar-unit', 'iterations');
  await page.fill('#ar-seed', '5');
  await page.fill('#ar-workers', '2');
  await page.click('#ar-run');
  await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
  const cell = (k) => page.textContent(`#ar-standings [data-k="${k}"]`).then(Number);
  const shown = {};
  for (const k of ['games', 'wins', 'draws', 'losses', 'first-player-wins', 'second-player-wins']) shown[k] = await cell(k);
  for (const side of ['first', 'second'])
    for (const k of ['games', 'wins', 'draws', 'losses']) shown[`a-${side}-${k}`] = await cell(`a-${side}-${k}`);
  assert.equal(shown.games, 18);
  assert.equal(shown['a-first-games'], 9);
  assert.equal(shown['a-second-games'], 9);
  for (const k of ['wins', 'draws', 'losses']) assert.equal(shown[`a-first-${k}`] + shown[`a-second-${k}`], shown[k], `${k} by colour`);
  assert.equal(shown['first-player-wins'], shown['a-first-wins'] + shown['a-second-losses']);
  assert.equal(shown['first-player-wins'] + shown['second-player-wins'] + shown.draws, 18);
  // The games' table: games 2j and 2j+1 share first move j, A first then B first.
  const rows = await page.$$eval('#ar-games-table tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  );
  const cells = ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'];
  assert.deepEqual(
    rows.map((r) => [r[1], r[2]]),
    cells.flatMap((c) => [
      ['A first', c],
      ['B first', c],
    ]),
  );
  // The command line, same seed and budget: the same games and the same split.
  const native = nativeArena(['--game', 'hex:3', '--a', 'uct', '--b', 'rave', '--openings', 'all', '--iterations', '30', '--seed', '5']);
  assert.equal(native.games, 18);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#ar-json')]);
  const web = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  assert.deepEqual(web.records, native.records, 'the same games, openings first');
  for (const k of ['openings', 'wins', 'draws', 'losses', 'a_first_games', 'a_first_wins', 'a_first_draws', 'a_first_losses']) {
    assert.deepEqual(web[k], native[k], k);
  }
  for (const k of ['a_second_games', 'a_second_wins', 'a_second_draws', 'a_second_losses', 'first_player_wins', 'second_player_wins']) {
    assert.deepEqual(web[k], native[k], k);
  }
  assert.equal(shown['a-first-wins'], native.a_first_wins);
  assert.equal(shown['first-player-wins'], native.first_player_wins);
  await screenshot(page, 'viz-arena-openings-hex3');
  assertClean(assert, page);
});

test('arena: when the first player wins most games, the standings say so and offer the swap rule', async () => {
  const page = await h.openPage('#arena');
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'hex:3');
  await page.dispatchEvent('#ar-game', 'change');
  // From the empty board: on 3×3 the first player wins with the centre.
  await page.uncheck('#ar-openings');
  await page.selectOption('#ar-a', 'uct');
  await page.selectOption('#ar-b', 'uct');
  await page.fill('#ar-games', '10');
  await page.fill('#ar-budget', '200');
  await page.selectOption('#ar-unit', 'iterations');
  await page.fill('#ar-seed', '1');
  await page.click('#ar-run');
  await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
  // The per-colour split is shown.
  const first = Number(await page.textContent('#ar-standings [data-k="first-player-wins"]'));
  assert.ok(first >= 7, `the first player won ${first} of 10`);
  assert.ok(await page.isVisible('#ar-standings tr[data-colour="first"]'));
  assert.match(
    await page.textContent('#ar-first-note'),
    /The first player won \d+\.\d% of the games: this match measures who moved first more than A against B\. In Hex moving first wins with perfect play; try the swap rule \(hex:3:swap/,
  );
  await page.click('#ar-try-swap');
  assert.equal(await page.inputValue('#ar-game'), 'hex:3:swap');
  assert.equal(await page.isChecked('#ar-openings'), false, 'with the swap rule: from the empty board');
  assertClean(assert, page);
});

test('arena: parameter errors are sentences, never a reader’s message', async () => {
  const page = await h.openPage('#arena', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'hex:3');
  await page.fill('#ar-games', '2');
  await page.fill('#ar-budget', '50');
  const run = async (setA, setB) => {
    await page.fill('#ar-set-a', setA);
    await page.fill('#ar-set-b', setB);
    await page.click('#ar-run');
    await page.waitForFunction(() => ['failed', 'invalid'].includes(document.querySelector('#arena').dataset.state));
    const text = await page.textContent('#ar-status');
    await page.evaluate(() => {
      document.querySelector('#arena').dataset.state = '';
    });
    return text;
  };
  assert.match(await run('c=abc', ''), /configuration A: c must be a number, not 'abc'/);
  assert.match(await run('', 'colour=red'), /configuration B: there is no parameter 'colour' \(the parameters are .*\bc\b/);
  assert.match(await run('', 'pool_k=2.5'), /configuration B: pool_k must be a whole number, not '2.5'/);
  assert.match(await run('c=200', ''), /configuration A: .*c = 200 is out of range \[0, 100\]/);
  assert.match(await run('c', ''), /parameters of A: expected key=value, got 'c'/);
  await page.fill('#ar-set-a', '');
  await page.fill('#ar-games', '0');
  await page.click('#ar-run');
  await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'invalid');
  assert.match(await page.textContent('#ar-status'), /games=0: expected a whole number from 1 to 10,000/);
  const all = await page.textContent('#arena');
  assert.doesNotMatch(all, /invalid type|expected f64|at line \d+ column/);
  await screenshot(page, 'viz-arena-errors-390-dark');
  assertClean(assert, page);
});

test('arena: trees held at the memory cap play on, and the status says so', async () => {
  const page = await h.openPage('#arena');
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'hex:5');
  await page.selectOption('#ar-a', 'rave');
  await page.selectOption('#ar-b', 'uct');
  // 1 MiB: below any worker's WebAssembly memory, so A's tree is held at its root every move.
  await page.fill('#ar-set-a', 'memory_cap_mib=1 rave_table_visits=1');
  await page.fill('#ar-games', '2');
  await page.fill('#ar-budget', '200');
  await page.selectOption('#ar-unit', 'iterations');
  await page.fill('#ar-workers', '1');
  await page.click('#ar-run');
  await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
  assert.equal(await page.locator('#ar-games-table tbody tr').count(), 2, 'both games were played to their end');
  assert.equal(await page.getAttribute('#arena', 'data-memory-capped'), '2');
  assert.match(await page.textContent('#ar-status'), /In 2 of 2 games a search tree reached the engine's memory cap/);
  await screenshot(page, 'arena-memory-cap');
  assertClean(assert, page);
});
