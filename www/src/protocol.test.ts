import { describe, expect, it } from 'vitest';
import { LIMITS } from './generated/schema';
import { assertNever, type EngineParams, isVariations, parseRequest, parseResponse, type Variation } from './protocol';

const engine = { preset: 'uct', params: { seed: 1 } };
const tree = { minVisits: 1, topK: 8, depth: 4, maxNodes: 1000 };

describe('parseRequest (the worker checks every message from the page)', () => {
  it('accepts well-formed requests of every kind, unchanged', () => {
    const good = [
      { type: 'hello', id: 1 },
      { type: 'newGame', id: 2, spec: 'hex:7', moves: ['d4'] },
      { type: 'play', id: 3, move: 'c5' },
      { type: 'play', id: 3, move: 'c5', ply: 0 },
      { type: 'play', id: 3, move: 'c5', ply: 12 },
      { type: 'undo', id: 4 },
      { type: 'redo', id: 5 },
      { type: 'search', id: 6, slot: 'p0', engine, budget: { kind: 'playouts', value: 1000 }, progressMs: 200 },
      {
        type: 'search',
        id: 6,
        slot: 'cmp',
        engine,
        budget: { kind: 'playouts', value: 1000 },
        progressMs: 200,
        samples: { steps: 40, tree, treeEvery: 4 },
      },
      { type: 'stop', id: 7, target: 6 },
      { type: 'cancel', id: 8, target: 6 },
      { type: 'debugPanic', id: 9 },
      { type: 'inspect', id: 10, slot: 'p1', tree: null },
      { type: 'inspect', id: 11, slot: 'p1', tree },
      { type: 'arenaGame', id: 12, game: { spec: 'hex:5', a: engine, b: engine, iterations: 100, millis: null, seed: 1, index: 0 } },
      {
        type: 'arenaGame',
        id: 12,
        game: { spec: 'hex:5', a: engine, b: engine, iterations: 100, millis: null, seed: 1, index: 3, openings: true },
      },
      { type: 'arenaStandings', id: 13, records: [] },
      { type: 'stepNew', id: 14, spec: 'tictactoe', moves: [], engine, tree },
      { type: 'stepRun', id: 15, count: 10, tree },
      { type: 'parseRecord', id: 16, text: 'hex:7\nd4' },
      { type: 'writeRecord', id: 17, spec: 'hex:7', moves: ['d4'], format: 'sgf' },
      {
        type: 'writeRecord',
        id: 17,
        spec: 'hex:7',
        moves: ['d4', 'c5'],
        format: 'sgf',
        variations: [{ at: 1, moves: ['e3', 'c4'], variations: [{ at: 1, moves: ['b6'], variations: [] }] }],
      },
      { type: 'viewPosition', id: 24, spec: 'hex:7', moves: ['d4', 'c5'] },
      { type: 'loadNet', id: 18, bytes: new ArrayBuffer(8) },
      { type: 'loadNet', id: 19, bytes: new ArrayBuffer(8), name: 'my net' },
      { type: 'evaluate', id: 20, engine },
      { type: 'solve', id: 21, position: { spec: 'hex:5', moves: ['c3'] }, budgetMs: 10_000 },
      { type: 'solve', id: 22, position: { spec: 'hex:4', moves: [] }, budgetMs: 3_600_000, progressMs: 100 },
      { type: 'solveStop', id: 23, target: 21 },
    ];
    for (const m of good) expect(parseRequest(m)).toEqual({ ok: m });
  });
  it('checks the bytes of a net', () => {
    for (const bytes of [undefined, [1, 2, 3], 'MCTSNET', new Uint8Array(4)]) {
      expect(parseRequest({ type: 'loadNet', id: 18, bytes })).toEqual({
        err: "request 'loadNet': field 'bytes' is missing or malformed",
        id: 18,
      });
    }
    expect(parseRequest({ type: 'loadNet', id: 18, bytes: new ArrayBuffer(1), name: 7 })).toEqual({
      err: "request 'loadNet': field 'name' is missing or malformed",
      id: 18,
    });
  });
  it('checks the openings flag of an arena game (true, false or absent)', () => {
    const game = { spec: 'hex:3', a: engine, b: engine, iterations: 10, millis: null, seed: 1, index: 0 };
    for (const openings of ['all', 1, null])
      expect(parseRequest({ type: 'arenaGame', id: 12, game: { ...game, openings } })).toEqual({
        err: "request 'arenaGame': field 'game' is missing or malformed",
        id: 12,
      });
  });
  it('checks a solve request: the position, a budget of (0, 1 hour] and the progress interval', () => {
    const solve = { type: 'solve', id: 21, position: { spec: 'hex:5', moves: [] }, budgetMs: 1000 };
    const bad: [Record<string, unknown>, string][] = [
      [{ position: { spec: 'hex:5' } }, 'position'],
      [{ position: { spec: 5, moves: [] } }, 'position'],
      [{ position: 'hex:5' }, 'position'],
      [{ budgetMs: 0 }, 'budgetMs'],
      [{ budgetMs: -1 }, 'budgetMs'],
      [{ budgetMs: 3_600_001 }, 'budgetMs'],
      [{ budgetMs: Number.POSITIVE_INFINITY }, 'budgetMs'],
      [{ budgetMs: '1000' }, 'budgetMs'],
      [{ progressMs: -5 }, 'progressMs'],
    ];
    for (const [patch, field] of bad)
      expect(parseRequest({ ...solve, ...patch })).toEqual({ err: `request 'solve': field '${field}' is missing or malformed`, id: 21 });
    expect(parseRequest({ type: 'solveStop', id: 2, target: 0 })).toEqual({
      err: "request 'solveStop': field 'target' is missing or malformed",
      id: 2,
    });
  });
  it('checks the review requests: the game, its settings (an object) and a whole position index', () => {
    const settings = { preset: 'uct', iterations: 2000, ms: null, solve_ms: 1000, seed: 0 };
    const pos = { type: 'reviewPosition', id: 31, spec: 'hex:5', moves: ['c3'], settings, index: 1 };
    const rep = { type: 'reviewReport', id: 32, spec: 'hex:5', moves: ['c3'], settings, results: [{ index: 0 }] };
    expect(parseRequest(pos)).toEqual({ ok: pos });
    expect(parseRequest(rep)).toEqual({ ok: rep });
    const bad: [Record<string, unknown>, string][] = [
      [{ index: -1 }, 'index'],
      [{ index: 1.5 }, 'index'],
      [{ index: '1' }, 'index'],
      [{ settings: null }, 'settings'],
      [{ settings: [1] }, 'settings'],
      [{ moves: 'c3' }, 'moves'],
      [{ spec: 7 }, 'spec'],
    ];
    for (const [patch, field] of bad)
      expect(parseRequest({ ...pos, ...patch })).toEqual({
        err: `request 'reviewPosition': field '${field}' is missing or malformed`,
        id: 31,
      });
    expect(parseRequest({ ...rep, results: [1] })).toEqual({
      err: "request 'reviewReport': field 'results' is missing or malformed",
      id: 32,
    });
    const tooMany = Array.from({ length: LIMITS.MAX_REQUEST_MOVES + 1 }, () => 'a1');
    expect(parseRequest({ ...pos, moves: tooMany })).toEqual({
      err: `request 'reviewPosition': ${tooMany.length} moves; a request carries at most ${LIMITS.MAX_REQUEST_MOVES}`,
      id: 31,
    });
  });

  it('checks the review responses', () => {
    const result = { index: 0, board: '.', to_move: 0, value: 0.5, estimate: 0.5, exact: null, best_move: 'c3', pv: ['c3'] };
    expect(parseResponse({ type: 'reviewedPosition', id: 3, result })).toEqual({ ok: { type: 'reviewedPosition', id: 3, result } });
    expect(parseResponse({ type: 'reviewedPosition', id: 3, result: { ...result, pv: 'c3' } })).toEqual({
      err: "response 'reviewedPosition': field 'result' is missing or malformed",
      id: 3,
    });
    const report = { game: 'hex:5', moves: [], settings: {}, plies: [], summary: {} };
    expect(parseResponse({ type: 'reviewReport', id: 4, report })).toEqual({ ok: { type: 'reviewReport', id: 4, report } });
    expect(parseResponse({ type: 'reviewReport', id: 4, report: { ...report, plies: null } })).toEqual({
      err: "response 'reviewReport': field 'report' is missing or malformed",
      id: 4,
    });
  });

  it('checks the move judgement: the game, its settings and the move; the answer a ply', () => {
    const settings = { preset: 'uct', iterations: 2000, ms: null, solve_ms: 300, seed: 0 };
    const req = { type: 'judgeMove', id: 41, spec: 'tictactoe', moves: ['b2'], settings, move: 'a2' };
    expect(parseRequest(req)).toEqual({ ok: req });
    for (const [patch, field] of [
      [{ move: 7 }, 'move'],
      [{ settings: null }, 'settings'],
      [{ moves: 'b2' }, 'moves'],
    ] as [Record<string, unknown>, string][])
      expect(parseRequest({ ...req, ...patch })).toEqual({ err: `request 'judgeMove': field '${field}' is missing or malformed`, id: 41 });
    const ply = { ply: 1, move: 'a2', mover: 'o', loss: 0.5, class: 'blunder', label: 'drawn → lost', pv: ['a1'] };
    expect(parseResponse({ type: 'judgedMove', id: 5, ply })).toEqual({ ok: { type: 'judgedMove', id: 5, ply } });
    expect(parseResponse({ type: 'judgedMove', id: 5, ply: { ...ply, class: 1 } })).toEqual({
      err: "response 'judgedMove': field 'ply' is missing or malformed",
      id: 5,
    });
  });

  it('checks the ply a move was chosen at', () => {
    for (const ply of [-1, 1.5, '3', null, Number.NaN]) {
      expect(parseRequest({ type: 'play', id: 3, move: 'c5', ply })).toEqual({
        err: "request 'play': field 'ply' is missing or malformed",
        id: 3,
      });
    }
  });
  it('rejects what is not a request object, without an id', () => {
    expect(parseRequest('hello')).toEqual({ err: 'a request must be an object', id: null });
    expect(parseRequest(null)).toEqual({ err: 'a request must be an object', id: null });
    expect(parseRequest([1, 2])).toEqual({ err: 'a request must be an object', id: null });
    for (const id of [undefined, 0, -1, 1.5, '3'])
      expect(parseRequest({ type: 'hello', id })).toEqual({ err: 'a request needs a positive integer id', id: null });
  });
  it('rejects unknown types and malformed fields, naming them, with the id', () => {
    expect(parseRequest({ id: 7777, type: 'fly' })).toEqual({ err: 'unknown request type "fly"', id: 7777 });
    expect(parseRequest({ id: 5, type: 'toString' })).toEqual({ err: 'unknown request type "toString"', id: 5 });
    expect(parseRequest({ id: 7778, type: 'play' })).toEqual({ err: "request 'play': field 'move' is missing or malformed", id: 7778 });
    const search = { type: 'search', id: 9, slot: 'p0', engine, budget: { kind: 'playouts', value: 1000 }, progressMs: 200 };
    const bad: [Record<string, unknown>, string][] = [
      [{ budget: { kind: 'moves', value: 5 } }, 'budget'],
      [{ budget: { kind: 'millis', value: 0 } }, 'budget'],
      [{ budget: { kind: 'millis', value: Number.NaN } }, 'budget'],
      [{ engine: { preset: 'uct', params: { c: null } } }, 'engine'],
      [{ engine: { preset: 'uct', params: { c: [0.5] } } }, 'engine'],
      [{ engine: { preset: 'uct', params: { c: { value: 0.5 } } } }, 'engine'],
      [{ engine: { preset: 'uct' } }, 'engine'],
      [{ progressMs: -1 }, 'progressMs'],
      [{ slot: 3 }, 'slot'],
      [{ samples: { steps: 0, tree: null, treeEvery: 4 } }, 'samples'],
      [{ samples: { steps: 40, tree: null, treeEvery: 0.5 } }, 'samples'],
      [{ samples: { steps: 40, tree: { topK: 3 }, treeEvery: 4 } }, 'samples'],
      [{ samples: 40 }, 'samples'],
    ];
    for (const [patch, field] of bad)
      expect(parseRequest({ ...search, ...patch })).toEqual({ err: `request 'search': field '${field}' is missing or malformed`, id: 9 });
    expect(parseRequest({ type: 'stepRun', id: 2, count: 100_001, tree })).toEqual({
      err: "request 'stepRun': field 'count' is missing or malformed",
      id: 2,
    });
    expect(parseRequest({ type: 'writeRecord', id: 3, spec: 'hex:7', moves: [], format: 'pgn' })).toEqual({
      err: "request 'writeRecord': field 'format' is missing or malformed",
      id: 3,
    });
    expect(parseRequest({ type: 'newGame', id: 4, spec: 'hex:7', moves: ['d4', 5] })).toEqual({
      err: "request 'newGame': field 'moves' is missing or malformed",
      id: 4,
    });
  });

  // Parameters cross to the engine typed (`ParamValue`: number, boolean or an enum's name), and
  // the engine judges each value's type for its parameter; text values, the older form, pass too.
  it('engine parameters are typed values', () => {
    const typed: EngineParams = { c: 0.5, pool_k: 10, save_bridge: true, prior: 'patterns', seed: 7 };
    // @ts-expect-error a parameter's value is a number, a boolean or a name, never a list
    const list: EngineParams = { c: [0.5] };
    // @ts-expect-error only the engine's parameter names
    const unknown: EngineParams = { colour: 1 };
    expect([list, unknown]).toHaveLength(2);
    for (const params of [typed, { c: '0.5', seed: '7' }, { c: true }, {}]) {
      const req = {
        type: 'search',
        id: 9,
        slot: 'p0',
        engine: { preset: 'uct', params },
        budget: { kind: 'playouts', value: 10 },
        progressMs: 200,
      };
      expect(parseRequest(req)).toEqual({ ok: req });
    }
  });

  // The engine's request limits (Rust src/limits.rs, through generated/schema.ts), checked where
  // the worker decodes its requests. Before, only a Rust decoder that the worker never called
  // (`request::decode_request`) checked the number of moves and the snapshot size.
  it("refuses requests past the engine's size limits, in the engine's words", () => {
    const tree = { minVisits: 1, topK: 64, depth: 12, maxNodes: 5000 };
    const engine = { preset: 'uct', params: {} };
    const moves = (n: number) => Array.from({ length: n }, () => 'a1');
    for (const [req, id] of [
      [{ type: 'newGame', spec: 'hex:7', moves: moves(1_001) }, 1],
      [{ type: 'stepNew', spec: 'hex:7', moves: moves(1_001), engine, tree }, 2],
      [{ type: 'writeRecord', spec: 'hex:7', moves: moves(1_001), format: 'moves' }, 3],
    ] as const)
      expect(parseRequest({ ...req, id })).toEqual({ err: `request '${req.type}': 1001 moves; a request carries at most 1000`, id });
    // A million moves are refused as fast, without reading them.
    expect(parseRequest({ type: 'newGame', id: 4, spec: 'hex:7', moves: moves(1_000_000) })).toEqual({
      err: "request 'newGame': 1000000 moves; a request carries at most 1000",
      id: 4,
    });
    expect(parseRequest({ type: 'newGame', id: 5, spec: 'hex:7', moves: moves(LIMITS.MAX_REQUEST_MOVES) })).toHaveProperty('ok');
    expect(parseRequest({ type: 'inspect', id: 6, slot: 'p0', tree: { ...tree, maxNodes: 1e7 } })).toEqual({
      err: "request 'inspect': tree.maxNodes = 10000000 is out of range [0, 1000000]",
      id: 6,
    });
    expect(parseRequest({ type: 'inspect', id: 7, slot: 'p0', tree: { ...tree, maxNodes: LIMITS.MAX_SNAPSHOT_NODES } })).toHaveProperty(
      'ok',
    );
    expect(parseRequest({ type: 'stepRun', id: 8, count: LIMITS.MAX_STEP_ITERATIONS, tree })).toHaveProperty('ok');
    const search = { type: 'search', id: 9, slot: 'p0', engine, progressMs: 100 };
    expect(parseRequest({ ...search, budget: { kind: 'millis', value: 1e300 } })).toEqual({
      err: "request 'search': budget.value = 1e+300 is out of range (0, 2^53-1]",
      id: 9,
    });
    expect(parseRequest({ ...search, budget: { kind: 'playouts', value: LIMITS.MAX_BUDGET } })).toHaveProperty('ok');
  });

  // What the Rust `decode_request` property test and fuzz target did for a decoder the worker
  // never used, done for the one it uses: any value is a request or a sentence, never a throw.
  it('answers any value with a request or a sentence, never a throw', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const atoms = [
      null,
      undefined,
      0,
      -1,
      1,
      1.5,
      Number.POSITIVE_INFINITY,
      Number.NaN,
      '',
      'a1',
      'hex:7',
      true,
      [],
      {},
      new ArrayBuffer(2),
    ];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 2 || r < 0.5) return pick(atoms);
      if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 4) }, () => [pick(FIELDS), value(depth + 1)]));
    };
    const FIELDS = [
      'type',
      'id',
      'moves',
      'tree',
      'maxNodes',
      'engine',
      'preset',
      'params',
      'budget',
      'kind',
      'value',
      'count',
      'target',
      '__proto__',
    ];
    const TYPES = ['hello', 'newGame', 'play', 'search', 'stepNew', 'stepRun', 'inspect', 'arenaGame', 'writeRecord', 'solve', 'fly'];
    for (let i = 0; i < 5_000; i++) {
      const req: Record<string, unknown> = { type: pick(TYPES), id: pick([1, 2, 0, 'x', 2 ** 53]) };
      for (let k = Math.floor(rnd() * 6); k > 0; k--) req[pick(FIELDS)] = value(0);
      const r = parseRequest(req);
      if ('err' in r) expect(typeof r.err).toBe('string');
      else expect(r.ok).toBe(req);
    }
  });
});

describe('parseResponse (the page checks every message from the worker)', () => {
  const solveReport = {
    rootWins: null,
    winningMove: null,
    toMove: 1,
    moves: [
      { move: 'a1', moverWins: null },
      { move: 'b2', moverWins: true },
      { move: 'c3', moverWins: false },
    ],
    stats: { midCalls: 10, expansions: 8, terminal: 2, ttUsed: 8, ttReplaced: 0 },
    ms: 12.5,
    ttBytes: 67108864,
    continued: false,
  };
  const snapshot = { view: { spec: 'hex:7' }, legal: ['a1'], moves: [], redo: [], outcome: null };
  it('accepts well-formed responses', () => {
    const good = [
      { type: 'hello', id: 1, version: '0.1.0', presets: ['uct'], specs: ['hex:7'] },
      { type: 'state', id: 2, snapshot },
      { type: 'progress', id: 3, progress: { playouts: 10, elapsedMs: 5, pv: ['a1'] } },
      { type: 'searchDone', id: 3, result: { playouts: 10, elapsedMs: 5, pv: [], move: 'a1', end: 'budget' }, stats: {} },
      { type: 'cancelled', id: 3 },
      { type: 'ack', id: 4 },
      { type: 'error', id: null, message: 'a request must be an object' },
      { type: 'fatal', id: null, message: 'engine panicked: boom' },
      { type: 'inspection', id: 5, stats: null, tree: null },
      { type: 'inspection', id: 5, stats: {}, tree: { count: 1, parent: new Int32Array([-1]), moves: [] } },
      { type: 'sample', id: 5, step: 4, stats: {}, tree: { count: 1, parent: new Int32Array([-1]), moves: [] } },
      { type: 'sample', id: 5, step: 5, stats: {}, tree: null },
      { type: 'recordText', id: 6, text: '(;GM[11])' },
      { type: 'record', id: 7, record: { spec: 'hex:7', moves: ['d4'], notes: [] } },
      {
        type: 'record',
        id: 7,
        record: { spec: 'hex:7', moves: ['d4'], notes: [], variations: [{ at: 0, moves: ['a1'], variations: [] }] },
      },
      {
        type: 'hello',
        id: 1,
        version: '0.1.0',
        presets: ['uct'],
        specs: [],
        netPresets: ['alphazero'],
        nets: [{ spec: 'tictactoe', file: 'tictactoe.mctsnet' }],
      },
      {
        type: 'netLoaded',
        id: 8,
        net: { spec: 'tictactoe', name: 'mine', source: 'user', parameters: 20234, layers: [18, 9], bytes: 80983, trunk: 'mlp' },
      },
      {
        type: 'netLoaded',
        id: 11,
        net: {
          spec: 'hex:7',
          name: 'conv',
          source: 'user',
          parameters: 53348,
          layers: [98, 1568, 1568, 49],
          bytes: 213458,
          trunk: 'conv',
          channels: 32,
          blocks: 1,
          value_hidden: 64,
        },
      },
      { type: 'evaluation', id: 9, evaluation: { evaluator: 'net', priors: [{ move: 'b2', index: 4, p: 1 }], value: 0.5, net: null } },
      { type: 'solveProgress', id: 10, ...solveReport },
      { type: 'solveDone', id: 10, result: 'proven', ...solveReport, rootWins: true, winningMove: 'b2' },
    ];
    for (const m of good) expect(parseResponse(m)).toEqual({ ok: m });
  });
  it("carries a search's report (`mcts search --json`) in searchDone and merged, and checks it", () => {
    const result = { playouts: 10, elapsedMs: 5, pv: ['a1'], move: 'a1', end: 'budget' };
    const report = { game: 'hex:5', best_move: 'a1', pv: ['a1'], iterations: 10, children: [{ move: 'a1', visits: 10 }], policy: {} };
    const withReport = { type: 'searchDone', id: 3, result, stats: {}, report };
    expect(parseResponse(withReport)).toEqual({ ok: withReport });
    const merged = { type: 'merged', id: 4, stats: {}, report: { ...report, threads: 2, workers: [] } };
    expect(parseResponse(merged)).toEqual({ ok: merged });
    // Without it (an older worker): still a searchDone.
    expect(parseResponse({ type: 'searchDone', id: 3, result, stats: {} })).toEqual({
      ok: { type: 'searchDone', id: 3, result, stats: {} },
    });
    for (const bad of [null, 'report', [], { ...report, children: 'a1' }, { ...report, iterations: -1 }, { pv: [] }])
      expect(parseResponse({ ...withReport, report: bad })).toEqual({
        err: "response 'searchDone': field 'report' is missing or malformed",
        id: 3,
      });
  });
  it('checks the solver reports', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ rootWins: 'yes' }, 'rootWins'],
      [{ winningMove: 3 }, 'winningMove'],
      [{ toMove: 2 }, 'toMove'],
      [{ moves: [{ move: 'a1', moverWins: 'win' }] }, 'moves'],
      [{ moves: [{ moverWins: true }] }, 'moves'],
      [{ stats: { ...solveReport.stats, midCalls: -1 } }, 'stats'],
      [{ stats: { midCalls: 1 } }, 'stats'],
      [{ ms: Number.NaN }, 'ms'],
      [{ continued: undefined }, 'continued'],
    ];
    for (const [patch, field] of bad)
      expect(parseResponse({ type: 'solveProgress', id: 10, ...solveReport, ...patch })).toEqual({
        err: `response 'solveProgress': field '${field}' is missing or malformed`,
        id: 10,
      });
    expect(parseResponse({ type: 'solveDone', id: 10, ...solveReport, result: 'draw' })).toEqual({
      err: "response 'solveDone': field 'result' is missing or malformed",
      id: 10,
    });
  });
  it('rejects unknown types, missing ids and malformed fields', () => {
    expect(parseResponse(42)).toEqual({ err: 'a response must be an object', id: null });
    expect(parseResponse({ type: 'teleport', id: 3 })).toEqual({ err: 'unknown response type "teleport"', id: 3 });
    expect(parseResponse({ type: 'state', id: null, snapshot })).toEqual({ err: "response 'state' needs a positive integer id", id: null });
    expect(parseResponse({ type: 'ack' })).toEqual({ err: "response 'ack' needs a positive integer id", id: null });
    expect(parseResponse({ type: 'state', id: 2, snapshot: { ...snapshot, legal: 'a1' } })).toEqual({
      err: "response 'state': field 'snapshot' is missing or malformed",
      id: 2,
    });
    expect(parseResponse({ type: 'error', id: 8 })).toEqual({ err: "response 'error': field 'message' is missing or malformed", id: 8 });
    expect(parseResponse({ type: 'inspection', id: 5, stats: null, tree: { count: 1, parent: [-1], moves: [] } })).toEqual({
      err: "response 'inspection': field 'tree' is missing or malformed",
      id: 5,
    });
  });
});

describe('assertNever', () => {
  it('throws with the message it was given', () => {
    expect(() => assertNever({ type: 'x' } as never)).toThrow('unhandled message: {"type":"x"}');
  });
});

describe('isVariations (the variations of writeRecord and record, Rust record::Variation)', () => {
  /** A chain of `depth` variations, each inside the one before. */
  const chain = (depth: number): Variation[] => {
    let v: Variation[] = [];
    for (let i = 0; i < depth; i++) v = [{ at: 1, moves: ['a1', 'b1'], variations: v }];
    return v;
  };
  it('accepts the shape, nested up to the engine’s limit; a missing inner list is none', () => {
    expect(isVariations([])).toBe(true);
    expect(isVariations([{ at: 0, moves: ['a1'] }])).toBe(true);
    expect(isVariations(chain(LIMITS.MAX_VARIATION_DEPTH))).toBe(true);
  });
  it('refuses any other shape, and a deeper nesting without walking it all', () => {
    for (const bad of [
      null,
      {},
      [null],
      [{ moves: ['a1'] }],
      [{ at: -1, moves: ['a1'] }],
      [{ at: 1.5, moves: ['a1'] }],
      [{ at: '1', moves: ['a1'] }],
      [{ at: 0, moves: [] }],
      [{ at: 0, moves: [3] }],
      [{ at: 0, moves: ['a1'], variations: {} }],
      [{ at: 0, moves: ['a1'], variations: [{ at: 0 }] }],
      chain(LIMITS.MAX_VARIATION_DEPTH + 1),
    ])
      expect(isVariations(bad), JSON.stringify(bad)?.slice(0, 60)).toBe(false);
  });
  it('is checked on writeRecord requests and record responses', () => {
    const req = { type: 'writeRecord', id: 3, spec: 'hex:7', moves: ['d4'], format: 'sgf' };
    expect(parseRequest({ ...req, variations: [{ at: 1, moves: ['a1'] }] })).toHaveProperty('ok');
    expect(parseRequest({ ...req, variations: chain(LIMITS.MAX_VARIATION_DEPTH + 1) })).toEqual({
      err: "request 'writeRecord': field 'variations' is missing or malformed",
      id: 3,
    });
    expect(parseResponse({ type: 'record', id: 7, record: { spec: 'hex:7', moves: [], notes: [], variations: [{ at: 0 }] } })).toEqual({
      err: "response 'record': field 'record' is missing or malformed",
      id: 7,
    });
  });
});
