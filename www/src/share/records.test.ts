import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPageStore } from '../state';
import type { EngineClient } from '../engine';
import type { GameRecordText, Snapshot, TreeSnapshot, Variation } from '../protocol';
import type { GameTree } from '../state';
import type { PageHooks } from '../types';
import { inTree } from '../play/tree';
import { exportRecord, gameJson, importRecord, parseGameJson, treeJson } from './records';
import { cannotLoadMessage } from '../lib/echo';

/** root → a1 (→ c3), b2: a pre-order snapshot as the worker sends it. */
function snapshot(): TreeSnapshot {
  const f32 = (xs: number[]) => new Float32Array(xs);
  return {
    total: 5,
    count: 4,
    moves: ['a1', 'b2', 'c3'],
    parent: new Int32Array([-1, 0, 1, 0]),
    move: new Uint16Array([65535, 0, 2, 1]),
    visits: new Uint32Array([10, 6, 2, 3]),
    q: f32([0.5, 0.612345678, 0.25, 0.4]),
    proven: new Uint8Array([0, 1, 2, 0]),
    depth: new Uint8Array([0, 1, 2, 1]),
    hidden: new Uint32Array([0, 1, 0, 0]),
    x0: f32([0, 0, 0, 0.6]),
    x1: f32([1, 0.6, 0.2, 0.9]),
    buildMs: 0.1,
    bytes: 100,
  };
}

describe('treeJson', () => {
  it('nests the pre-order snapshot, q to five places, proofs by name', () => {
    expect(treeJson(snapshot())).toEqual({
      move: null,
      visits: 10,
      q: 0.5,
      proven: null,
      hidden_children: 0,
      children: [
        {
          move: 'a1',
          visits: 6,
          q: 0.61235,
          proven: 'win',
          hidden_children: 1,
          children: [{ move: 'c3', visits: 2, q: 0.25, proven: 'loss', hidden_children: 0, children: [] }],
        },
        { move: 'b2', visits: 3, q: 0.4, proven: null, hidden_children: 0, children: [] },
      ],
    });
  });
  it('is null for an empty snapshot', () => {
    expect(treeJson({ ...snapshot(), count: 0 })).toBeNull();
  });
});

/** Page hooks with an engine that reads and writes records as the worker would. */
function fakePage(
  opts: { parse?: (text: string) => GameRecordText; loads?: boolean; reason?: string; snap?: Snapshot | null; tree?: GameTree } = {},
) {
  const shown: [string, string | undefined][] = [];
  const loaded: [string, string[]][] = [];
  const written: [string, string[], string, readonly Variation[] | undefined][] = [];
  const parsed: string[] = [];
  // The store's slices the records code reads and writes.
  const state: { gameTree: GameTree | null; searches: never[] } = { gameTree: opts.tree ?? null, searches: [] };
  let snap = opts.snap ?? null;
  const engine = {
    parseRecord: async (text: string) => {
      parsed.push(text);
      if (!opts.parse) throw new Error('line 1: not a record');
      return opts.parse(text);
    },
    writeRecord: async (spec: string, moves: string[], format: string, variations?: readonly Variation[]) => {
      written.push([spec, moves, format, variations]);
      return `${spec}\n${moves.join(' ')}`;
    },
  } as unknown as EngineClient;
  const hooks = {
    engine: () => engine,
    snapshot: () => snap,
    store: { get: () => state, update: (p: Partial<typeof state>) => Object.assign(state, p) },
    showMessage: (text: string, kind?: 'info' | 'error') => void shown.push([text, kind]),
    loadGame: async (spec: string, moves: string[]) => {
      loaded.push([spec, moves]);
      if (opts.loads ?? true) snap = { view: { spec }, moves } as unknown as Snapshot;
      return (opts.loads ?? true)
        ? { ok: true }
        : {
            ok: false,
            reason: opts.reason ?? 'move 2 (d4): the cell is taken',
            message: cannotLoadMessage(spec, moves, opts.reason ?? 'move 2 (d4): the cell is taken'),
          };
    },
  } as unknown as PageHooks;
  return { hooks, shown, loaded, written, parsed, state };
}

const VARS: Variation[] = [{ at: 1, moves: ['e3', 'c4'], variations: [{ at: 1, moves: ['b6'], variations: [] }] }];

describe('importRecord', () => {
  it('loads what the engine read and says how many moves, with the reader’s notes', async () => {
    const page = fakePage({ parse: () => ({ spec: 'hex:7', moves: ['d4', 'c5'], notes: ['1 variation(s) merged'] }) });
    const r = await importRecord(page.hooks, '(;GM[11]...)');
    expect(r).toEqual({ ok: true, message: 'Loaded hex:7, 2 moves. 1 variation(s) merged.' });
    expect(page.loaded).toEqual([['hex:7', ['d4', 'c5']]]);
    expect(page.shown).toEqual([['Loaded hex:7, 2 moves. 1 variation(s) merged.', undefined]]);
    // The record's tree (without variations) replaces the page's.
    expect(page.state.gameTree).toEqual({ spec: 'hex:7', moves: ['d4', 'c5'], variations: [] });
  });
  it('puts an SGF’s variations into the game’s tree after the main line is loaded', async () => {
    const old: GameTree = { spec: 'hex:7', moves: ['a1'], variations: [{ at: 0, moves: ['b1'], variations: [] }] };
    const page = fakePage({ parse: () => ({ spec: 'hex:7', moves: ['d4', 'c5', 'e3'], notes: [], variations: VARS }), tree: old });
    const r = await importRecord(page.hooks, '(;GM[11]SZ[7];B[d4](;W[c5];B[e3])(;W[e3];B[c4](;W[b6]))))');
    expect(r).toEqual({ ok: true, message: 'Loaded hex:7, 3 moves and 2 variations.' });
    expect(page.loaded).toEqual([['hex:7', ['d4', 'c5', 'e3']]]);
    expect(page.state.gameTree).toEqual({ spec: 'hex:7', moves: ['d4', 'c5', 'e3'], variations: VARS });
  });
  it('checks a game JSON’s variations with the engine and loads its canonical tree', async () => {
    const text = JSON.stringify({
      format: 'mcts-playground-game',
      version: 1,
      game: 'hex:7',
      moves: ['d4', 'c5'],
      variations: VARS,
      searches: [],
    });
    const page = fakePage({ parse: () => ({ spec: 'hex:7', moves: ['d4', 'c5'], notes: [], variations: VARS }) });
    const r = await importRecord(page.hooks, text);
    expect(r).toEqual({ ok: true, message: 'Loaded hex:7, 2 moves and 2 variations, the statistics of 0 searches.' });
    expect(page.parsed).toEqual([text]);
    expect(page.state.gameTree).toEqual({ spec: 'hex:7', moves: ['d4', 'c5'], variations: VARS });
    // Without variations the engine is not asked.
    const plain = fakePage();
    await importRecord(plain.hooks, JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: ['d4'] }));
    expect(plain.parsed).toEqual([]);
    expect(plain.state.gameTree).toEqual({ spec: 'hex:7', moves: ['d4'], variations: [] });
  });
  it('refuses a game JSON with a bad variation in the engine’s words, and loads nothing', async () => {
    const text = JSON.stringify({
      format: 'mcts-playground-game',
      version: 1,
      game: 'hex:7',
      moves: ['d4', 'c5'],
      variations: [{ at: 1, moves: ['d4'] }],
    });
    const page = fakePage({
      parse: () => {
        throw new Error("variation at move 2, its move 1 'd4' (move 2 of the game): illegal: not a legal move in this position");
      },
    });
    const r = await importRecord(page.hooks, text);
    expect(r.ok).toBe(false);
    expect(r.message).toBe(
      "Cannot read the record: variation at move 2, its move 1 'd4' (move 2 of the game): illegal: not a legal move in this position",
    );
    expect(page.loaded).toEqual([]);
    const shape = fakePage();
    const bad = await importRecord(
      shape.hooks,
      JSON.stringify({ format: 'mcts-playground-game', game: 'hex:7', moves: [], variations: [{ at: -1, moves: ['a1'] }] }),
    );
    expect(bad.message).toBe('Cannot read the record: "variations" must be a list of variations { "at", "moves", "variations" }');
    expect(shape.parsed).toEqual([]);
  });
  it('answers with the page’s message when the game in the record cannot be loaded', async () => {
    const page = fakePage({ parse: () => ({ spec: 'hex:7', moves: ['d4', 'd4'], notes: [] }), loads: false });
    const r = await importRecord(page.hooks, 'hex:7\nd4 d4');
    expect(r).toEqual({ ok: false, message: 'Cannot load hex:7 with moves d4 d4: move 2 (d4): the cell is taken' });
    expect(page.shown).toEqual([]);
  });
  // Finding: a JSON record of 1,000,000 moves gave a 3,000,093-character message (every move
  // quoted), a 514,314-pixel block on the page. Such a file (5 MB) is now refused by its size
  // before it is parsed; a record under the size limit with too many moves is named by the ends
  // of its list.
  it('answers a 1,000,000-move JSON record with a sentence that names the problem', async () => {
    const page = fakePage();
    const huge = Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? 'b2' : 'a1'));
    const big = JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: huge });
    const refused = await importRecord(page.hooks, big);
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^Cannot read the record: the record is 5000070 bytes long; records of at most 1000000 bytes are read/,
      ),
    });
    expect(refused.ok || refused.message.length).toBeLessThan(200);
    expect(page.loaded).toEqual([]);
  });
  it('quotes a long move list by its ends', async () => {
    const reason = '100000 moves; a request carries at most 1000';
    const page = fakePage({ loads: false, reason });
    const moves = Array.from({ length: 100_000 }, (_, i) => (i % 2 ? 'b2' : 'a1'));
    const searches = moves.slice(0, 10_000).map((_, i) => ({ ply: i + 1, move: 'zz' }));
    const text = JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves, searches });
    const r = await importRecord(page.hooks, text);
    expect(r.ok).toBe(false);
    expect(r.message).toBe(`Cannot load hex:7 with moves a1 b2 a1 b2 a1 … 99,993 more … a1 b2: ${reason}`);
    expect(page.loaded[0]![1].length).toBe(100_000);
    const { parseGameJson } = await import('./records');
    const notes = parseGameJson(text).notes;
    expect(notes).toEqual(['10,000 searches left out (searches 1, 2, 3 … 10000: they do not match moves of the record)']);
  });
  it('shows the engine’s reason when the record cannot be read, and loads nothing', async () => {
    const page = fakePage();
    const r = await importRecord(page.hooks, 'garbage');
    expect(r).toEqual({ ok: false, message: 'Cannot read the record: line 1: not a record' });
    expect(page.loaded).toEqual([]);
    expect(page.shown).toEqual([['Cannot read the record: line 1: not a record', 'error']]);
  });
});

describe('exportRecord', () => {
  it('asks the engine to write the game on the board', async () => {
    const snap = { view: { spec: 'hex:7' }, moves: ['d4', 'c5'] } as unknown as Snapshot;
    const page = fakePage({ snap });
    expect(await exportRecord(page.hooks, 'sgf')).toBe('hex:7\nd4 c5');
    expect(page.written).toEqual([['hex:7', ['d4', 'c5'], 'sgf', []]]);
  });
  it('writes the game’s tree when the live line is one of its lines; a move list says it has the main line only', async () => {
    const tree: GameTree = { spec: 'hex:7', moves: ['d4', 'c5', 'e3'], variations: VARS };
    // The live game is the variation at move 2, inside it the one at move 3.
    const snap = { view: { spec: 'hex:7' }, moves: ['d4', 'e3', 'b6'] } as unknown as Snapshot;
    const page = fakePage({ snap, tree });
    await exportRecord(page.hooks, 'sgf');
    expect(page.written).toEqual([['hex:7', ['d4', 'c5', 'e3'], 'sgf', VARS]]);
    expect(page.shown).toEqual([]);
    await exportRecord(page.hooks, 'moves');
    expect(page.written[1]).toEqual(['hex:7', ['d4', 'c5', 'e3'], 'moves', VARS]);
    expect(page.shown).toEqual([
      [
        'A move list has no variations: only the main line (3 moves) is written, not its 2 variations; SGF (Hex) and the game JSON keep them.',
        undefined,
      ],
    ]);
    // Stepped back to move 1: the tree still.
    const back = fakePage({ snap: { view: { spec: 'hex:7' }, moves: ['d4'] } as unknown as Snapshot, tree });
    await exportRecord(back.hooks, 'sgf');
    expect(back.written).toEqual([['hex:7', ['d4', 'c5', 'e3'], 'sgf', VARS]]);
    // A tree the live game left (another line, another game): the live line alone.
    const other = fakePage({ snap: { view: { spec: 'hex:7' }, moves: ['a1'] } as unknown as Snapshot, tree });
    await exportRecord(other.hooks, 'moves');
    expect(other.written).toEqual([['hex:7', ['a1'], 'moves', []]]);
    expect(other.shown).toEqual([]);
  });
  it('refuses before there is a game', async () => {
    await expect(exportRecord(fakePage().hooks, 'moves')).rejects.toThrow('no game yet');
  });
});

describe('the game’s JSON record', () => {
  const summary = {
    ply: 2,
    move: 'b2',
    player: 1,
    source: 'engine',
    preset: 'rave',
    playouts: 3000,
    chosen: { move: 'b2', visits: 1500, win_rate: 0.52, proven: null },
    best_rival: { move: 'a1', visits: 700, win_rate: 0.47, proven: null },
    proven: null,
  };
  it('reads the moves and the statistics that match a move', async () => {
    const { parseGameJson } = await import('./records');
    const text = JSON.stringify({
      format: 'mcts-playground-game',
      version: 1,
      game: 'hex:3',
      moves: ['c3', 'b2'],
      searches: [summary, { ...summary, ply: 1 }],
    });
    const r = parseGameJson(text);
    expect(r.game).toBe('hex:3');
    expect(r.moves).toEqual(['c3', 'b2']);
    expect(r.searches).toEqual([summary]);
    expect(r.notes).toEqual(['search 2 left out (it does not match a move of the record)']);
  });
  it('reads a record without statistics; refuses what is not one, in words', async () => {
    const { parseGameJson } = await import('./records');
    expect(parseGameJson('{"format":"mcts-playground-game","version":1,"game":"tictactoe","moves":["b2"]}').searches).toEqual([]);
    expect(() => parseGameJson('{"game":"hex:3"}')).toThrow('not a game record');
    expect(() => parseGameJson('{oops')).toThrow(/not valid JSON/);
    expect(() => parseGameJson('{"format":"mcts-playground-game","game":"hex:3","moves":[1]}')).toThrow('"moves" must be a list of moves');
    for (const v of [
      '{}',
      '[{"at":1}]',
      '[{"at":0.5,"moves":["a1"]}]',
      '[{"at":0,"moves":[]}]',
      '[{"at":0,"moves":["a1"],"variations":3}]',
    ])
      expect(() => parseGameJson(`{"format":"mcts-playground-game","game":"hex:3","moves":["a1"],"variations":${v}}`)).toThrow(
        '"variations" must be a list of variations',
      );
  });
  it('writes the tree: the main line, its variations and the main line’s statistics', () => {
    const tree: GameTree = { spec: 'hex:7', moves: ['d4', 'c5', 'e3'], variations: VARS };
    const page = fakePage({ snap: { view: { spec: 'hex:7' }, moves: ['d4', 'e3'] } as unknown as Snapshot, tree });
    const j = gameJson(page.hooks);
    expect(j).toEqual({
      format: 'mcts-playground-game',
      version: 1,
      game: 'hex:7',
      moves: ['d4', 'c5', 'e3'],
      variations: VARS,
      searches: [],
    });
    const back = parseGameJson(JSON.stringify(j));
    expect([back.moves, back.variations]).toEqual([tree.moves, VARS]);
    // No variations: no key (the JSON of a plain game is as before).
    const plain = fakePage({ snap: { view: { spec: 'hex:7' }, moves: ['d4'] } as unknown as Snapshot });
    expect(Object.keys(gameJson(plain.hooks))).toEqual(['format', 'version', 'game', 'moves', 'searches']);
  });
});

describe('inTree (the records’ test of the live line)', () => {
  const tree = {
    spec: 'hex:5',
    moves: ['a', 'b', 'c'],
    variations: VARS.map((v) => ({ ...v, moves: ['x', 'y'], variations: [{ at: 1, moves: ['z'], variations: [] }] })),
  };
  it('finds the main line, its prefixes and the variations’ lines', () => {
    for (const line of [[], ['a'], ['a', 'b', 'c'], ['a', 'x'], ['a', 'x', 'y'], ['a', 'x', 'z']]) expect(inTree(tree, line)).toBe(true);
  });
  it('refuses a line that leaves the tree', () => {
    for (const line of [['b'], ['a', 'b', 'c', 'd'], ['a', 'y'], ['a', 'x', 'y', 'z'], ['a', 'z']]) expect(inTree(tree, line)).toBe(false);
  });
});

describe('the game’s JSON record carries the game review', () => {
  /** A real report (`mcts review --json`, review/testdata/README.md) and the game it reviews. */
  const report = JSON.parse(readFileSync(new URL('../review/testdata/hex7-exact.json', import.meta.url), 'utf8'));
  const snap = { view: { spec: 'hex:7' }, moves: report.moves } as unknown as Snapshot;
  const finished = (r: unknown) => ({ key: 'k', done: 17, total: 17, status: 'finished', report: r });
  /** A page whose store holds `gameReview`, and whose review controller records what it restores. */
  function page(gameReview: unknown, snapNow: Snapshot | null = snap) {
    const restored: unknown[] = [];
    const base = fakePage({ snap: snapNow });
    const store = createPageStore();
    store.update({ gameReview: gameReview as never });
    const hooks = { ...base.hooks, store, review: { start() {}, restore: (r: unknown) => void restored.push(r) } } as PageHooks;
    return { ...base, hooks, restored };
  }

  it('writes the finished review of the main line, and reads it back equal', async () => {
    const { gameJson, parseGameJson } = await import('./records');
    const json = gameJson(page(finished(report)).hooks);
    expect(json.review).toEqual(report);
    const back = parseGameJson(JSON.stringify(json));
    expect(back.review).toEqual(report);
    expect(back.moves).toEqual(report.moves);
  });

  it('writes no review while it runs, when stopped, or when it reviews another main line', async () => {
    const { gameJson } = await import('./records');
    expect(gameJson(page(null).hooks)).not.toHaveProperty('review');
    expect(gameJson(page({ ...finished(null), status: 'running' }).hooks)).not.toHaveProperty('review');
    expect(gameJson(page({ ...finished(report), status: 'stopped' }).hooks)).not.toHaveProperty('review');
    const shorter = { view: { spec: 'hex:7' }, moves: report.moves.slice(0, 3) } as unknown as Snapshot;
    expect(gameJson(page(finished(report), shorter).hooks)).not.toHaveProperty('review');
  });

  it('restores the review after loading the game, and says so', async () => {
    const p = page(null);
    const text = JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: report.moves, review: report });
    const r = await importRecord(p.hooks, text);
    expect(r).toEqual({ ok: true, message: 'Loaded hex:7, 16 moves, the statistics of 0 searches and its review.' });
    expect(p.loaded).toEqual([['hex:7', report.moves]]);
    expect(p.restored).toEqual([report]);
  });

  it('loads the game without a review of another game, with a sentence', async () => {
    const p = page(null);
    const other = { ...report, game: 'hex:9' };
    const text = JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: report.moves, review: other });
    const r = await importRecord(p.hooks, text);
    expect(r.ok).toBe(true);
    expect(r.message).toBe(
      'Loaded hex:7, 16 moves, the statistics of 0 searches. its review is of another game (hex:9, 16 moves) and was left out.',
    );
    expect(p.restored).toEqual([]);
    // The record's moves and the review's differ (the review of the first 3 moves only).
    const short = { ...report, moves: report.moves.slice(0, 3), plies: report.plies.slice(0, 3) };
    const text2 = JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: report.moves, review: short });
    const r2 = await importRecord(p.hooks, text2);
    expect(r2.message).toMatch(/its review is of another game \(hex:7, 3 moves\) and was left out/);
    expect(p.restored).toEqual([]);
  });

  it('refuses a record with a malformed review with a sentence, and loads nothing', async () => {
    const bad: [unknown, RegExp][] = [
      ['yes', /the review must be an object/],
      [{ ...report, plies: report.plies.slice(1) }, /"plies" must hold one entry per move \(16\), not 15/],
      [
        { ...report, plies: report.plies.map((x: object, i: number) => (i === 4 ? { ...x, class: 'brilliant' } : x)) },
        /entry 5's "class" must be one of best/,
      ],
      [
        { ...report, plies: report.plies.map((x: object, i: number) => (i === 0 ? { ...x, value_before: 1.5 } : x)) },
        /entry 1's "value_before" must be a win probability/,
      ],
      [
        { ...report, plies: report.plies.map((x: object, i: number) => (i === 2 ? { ...x, move: 'a1' } : x)) },
        /entry 3's move must be the game's move 3 \(e3\)/,
      ],
      [{ ...report, settings: { ...report.settings, ms: 100 } }, /one budget/],
      [{ ...report, summary: { black: { accuracy: 'high' } } }, /summary.black.accuracy/],
      [{ ...report, moves: 'd4 c5' }, /"moves" must be a list of moves/],
    ];
    for (const [review, re] of bad) {
      const p = page(null);
      const text = JSON.stringify({ format: 'mcts-playground-game', version: 1, game: 'hex:7', moves: report.moves, review });
      const r = await importRecord(p.hooks, text);
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/^Cannot read the record: /);
      expect(r.message).toMatch(re);
      expect(p.loaded).toEqual([]);
      expect(p.restored).toEqual([]);
    }
  });

  it('reads a record whose review is null as one without a review', async () => {
    const { parseGameJson } = await import('./records');
    expect(parseGameJson('{"format":"mcts-playground-game","version":1,"game":"hex:3","moves":[],"review":null}').review).toBeNull();
  });
});
