import { describe, expect, it } from 'vitest';
import type { CompareSettings, RootSummary } from '../state';
import type { SideSettings } from '../types';
import { PARAMS, PARAM_NAMES } from '../generated/schema';
import { PANE_PARAMS } from '../lib/pane-params';
import {
  checkCompare,
  compareRunLink,
  formatCompare,
  paneSeeds,
  formatMoves,
  formatOverlays,
  formatPane,
  formatParam,
  formatReviewLink,
  formatSearches,
  formatSides,
  paneParamValues,
  paramFromText,
  parseCompare,
  parseOverlays,
  parsePane,
  parseReviewLink,
  parseSearches,
  parseSides,
  positiveInt,
  queryString,
  splitMoves,
} from './url';

const PRESETS = ['uct', 'rave', 'grave', 'best'];
const side = (who: SideSettings['who'], preset: string, budgetKind: SideSettings['budgetKind'], budgetValue: number): SideSettings => ({
  who,
  preset,
  budgetKind,
  budgetValue,
});
const DEFAULT: [SideSettings, SideSettings] = [side('person', 'best', 'millis', 1000), side('engine', 'best', 'millis', 1000)];

/** Writes the sides into a query, through its text, and reads them back over `base`. */
function roundTrip(sides: [SideSettings, SideSettings], base = DEFAULT) {
  const q = new URLSearchParams();
  formatSides(q, sides);
  const text = queryString(q);
  return { text, ...parseSides(new URLSearchParams(text), PRESETS, base) };
}

// Parameter text (a URL's, a form's, `--set key=value`) becomes a typed value once, here, by the
// parameter's type in the generated schema, as the engine reads text (Rust `parse_param`).
describe('parameter text → typed value', () => {
  it('reads each type as the engine does', () => {
    expect(paramFromText('c', ' 0.7 ')).toEqual({ value: 0.7 });
    expect(paramFromText('c', '1e-3')).toEqual({ value: 0.001 });
    expect(paramFromText('rave_k', '500')).toEqual({ value: 500 });
    expect(paramFromText('pool_k', '8')).toEqual({ value: 8 });
    expect(paramFromText('seed', '18446744073709551615')).toEqual({ value: '18446744073709551615' });
    expect(paramFromText('save_bridge', 'true')).toEqual({ value: true });
    expect(paramFromText('solver', 'false')).toEqual({ value: false });
    expect(paramFromText('prior', 'Patterns')).toEqual({ value: 'patterns' });
    expect(paramFromText('lgr', 'lgrf2')).toEqual({ value: 'lgrf2' });
  });

  it('bad text gets what the parameter takes', () => {
    expect(paramFromText('c', 'wide')).toEqual({ error: 'a number' });
    for (const bad of ['', '0x10', 'Infinity', '1e999', '1,5']) expect(paramFromText('c', bad)).toEqual({ error: 'a number' });
    for (const bad of ['2.5', '-1', '1e3', 'ten']) expect(paramFromText('pool_k', bad)).toEqual({ error: 'a whole number' });
    for (const bad of ['yes', '1', 'TRUE']) expect(paramFromText('save_bridge', bad)).toEqual({ error: 'true or false' });
    expect(paramFromText('selection', 'minimax')).toEqual({ error: 'one of uct, puct' });
  });

  it('every parameter’s default, written as text, reads back to itself', () => {
    for (const k of PARAM_NAMES) {
      const d = PARAMS[k].default;
      expect(paramFromText(k, formatParam(d)), k).toEqual({ value: d });
      expect(typeof d, k).toBe({ number: 'number', integer: 'number', boolean: 'boolean', enum: 'string' }[PARAMS[k].type]);
    }
  });

  it('a pane’s fields become typed engine parameters', () => {
    expect(
      paneParamValues({ c: '0.5', pool_k: ' 12', save_bridge: 'false', prior: 'tactical', rave_k: '' }, [
        'c',
        'pool_k',
        'save_bridge',
        'prior',
        'rave_k',
      ]),
    ).toEqual({
      c: 0.5,
      pool_k: 12,
      save_bridge: false,
      prior: 'tactical',
    });
    expect(() => paneParamValues({ save_bridge: 'yes' }, ['save_bridge'])).toThrow('save_bridge=yes: expected true or false');
  });
});

describe('moves', () => {
  it('split on spaces, commas and + and join back with spaces', () => {
    expect(splitMoves('d4 c5,e3+f2  ,')).toEqual(['d4', 'c5', 'e3', 'f2']);
    expect(splitMoves(null)).toEqual([]);
    expect(splitMoves('')).toEqual([]);
    const moves = ['a1-TL-cw', 'swap', 'b2'];
    expect(splitMoves(formatMoves(moves))).toEqual(moves);
    // Through a real query string: a space travels as '+'.
    const q = new URLSearchParams({ moves: formatMoves(moves) });
    expect(q.toString()).toBe('moves=a1-TL-cw+swap+b2');
    expect(splitMoves(new URLSearchParams(q.toString()).get('moves'))).toEqual(moves);
  });
});

describe('sides', () => {
  it('write one preset and budget when the sides agree, and read them back', () => {
    const sides: [SideSettings, SideSettings] = [side('engine', 'rave', 'playouts', 5000), side('person', 'rave', 'playouts', 5000)];
    const r = roundTrip(sides);
    expect(r.text).toBe('p0=engine&p1=person&preset=rave&playouts=5000');
    expect(r.sides).toEqual(sides);
    expect(r.errors).toEqual([]);
  });
  it('write per-side parameters when the sides differ, and read them back', () => {
    const sides: [SideSettings, SideSettings] = [side('engine', 'uct', 'millis', 250), side('engine', 'grave', 'playouts', 20000)];
    const r = roundTrip(sides);
    expect(r.text).toBe('p0=engine&p1=engine&preset0=uct&preset1=grave&ms0=250&playouts1=20000');
    expect(r.sides).toEqual(sides);
    expect(r.errors).toEqual([]);
  });
  it('let a side’s own parameter win over the shared one', () => {
    const r = parseSides(new URLSearchParams('preset=rave&preset1=uct&ms=300&playouts0=99'), PRESETS, DEFAULT);
    expect(r.sides[0]).toEqual(side('person', 'rave', 'playouts', 99));
    expect(r.sides[1]).toEqual(side('engine', 'uct', 'millis', 300));
  });
  it('keep what the page had for values it does not understand, and say so once', () => {
    const r = parseSides(new URLSearchParams('p0=robot&preset=chess&ms=-5&playouts1=1.5'), PRESETS, DEFAULT);
    expect(r.sides).toEqual(DEFAULT);
    expect(r.errors).toEqual([
      'p0=robot: expected person or engine',
      'preset=chess: unknown preset (expected one of uct, rave, grave, best)',
      'ms=-5 is not a positive whole number',
      'playouts1=1.5 is not a positive whole number',
    ]);
  });
  it('do not change the base it reads over', () => {
    const base: [SideSettings, SideSettings] = [{ ...DEFAULT[0] }, { ...DEFAULT[1] }];
    parseSides(new URLSearchParams('p0=engine&preset=uct'), PRESETS, base);
    expect(base).toEqual(DEFAULT);
  });
});

describe('compare panes', () => {
  it('round-trip through their text', () => {
    const fields = { preset: 'rave', c: '0.7', rave_k: '500', budget: '20000' };
    const text = formatPane(fields);
    expect(text).toBe('preset:rave,c:0.7,rave_k:500,budget:20000');
    expect(parsePane(text)).toEqual({ fields, errors: [] });
  });
  it('report unknown fields and non-numbers', () => {
    const r = parsePane('preset:uct,colour:red,c:wide,lgr_p:0.5');
    expect(r.fields).toEqual({ preset: 'uct', lgr_p: '0.5' });
    expect(r.errors).toEqual([
      "unknown pane field 'colour' (expected preset, c, rave_k, lgr_p, pool_k, save_bridge, prior, progressive_bias, knowledge, knowledge_threshold, expand_threshold, budget)",
      'c=wide: the exploration constant c must be a number from 0 to 100',
    ]);
  });
});

describe('the save-bridge pane switch', () => {
  it('reads true or false, round-trips, and names anything else', () => {
    const fields = { preset: 'best', save_bridge: 'true', budget: '5000' };
    expect(formatPane(fields)).toBe('preset:best,save_bridge:true,budget:5000');
    expect(parsePane('preset:best,save_bridge:true,budget:5000')).toEqual({ fields, errors: [] });
    expect(parsePane('save_bridge:false')).toEqual({ fields: { save_bridge: 'false' }, errors: [] });
    for (const bad of ['yes', '1', 'on', '']) {
      expect(parsePane(`save_bridge:${bad}`)).toEqual({
        fields: {},
        errors: [`save_bridge=${bad}: save-bridge playouts (Hex) must be true or false`],
      });
    }
  });
});

describe('the prior and progressive-bias pane fields', () => {
  it('read the engine’s prior names and c_pb in [0, 100], round-trip, and name anything else', () => {
    const fields = { preset: 'rave', prior: 'patterns', progressive_bias: '2.47' };
    expect(formatPane(fields)).toBe('preset:rave,prior:patterns,progressive_bias:2.47');
    expect(parsePane('preset:rave,prior:patterns,progressive_bias:2.47')).toEqual({ fields, errors: [] });
    expect(parsePane('prior:pattern,progressive_bias:101')).toEqual({
      fields: {},
      errors: [
        "prior=pattern: the tree's prior must be one of uniform, tactical, net, patterns",
        "progressive_bias=101: c_pb of MoHex's progressive bias must be a number from 0 to 100",
      ],
    });
  });
});

describe('the Hex knowledge and expansion pane fields', () => {
  it('read knowledge true/false and the two thresholds as whole visits in [1, 1e9], round-trip through the URL, and name anything else', () => {
    const fields = { preset: 'rave', knowledge: 'true', knowledge_threshold: '64', expand_threshold: '10' };
    const text = 'preset:rave,knowledge:true,knowledge_threshold:64,expand_threshold:10';
    expect(formatPane(fields)).toBe(text);
    expect(parsePane(text)).toEqual({ fields, errors: [] });
    expect(parsePane('knowledge:false')).toEqual({ fields: { knowledge: 'false' }, errors: [] });
    // The whole query, as Copy link writes it and a reload reads it.
    const form: CompareSettings = {
      game: 'hex:7',
      moves: 'd4 c5',
      mode: 'playouts',
      budget: '3000',
      seed: '3',
      panes: [{ preset: 'rave' }, { ...fields, save_bridge: '', prior: '', budget: '' }],
    };
    const q = new URLSearchParams();
    formatCompare(q, form);
    expect(queryString(q)).toBe(
      `cmpgame=hex:7&cmpmoves=d4+c5&cmpmode=playouts&cmpbudget=3000&cmpseed=3&panes=2&pane1=preset:rave&pane2=${text}`,
    );
    const back = parseCompare(new URLSearchParams(queryString(q)), ['uct', 'rave', 'mohex'], { ...form, panes: [{}, {}] });
    expect(back.errors).toEqual([]);
    expect(back.compare.panes).toEqual([{ preset: 'rave' }, fields]);
    // And as the pane's engine parameters: typed, as `mcts search --set knowledge=true ...`.
    expect(paneParamValues(fields, ['knowledge', 'knowledge_threshold', 'expand_threshold'])).toEqual({
      knowledge: true,
      knowledge_threshold: 64,
      expand_threshold: 10,
    });
    // Bad values: the same sentences as the other fields, from the engine's schema.
    expect(parsePane('knowledge:yes,knowledge_threshold:0,expand_threshold:abc')).toEqual({
      fields: {},
      errors: [
        'knowledge=yes: Hex knowledge in the tree must be true or false',
        "knowledge_threshold=0: the visits before a node's children are cut by Hex knowledge must be a whole number from 1 to 1,000,000,000",
        'expand_threshold=abc: the visits before a node gets children must be a whole number from 1 to 1,000,000,000',
      ],
    });
    for (const bad of ['2.5', '-3', '1000000001', '1e3'])
      expect(parsePane(`expand_threshold:${bad}`).errors).toEqual([
        `expand_threshold=${bad}: the visits before a node gets children must be a whole number from 1 to 1,000,000,000`,
      ]);
    // The form says the same before a run, naming the pane.
    expect(checkCompare({ ...form, panes: [{ preset: 'rave', knowledge_threshold: '0' }, { expand_threshold: 'abc' }] }, ['rave'])).toEqual(
      [
        "pane 1: knowledge_threshold=0: the visits before a node's children are cut by Hex knowledge must be a whole number from 1 to 1,000,000,000",
        'pane 2: expand_threshold=abc: the visits before a node gets children must be a whole number from 1 to 1,000,000,000',
      ],
    );
  });
  it('every numeric pane parameter has a range in the engine’s schema (the fields’ checks read it)', () => {
    for (const k of PANE_PARAMS) {
      const p = PARAMS[k];
      if (p.type === 'number' || p.type === 'integer') expect(p.range, k).not.toBeNull();
    }
  });
});

describe('positiveInt', () => {
  it('accepts whole numbers from 1 and names the parameter otherwise', () => {
    expect(positiveInt('ms', '250')).toEqual({ value: 250 });
    expect(positiveInt('ms', ' 7 ')).toEqual({ value: 7 });
    for (const bad of ['0', '-1', '1.5', '1e3', 'abc', '', '99999999999999999999'])
      expect(positiveInt('ms', bad)).toEqual({ error: `ms=${bad} is not a positive whole number` });
  });
});

describe('overlays', () => {
  it('round-trip in their canonical order, none as “none”', () => {
    expect(formatOverlays(['pv', 'visits', 'q'])).toBe('visits,q,pv');
    expect(parseOverlays('visits,q,pv')).toEqual({ overlays: ['visits', 'q', 'pv'], errors: [] });
    expect(formatOverlays([])).toBe('none');
    expect(parseOverlays('none')).toEqual({ overlays: [], errors: [] });
    for (const on of [['amaf'], ['visits', 'q', 'amaf', 'proven', 'pv', 'prior'], ['proven', 'pv'], ['prior']] as const)
      expect(parseOverlays(formatOverlays(on)).overlays).toEqual([...on]);
  });
  it('report unknown names and keep the known ones', () => {
    expect(parseOverlays(' q , heat,pv')).toEqual({
      overlays: ['q', 'pv'],
      errors: ["overlays: unknown overlay 'heat' (expected visits, q, amaf, proven, pv, prior, exact or none)"],
    });
  });
});

describe('compare form', () => {
  const BASE: CompareSettings = {
    game: 'hex:7',
    moves: '',
    mode: 'playouts',
    budget: '50000',
    seed: '1',
    panes: [
      { preset: 'uct', c: '', rave_k: '', lgr_p: '', pool_k: '', budget: '' },
      { preset: 'rave', c: '', rave_k: '', lgr_p: '', pool_k: '', budget: '' },
    ],
  };
  it('round-trips through the query (blank fields left out)', () => {
    const form: CompareSettings = {
      game: 'tictactoe',
      moves: 'b2 a1',
      mode: 'millis',
      budget: '20000',
      seed: '7',
      panes: [
        { preset: 'uct', c: '0.1', rave_k: '', lgr_p: '', pool_k: '', budget: '' },
        { preset: 'rave', c: '', rave_k: '500', lgr_p: '', pool_k: '', budget: '9000' },
        { preset: 'grave', c: '3', rave_k: '', lgr_p: '', pool_k: '', budget: '' },
      ],
    };
    const q = new URLSearchParams();
    formatCompare(q, form);
    expect(queryString(q)).toBe(
      'cmpgame=tictactoe&cmpmoves=b2+a1&cmpmode=ms&cmpbudget=20000&cmpseed=7&panes=3&pane1=preset:uct,c:0.1&pane2=preset:rave,rave_k:500,budget:9000&pane3=preset:grave,c:3',
    );
    const back = parseCompare(new URLSearchParams(queryString(q)), PRESETS, BASE);
    expect(back.errors).toEqual([]);
    expect(back.compare.game).toBe('tictactoe');
    expect(back.compare.moves).toBe('b2 a1');
    expect(back.compare.mode).toBe('millis');
    expect(back.compare.run).toBeUndefined();
    expect([back.compare.budget, back.compare.seed]).toEqual(['20000', '7']);
    expect(back.compare.panes).toEqual([
      { preset: 'uct', c: '0.1', rave_k: '', lgr_p: '', pool_k: '', budget: '' },
      { preset: 'rave', c: '', rave_k: '500', lgr_p: '', pool_k: '', budget: '9000' },
      { preset: 'grave', c: '3' },
    ]);
  });
  it('keeps the form for values it does not understand, and says why', () => {
    const r = parseCompare(new URLSearchParams('panes=5&cmpbudget=lots&pane1=preset:chess,c:0.3&pane3=c:1'), PRESETS, BASE);
    expect(r.errors).toEqual([
      'panes=5: expected 2, 3 or 4',
      'cmpbudget=lots: expected a whole number from 100 to 100,000,000 (playouts)',
      "pane1: unknown preset 'chess' (expected one of uct, rave, grave, best)",
      'pane3: there are only 2 panes (set panes=3 to use it)',
    ]);
    expect(r.compare.panes).toHaveLength(2);
    expect(r.compare.panes[0]).toEqual({ ...BASE.panes[0], c: '0.3' });
    expect(r.compare.budget).toBe('50000');
    expect(BASE.panes[0]!.c).toBe('');
  });
  it('names absurd budgets, seeds and pane values, with the same sentence as the form', () => {
    const r = parseCompare(
      new URLSearchParams('cmpbudget=99999999999999999999&cmpseed=-1&cmpmode=fast&pane1=c:1e9,lgr_p:2,pool_k:0.5,budget:5&cmprun=yes'),
      PRESETS,
      BASE,
    );
    expect(r.errors).toEqual([
      'cmpmode=fast: expected playouts (equal playouts) or ms (equal time)',
      'cmpbudget=99999999999999999999: expected a whole number from 100 to 100,000,000 (playouts)',
      'cmpseed=-1: expected a whole number from 0 to 1,000,000,000,000,000',
      'cmprun=yes: expected 1',
      'pane1: c=1e9: the exploration constant c must be a number from 0 to 100',
      'pane1: lgr_p=2: the LGR reply probability p must be a number from 0 to 1',
      'pane1: pool_k=0.5: the PoolRAVE pool size must be a whole number from 1 to 400',
      'pane1: budget=5: expected a whole number from 100 to 100,000,000 (playouts)',
    ]);
    expect(r.compare).toEqual(BASE);
    expect(checkCompare({ ...BASE, budget: '5' }, PRESETS)).toEqual([
      'playouts=5: expected a whole number from 100 to 100,000,000 (playouts)',
    ]);
    expect(checkCompare({ ...BASE, mode: 'millis', budget: '1000' }, PRESETS)).toEqual([]);
  });
  it('reads and writes the seeds per pane (cmpseeds=8; one, the default, is not written) and names other counts', () => {
    const r = parseCompare(new URLSearchParams('cmpseeds=8&cmpseed=5'), PRESETS, BASE);
    expect(r.errors).toEqual([]);
    expect(r.compare.seeds).toBe('8');
    const q = new URLSearchParams();
    formatCompare(q, r.compare);
    expect(q.get('cmpseeds')).toBe('8');
    const one = new URLSearchParams();
    formatCompare(one, { ...r.compare, seeds: '1' });
    expect(one.has('cmpseeds')).toBe(false);
    expect(parseCompare(new URLSearchParams('cmpseeds=3'), PRESETS, BASE).errors).toEqual(['cmpseeds=3: expected 1 or 8 (seeds per pane)']);
    expect(checkCompare({ ...BASE, seeds: '3' }, PRESETS)).toEqual(['seeds 3: expected 1 or 8']);
    expect(paneSeeds(5, 8)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(paneSeeds(1e15, 2)).toEqual([1e15, 0]);
  });
  it('reads equal time and a run flag, and a link that runs', () => {
    const r = parseCompare(new URLSearchParams('cmpmode=ms&cmpbudget=2000&cmprun=1&pane2=budget:500'), PRESETS, BASE);
    expect(r.errors).toEqual([]);
    expect([r.compare.mode, r.compare.budget, r.compare.run, r.compare.panes[1]!.budget]).toEqual(['millis', '2000', true, '500']);
    expect(compareRunLink('http://x/sub/?view=compare&cmpgame=hex:7#compare')).toBe(
      'http://x/sub/?view=compare&cmpgame=hex:7&cmprun=1#compare',
    );
  });
});

describe('searches= (the root statistics of the searches behind moves)', () => {
  const moves = ['d4', 'c5', 'e3', 'swap'];
  const engine: RootSummary = {
    ply: 2,
    move: 'c5',
    player: 1,
    source: 'engine',
    preset: 'puct-net',
    playouts: 6120,
    search_playouts: 5000,
    leaf: 'value',
    chosen: { move: 'c5', visits: 3120, win_rate: 0.6123, proven: null },
    best_rival: { move: 'd5-BR-cw', visits: 800, win_rate: 0.0001, proven: 'loss' },
    proven: 'win',
  };
  const analysis: RootSummary = {
    ply: 3,
    move: 'e3',
    player: 0,
    source: 'analysis',
    preset: 'rave',
    playouts: 2000,
    chosen: null,
    best_rival: null,
    proven: null,
  };

  it('round-trips every figure of the game record', () => {
    const text = formatSearches([engine, analysis]);
    expect(text).toBe('2:e:puct-net:6120:5000:v:3120_0.6123_:d5-BR-cw_800_0.0001_l:w,3:a:rave:2000:::::');
    expect(parseSearches(text, moves)).toEqual({ summaries: [engine, analysis], errors: [] });
  });

  it('survives the query string the page writes', () => {
    const q = new URLSearchParams();
    q.set('searches', formatSearches([engine, analysis]));
    const back = new URLSearchParams(queryString(q));
    expect(parseSearches(back.get('searches')!, moves).summaries).toEqual([engine, analysis]);
  });

  it('leaves out entries that do not read or name no move of the game, and says so', () => {
    const good = formatSearches([analysis]);
    const r = parseSearches(`9:e:uct:10:::::,${good},2:x:uct:10:::::,3:e:uct:10:::::,2:e:uct:10:::1_2_::`, moves);
    expect(r.summaries).toEqual([analysis]);
    expect(r.errors).toEqual(["searches: entries 1, 3, 4 … do not read as a move's search of this game (left out)"]);
  });
});

describe('review= (the game review a link reproduces)', () => {
  const q = (s: string) => new URLSearchParams(s);
  const settings = { preset: 'best', iterations: 2000, ms: null, solve_ms: 1000, seed: 0 };
  it('reads review=1 with its budget and seed; none without review=1', () => {
    expect(parseReviewLink(q('review=1'))).toEqual({ review: { budget: null, seed: null }, errors: [] });
    expect(parseReviewLink(q('review=1&reviewplayouts=2000&reviewseed=7'))).toEqual({
      review: { budget: { unit: 'playouts', value: 2000 }, seed: 7 },
      errors: [],
    });
    expect(parseReviewLink(q('review=true&reviewms=250')).review).toEqual({ budget: { unit: 'ms', value: 250 }, seed: null });
    expect(parseReviewLink(q('reviewplayouts=2000')).review).toBeNull();
    expect(parseReviewLink(q('review=0')).review).toBeNull();
  });
  it('names bad values and leaves them out', () => {
    expect(parseReviewLink(q('review=yes')).errors).toEqual(['review=yes: expected 1 (review the game) or 0']);
    expect(parseReviewLink(q('review=1&reviewplayouts=2000&reviewms=100'))).toEqual({
      review: { budget: null, seed: null },
      errors: ['reviewplayouts and reviewms both given: the review takes one budget (the default is used)'],
    });
    expect(parseReviewLink(q('review=1&reviewms=0')).errors).toEqual(['reviewms=0: expected a whole number from 1 to 600,000 (ms)']);
    expect(parseReviewLink(q('review=1&reviewplayouts=1e4')).errors[0]).toMatch(/^reviewplayouts=1e4: expected a whole number/);
    expect(parseReviewLink(q('review=1&reviewseed=-1')).errors[0]).toMatch(/^reviewseed=-1: expected a whole number from 0/);
  });
  it('writes what it reads back: the budget, and the seed only when the link would not imply it', () => {
    const out = new URLSearchParams();
    formatReviewLink(out, settings, null);
    expect(out.toString()).toBe('review=1&reviewplayouts=2000');
    expect(parseReviewLink(out).review).toEqual({ budget: { unit: 'playouts', value: 2000 }, seed: null });
    const ms = new URLSearchParams();
    formatReviewLink(ms, { ...settings, iterations: null, ms: 250, seed: 5 }, 5);
    expect(ms.toString()).toBe('review=1&reviewms=250');
    const seeded = new URLSearchParams();
    formatReviewLink(seeded, { ...settings, seed: 0 }, 5);
    expect(seeded.toString()).toBe('review=1&reviewplayouts=2000&reviewseed=0');
    expect(parseReviewLink(seeded).review).toEqual({ budget: { unit: 'playouts', value: 2000 }, seed: 0 });
  });
});
