import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPageStore } from '../state';
import type { EngineClient } from '../engine';
import type { GameRecordText, Snapshot, TreeSnapshot } from '../protocol';
import type { PageHooks } from '../types';
import { exportRecord, importRecord, treeJson } from './records';
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
function fakePage(opts: { parse?: (text: string) => GameRecordText; loads?: boolean; reason?: string; snap?: Snapshot | null } = {}) {
  const shown: [string, string | undefined][] = [];
  const loaded: [string, string[]][] = [];
  const written: [string, string[], string][] = [];
  const engine = {
    parseRecord: async (text: string) => {
      if (!opts.parse) throw new Error('line 1: not a record');
      return opts.parse(text);
    },
    writeRecord: async (spec: string, moves: string[], format: string) => {
      written.push([spec, moves, format]);
      return `${spec}\n${moves.join(' ')}`;
    },
  } as unknown as EngineClient;
  const hooks = {
    engine: () => engine,
    snapshot: () => opts.snap ?? null,
    showMessage: (text: string, kind?: 'info' | 'error') => void shown.push([text, kind]),
    loadGame: async (spec: string, moves: string[]) => {
      loaded.push([spec, moves]);
      return (opts.loads ?? true)
        ? { ok: true }
        : {
            ok: false,
            reason: opts.reason ?? 'move 2 (d4): the cell is taken',
            message: cannotLoadMessage(spec, moves, opts.reason ?? 'move 2 (d4): the cell is taken'),
          };
    },
  } as unknown as PageHooks;
  return { hooks, shown, loaded, written };
}

describe('importRecord', () => {
  it('loads what the engine read and says how many moves, with the reader’s notes', async () => {
    const page = fakePage({ parse: () => ({ spec: 'hex:7', moves: ['d4', 'c5'], notes: ['2 variations left out'] }) });
    const r = await importRecord(page.hooks, '(;GM[11]...)');
    expect(r).toEqual({ ok: true, message: 'Loaded hex:7, 2 moves. 2 variations left out.' });
    expect(page.loaded).toEqual([['hex:7', ['d4', 'c5']]]);
    expect(page.shown).toEqual([['Loaded hex:7, 2 moves. 2 variations left out.', undefined]]);
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
    expect(page.written).toEqual([['hex:7', ['d4', 'c5'], 'sgf']]);
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
