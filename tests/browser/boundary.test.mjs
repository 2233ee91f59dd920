// The wasm boundary (src/wasm/) called directly from Node, without a browser: the same
// pkg/ the worker loads. Errors must be JS Errors with messages; refused moves leave the game
// untouched; undo/redo walk the history; the search runs in chunks and reuses its tree; a review
// gives the same positions in any order and its report from them all.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

let w;
before(async () => {
  w = await import(join(ROOT, 'pkg', 'mcts_playground.js'));
  await w.default({ module_or_path: readFileSync(join(ROOT, 'pkg', 'mcts_playground_bg.wasm')) });
});

test('GameSession: bad specs are JS errors with a message', () => {
  assert.throws(
    () => new w.GameSession('chess'),
    (e) => e instanceof Error && /unknown game 'chess'/.test(e.message),
  );
  assert.throws(() => new w.GameSession('hex:20'), /hex|size|19/i);
  assert.throws(() => new w.GameSession(''), /empty game spec/);
  assert.equal(new w.GameSession('hex').spec(), 'hex:11');
});

test('GameSession: checked play, state untouched on error, undo/redo, view, outcome', () => {
  const g = new w.GameSession('tictactoe');
  assert.equal(g.legalMoves().length, 9);
  assert.equal(g.play('B2'), 'b2');
  const before = JSON.stringify(g.snapshot());
  assert.throws(() => g.play('b2'), /illegal move b2/);
  assert.throws(() => g.play('z9'), /cannot read move 'z9'/);
  assert.equal(JSON.stringify(g.snapshot()), before, 'refused moves change nothing');
  for (const m of ['a1', 'c1', 'a3', 'a2', 'c2', 'b3']) g.play(m); // nobody has a line yet
  const snap = g.snapshot();
  assert.deepEqual(snap.moves, ['b2', 'a1', 'c1', 'a3', 'a2', 'c2', 'b3']);
  assert.equal(snap.outcome, null);
  assert.equal(snap.view.kind, 'tictactoe');
  assert.equal(snap.view.cells.length, 9);
  assert.equal(g.undo(), true);
  assert.equal(g.ply(), 6);
  assert.deepEqual(g.snapshot().redo, ['b3']);
  assert.equal(g.redo(), true);
  assert.equal(g.redo(), false);
  g.undo();
  g.play('c3');
  assert.deepEqual(g.snapshot().redo, [], 'a new move drops the redo tail');
  while (g.undo());
  assert.equal(g.ply(), 0);
  assert.equal(g.undo(), false);
  assert.equal(g.outcome(), null);
  for (const m of ['a1', 'b1', 'a2', 'b2', 'a3']) g.play(m);
  assert.deepEqual(g.outcome(), { winner: 0 });
  assert.deepEqual(g.snapshot().view.winning_cells, [0, 3, 6]);
  assert.throws(() => g.play('c3'), /game is over/);
});

test('GameSession: Hex and Pentago views', () => {
  const h = new w.GameSession('hex:5:swap');
  h.play('c3');
  assert.ok(h.legalMoves().includes('swap'));
  h.play('swap');
  const v = h.view();
  assert.equal(v.kind, 'hex');
  assert.equal(v.rows, 5);
  const p = new w.GameSession('pentago:twist');
  assert.equal(p.legalMoves().length, 36 * 8);
  p.play('a1-TL-flip');
  assert.equal(p.view().cells[2], 0, 'a1 flipped left-right inside TL is c1');
  assert.throws(() => p.play('b1-TL-ccw'), /b1-TL-ccw|ccw/);
});

test('SearchSession: presets, bad settings, chunks, best move, tree reuse', () => {
  assert.ok(w.presets().includes('uct'));
  const g = new w.GameSession('hex:5');
  assert.throws(() => new w.SearchSession(g, 'nope', {}), /unknown preset 'nope'/);
  assert.throws(() => new w.SearchSession(g, 'uct', { c: '-1' }), /c/);
  assert.throws(() => new w.SearchSession(g, 'uct', { no_such_field: '1' }), /no_such_field/);
  assert.throws(
    () => new w.SearchSession(g, 'uct', 7),
    /engine parameters must be an object of parameter names and values: got the number 7/,
  );
  assert.throws(() => new w.SearchSession(g, 'uct', [1, 2]), /must be an object of parameter names and values: got a list/);
  const s = new w.SearchSession(g, 'uct', { seed: '3' });
  assert.throws(() => s.run(-1, undefined), /millis/);
  let total = 0;
  for (let i = 0; i < 5; i++) {
    const r = s.run(5, 400);
    assert.ok(['iterations', 'time'].includes(r.stop), r.stop);
    total += r.iterations;
  }
  assert.ok(total > 0);
  const st = s.stats();
  assert.equal(st.game, 'hex:5');
  assert.ok(st.children.length > 0 && st.best_move);
  const best = s.bestMove();
  assert.match(best, /^[a-e][1-5]$/);
  // Tree reuse: play the best move in the game; the search follows and keeps the subtree.
  const child = st.children.find((c) => c.move === best);
  g.play(best);
  assert.equal(s.follow(g), true);
  assert.equal(s.stats().to_move, 1);
  assert.ok(s.nodeCount() >= 1 && child.visits > 1);
  // After an undo the search cannot follow: a fresh tree.
  g.undo();
  assert.equal(s.follow(g), false);
  assert.equal(s.stats().iterations, 0);
  assert.equal(s.configure('uct', { seed: '3' }), false);
  assert.equal(s.configure('rave', {}), true);
  // A finished game: run reports game_over.
  const t = new w.GameSession('tictactoe');
  for (const m of ['a1', 'b1', 'a2', 'b2', 'a3']) t.play(m);
  const ts = new w.SearchSession(t, 'uct', {});
  assert.equal(ts.run(5, undefined).stop, 'game_over');
  assert.equal(ts.bestMove(), undefined);
});

test('ReviewSession and reviewReport: positions in any order, the report of them all, errors as sentences', () => {
  const settings = { preset: 'uct', iterations: 300, ms: null, solve_ms: 1000, seed: 5 };
  const moves = ['b2', 'a1', 'c3'];
  assert.throws(
    () => new w.ReviewSession('tictactoe', ['b2', 'b2'], settings),
    (e) => e instanceof Error && /b2/.test(e.message),
  );
  assert.throws(() => new w.ReviewSession('tictactoe', [], { preset: 'uct' }), /settings cannot be read/);
  assert.throws(() => new w.ReviewSession('tictactoe', [], { ...settings, ms: 10 }), /not both/);
  const s = new w.ReviewSession('tictactoe', moves, settings);
  assert.equal(s.positions(), 4);
  assert.throws(() => s.reviewPosition(4), /position 4 is not in this game/);
  // Position i is searched with seed + i on a fresh tree: the order does not matter.
  const backwards = [3, 2, 1, 0].map((i) => s.reviewPosition(i));
  const t = new w.ReviewSession('tictactoe', moves, settings);
  const forwards = [0, 1, 2, 3].map((i) => t.reviewPosition(i));
  const noTimes = (r) => ({ ...r, search_ms: 0, solve_ms: 0 });
  assert.deepEqual(backwards.reverse().map(noTimes), forwards.map(noTimes));
  // Tic-Tac-Toe is always solved: every position has its exact value.
  assert.ok(forwards.every((r) => r.exact !== null));
  const report = w.reviewReport('tictactoe', moves, settings, backwards);
  assert.equal(report.plies.length, 3);
  assert.deepEqual(report.settings, settings);
  assert.deepEqual(
    report.plies.map((p) => p.move),
    moves,
  );
  assert.throws(() => w.reviewReport('tictactoe', moves, settings, forwards.slice(1)), /1 of 4 positions are not reviewed yet/);
  assert.throws(() => w.reviewReport('tictactoe', ['a1'], settings, forwards.slice(0, 2)), /not of this game's position/);
  s.free();
  t.free();
  // One move judged alone (MoveJudge, the teaching game's) is the same ply as in the report.
  const judge = new w.MoveJudge();
  for (let i = 0; i < moves.length; i++) assert.deepEqual(judge.judge('tictactoe', moves.slice(0, i), moves[i], settings), report.plies[i]);
  const blunder = judge.judge('tictactoe', ['b2'], 'a2', settings);
  assert.deepEqual([blunder.class, blunder.label, blunder.exact_before, blunder.exact_after], ['blunder', 'drawn → lost', 'draw', 'loss']);
  assert.throws(() => judge.judge('tictactoe', ['b2'], 'b2', settings), /move 2 \('b2'\)/);
  assert.throws(() => judge.judge('tictactoe', [], 'a1', { preset: 'uct' }), /settings cannot be read/);
  judge.free();
});
