import { describe, expect, it } from 'vitest';
import type { BoardView, FullStats } from '../protocol';
import {
  KEEP_SEARCHES,
  KEEP_SUMMARIES,
  addSearch,
  archiveQuery,
  behindLabel,
  entryBytes,
  rootSummary,
  searchedText,
  searchBehind,
  summariesOf,
  type MoveSearch,
} from './searches';

const view: BoardView = {
  kind: 'hex',
  spec: 'hex:3',
  rows: 3,
  cols: 3,
  cells: new Array(9).fill(-1),
  to_move: 1,
  last_move: null,
  last_cells: [],
  winning_cells: [],
  outcome: null,
  ply: 1,
};

function stats(children: [string, number, number][], iterations = 100): FullStats {
  return {
    game: 'hex:3',
    to_move: 1,
    best_move: children[0]?.[0] ?? null,
    pv: [],
    proven: null,
    value: 0.5,
    iterations,
    playouts: iterations,
    nodes: 10,
    max_depth: 3,
    elapsed_ms: 1,
    iterations_per_s: 1000,
    children: children.map(([move, visits, q], index) => ({
      index,
      move,
      visits,
      q,
      proven: null,
      amaf_visits: 0,
      amaf_q: null,
      beta: null,
      prior: null,
    })),
    policy: {
      active: [],
      decisive_moves_played: 0,
      anti_decisive_moves_played: 0,
      lgr_replies_played: 0,
      pool_moves_played: 0,
      mast_moves_played: 0,
      save_bridge_moves_played: 0,
      depth2: 'off',
      depth2_firings: 0,
      lgr_replies: [],
      lgr_table_size: [0, 0],
      pool: [],
      mast_top: [],
      qb_length_mean: [0, 0],
      qb_length_std: [0, 0],
    },
    bytes_per_node: 40,
    tree_bytes: 400,
    evaluator: null,
  };
}

function entry(
  before: string[],
  move: string,
  st = stats([
    [move, 60, 0.55],
    ['a1', 30, 0.4],
    ['c3', 10, 0.2],
  ]),
): MoveSearch {
  return {
    spec: 'hex:3',
    before,
    summary: rootSummary(st, move, before.length + 1, 'rave', 'engine'),
    view,
    legal: [],
    stats: st,
    tree: null,
  };
}

describe('rootSummary', () => {
  it('takes the played move, its N and Q (the mover’s win rate) and the most-visited rival', () => {
    const s = rootSummary(
      stats(
        [
          ['b2', 60, 0.55556],
          ['a1', 30, 0.4],
          ['c3', 10, 0.2],
        ],
        100,
      ),
      'b2',
      2,
      'rave',
      'engine',
    );
    expect(s).toEqual({
      ply: 2,
      move: 'b2',
      player: 1,
      source: 'engine',
      preset: 'rave',
      playouts: 100,
      chosen: { move: 'b2', visits: 60, win_rate: 0.5556, proven: null },
      best_rival: { move: 'a1', visits: 30, win_rate: 0.4, proven: null },
      proven: null,
    });
    expect(behindLabel(s)).toBe('Search behind move 2 (b2), 100 playouts, rave');
  });
  it('finds a rival that beat the move played on visits (Stop, a proven move)', () => {
    const s = rootSummary(
      stats([
        ['a1', 70, 0.5],
        ['b2', 20, 0.6],
      ]),
      'b2',
      1,
      'uct',
      'analysis',
    );
    expect(s.best_rival?.move).toBe('a1');
    expect(s.chosen?.visits).toBe(20);
  });
});

describe('what a kept search ran', () => {
  it('is the search’s own playouts, with the root’s N when the tree kept earlier moves’ visits', () => {
    // The tree ran 790,211 iterations over the game; this search ran 20,000 on a root that kept
    // 6,000 visits from the search before.
    const st = {
      ...stats(
        [
          ['b2', 20_000, 0.6],
          ['a1', 6_000, 0.4],
        ],
        790_211,
      ),
      root_visits: 26_000,
      search: { playouts: 20_000, elapsedMs: 400, engineMs: 390 },
    };
    const s = rootSummary(st, 'b2', 4, 'best', 'engine');
    expect([s.playouts, s.search_playouts]).toEqual([26_000, 20_000]);
    expect(behindLabel(s)).toBe('Search behind move 4 (b2), 20,000 playouts (root N 26,000 with the tree kept from earlier moves), best');
  });
  it('says when the kept tree had proven the position before any new playout', () => {
    const st = {
      ...stats([['a6', 75, 1]], 790_211),
      proven: 'win' as const,
      root_visits: 76,
      search: { playouts: 0, elapsedMs: 1, engineMs: 0 },
    };
    const s = rootSummary(st, 'a6', 12, 'best', 'engine');
    expect(behindLabel(s)).toBe(
      'Search behind move 12 (a6), proven without new playouts (root N 76 from the tree kept from earlier moves), best',
    );
  });
  it('counts an AlphaZero search’s evaluations (no playouts)', () => {
    expect(searchedText({ playouts: 200, search_playouts: 200, proven: null, leaf: 'value' })).toBe('200 evaluations');
    expect(searchedText({ playouts: 9, search_playouts: 0, proven: 'draw', leaf: 'value' })).toBe(
      'proven without new evaluations (root N 9 from the tree kept from earlier moves)',
    );
  });
  it('reads a record without the search’s own count as before', () => {
    expect(searchedText({ playouts: 5_000, proven: null })).toBe('5,000 playouts');
    expect(searchedText({ playouts: 5_000, search_playouts: 5_000, proven: null })).toBe('5,000 playouts');
  });
});

describe('the log', () => {
  it('finds the search behind move N of the same line only', () => {
    const log = addSearch(addSearch([], entry(['a1'], 'b2')), entry(['a1', 'b2', 'c3'], 'a2'));
    expect(searchBehind(log, 'hex:3', ['a1', 'b2'], 2)?.summary.move).toBe('b2');
    expect(searchBehind(log, 'hex:3', ['a1', 'b2', 'c3', 'a2'], 4)?.summary.move).toBe('a2');
    expect(searchBehind(log, 'hex:3', ['c1', 'b2'], 2)).toBeUndefined();
    expect(searchBehind(log, 'hex:4', ['a1', 'b2'], 2)).toBeUndefined();
    expect(searchBehind(log, 'hex:3', ['a1', 'c2'], 2)).toBeUndefined();
    expect(summariesOf(log, 'hex:3', ['a1', 'b2', 'c3', 'a2']).map((s) => s.ply)).toEqual([2, 4]);
  });
  it('replaces a search of the same move, keeps statistics for the newest KEEP_SEARCHES only', () => {
    let log = addSearch([], entry(['a1'], 'b2'));
    log = addSearch(log, entry(['a1'], 'b2'));
    expect(log.length).toBe(1);
    log = [];
    for (let i = 0; i < KEEP_SEARCHES + 5; i++) log = addSearch(log, entry([`x${i}`], 'b2'));
    expect(log.length).toBe(KEEP_SEARCHES + 5);
    expect(log.filter((e) => e.stats).length).toBe(KEEP_SEARCHES);
    expect(log[0]!.stats).toBeNull();
    expect(log[0]!.summary.move).toBe('b2');
    expect(log[5]!.stats).not.toBeNull();
  });
  it('keeps at most KEEP_SUMMARIES entries', () => {
    let log: readonly MoveSearch[] = [];
    const e = entry(['a1'], 'b2');
    for (let i = 0; i < KEEP_SUMMARIES + 3; i++) log = addSearch(log, { ...e, before: [`y${i}`] });
    expect(log.length).toBe(KEEP_SUMMARIES);
    expect(log[0]!.before).toEqual(['y3']);
  });
});

describe('archiveQuery and entryBytes', () => {
  it('bounds the kept tree at 4,000 nodes, 1/1500 of the playouts', () => {
    expect(archiveQuery(48_213)).toEqual({ minVisits: 32, topK: 512, depth: 40, maxNodes: 4000 });
    expect(archiveQuery(10).minVisits).toBe(1);
  });
  it('counts the JSON of the statistics and the typed arrays of the tree', () => {
    const e = entry(['a1'], 'b2');
    const base = entryBytes(e);
    expect(base).toBeGreaterThan(JSON.stringify(e.stats).length);
    const tree = { moves: ['a1'], bytes: 28_000 } as unknown as MoveSearch['tree'];
    expect(entryBytes({ ...e, tree })).toBe(base + 28_000 + JSON.stringify(['a1']).length);
  });
});
