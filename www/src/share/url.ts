// The page's state in its URL. One mechanism: `app/startup.ts applyUrl` reads the original
// parameters (`game`, `p0`, `p1`, `preset`, `ms`, `playouts` — a contract, never renamed) and this
// module reads the rest and writes them all back, so copying the URL reproduces what one sees.
//
// Parameters (all optional; docs.html lists them for teachers):
//   game=SPEC            hex:7, hex:11:swap, tictactoe, pentago, pentago:twist
//   moves=LIST           moves from the start in our notation, space- or comma-separated
//   p0=, p1=             person | engine
//   preset=, ms=, playouts=            both sides' engine preset and budget
//   preset0=, preset1=, ms0=, ms1=, playouts0=, playouts1=   one side's (override the above)
//   seed=N               the engines' random seed (reproducible searches with playouts=)
//   view=play|compare|arena            the open view (also the #hash)
//   overlays=visits,q,amaf,proven,pv,prior,exact|none   the board overlays switched on (play view)
//   pane1..pane4=preset:rave,c:0.7,rave_k:500,lgr_p:0.5,pool_k:10,save_bridge:true,prior:patterns,
//                progressive_bias:2.47,knowledge:true,knowledge_threshold:64,expand_threshold:10,
//                budget:20000   compare panes
//   cmpgame=, cmpmoves=, cmpmode=playouts|ms, cmpbudget=, cmpseed=, cmpseeds=1|8, panes=2..4, cmprun=1
//                        the compare view's position, budget (equal playouts or equal time) and runs
//   searches=PLY:SRC:PRESET:N:RUN:LEAF:CHOSEN:RIVAL:PROVEN,...   the root statistics of the searches
//                        behind moves (what the move list can review), `formatSearches`
//   review=1, reviewplayouts=N | reviewms=N, reviewseed=N   Review game on load, with that budget
//                        per position (default 10,000 playouts) and seed (default: seed=, else 0);
//                        with playouts, its figures equal `mcts review --json` (`parseReviewLink`)
//   lesson=ID            a built-in lesson (www/src/lessons)
//   embed=1, show=moves,thinking,controls,analysis, id=NAME, origin=URL   embed mode (embed/*)

import { PARAMS, PARAM_NAMES, type ParamName, type ParamValue } from '../generated/schema';
import type { SideSettings } from '../types';
import { DEFAULT_REVIEW_SEED, type ReviewBudget, type ReviewSettings } from '../review/report';

export const SIDE_KEYS = ['preset', 'ms', 'playouts'] as const;
import {
  OVERLAY_KEYS,
  PANE_KEYS,
  type CompareMode,
  type CompareSettings,
  type MoveFigures,
  type OverlayKey,
  type PaneFields,
  type PaneKey,
  type RootSummary,
} from '../state';

export { PANE_KEYS, VIEWS, type PaneKey, type View } from '../state';

/** Moves from a `moves=` value: split on spaces, `+` (a space in a query) and commas. */
export function splitMoves(v: string | null): string[] {
  if (!v) return [];
  return v.split(/[\s,+]+/).filter((m) => m.length > 0);
}

/** Decimal numbers as the engine reads them (Rust `f64::from_str`: `0.7`, `-1`, `.5`, `1e-3`). */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Whole numbers as the engine reads them (Rust `u64::from_str`). */
const WHOLE_TEXT = /^\+?\d+$/;

/** What parameter `key` takes, in words, as the engine says it (Rust `SearchConfig::expected`):
 * `a number`, `a whole number`, `true or false`, `one of uct, puct`. */
export function paramExpected(key: ParamName): string {
  const p = PARAMS[key];
  if (p.type === 'number') return 'a number';
  if (p.type === 'integer') return 'a whole number';
  if (p.type === 'boolean') return 'true or false';
  return `one of ${(p.values ?? []).join(', ')}`;
}

/** Whether `key` names a search parameter (the generated `PARAM_NAMES`). */
export function isParamName(key: string): key is ParamName {
  return (PARAM_NAMES as readonly string[]).includes(key);
}

/** A parameter's value from text (a URL's, a form's, `key=value` as `mcts search --set` takes
 * it), typed by the parameter's type in the generated schema, as the engine reads text (Rust
 * `SearchConfig::parse_param`): a number, a whole number, `true`/`false`, or one of an enum's
 * names (in lower case). The one place the page turns parameter text into a typed value; ranges
 * are checked by the callers that say them (`paneFieldError`) or left to the engine. A whole
 * number past 2^53 − 1 (a seed) stays text, which the engine reads exactly. `error` is what the
 * parameter takes (`paramExpected`). */
export function paramFromText(key: ParamName, text: string): { value: ParamValue } | { error: string } {
  const t = text.trim();
  const p = PARAMS[key];
  const bad = { error: paramExpected(key) };
  switch (p.type) {
    case 'number': {
      const x = Number(t);
      return NUMBER_TEXT.test(t) && Number.isFinite(x) ? { value: x } : bad;
    }
    case 'integer': {
      if (!WHOLE_TEXT.test(t)) return bad;
      const n = Number(t);
      return { value: Number.isSafeInteger(n) ? n : t.replace(/^\+/, '') };
    }
    case 'boolean':
      return t === 'true' ? { value: true } : t === 'false' ? { value: false } : bad;
    case 'enum': {
      const name = t.toLowerCase();
      return (p.values ?? []).includes(name) ? { value: name } : bad;
    }
  }
}

/** A typed parameter value as text: what a URL, a form field or `--set key=value` carries (the
 * inverse of `paramFromText`; a number as JavaScript writes it shortest, which the engine reads
 * back to the same number). */
export function formatParam(v: ParamValue): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return `${v}`;
  return v;
}

/** The numeric pane fields: what each means, its range and whether it is a whole number, all from
 * the engine's schema (`generated/schema.ts`, Rust `SearchConfig::ranged_fields`). `budget` is in
 * the compare view's unit (playouts or ms). */
type RangedPaneKey = Exclude<PaneKey, 'preset' | 'budget' | PaneSwitch | 'prior'>;
function paneRange(key: RangedPaneKey): { min: number; max: number; open: boolean; whole: boolean; what: string } {
  const p = PARAMS[key];
  // Every numeric pane parameter has a range in the engine (url.test.ts checks it).
  const r = p.range!;
  return { min: r.min, max: r.max, open: r.min_open, whole: p.type === 'integer', what: p.what ?? key };
}

/** The pane fields that are switches (`true` or `false`, as the engine reads them): what each
 * means. */
const PANE_SWITCHES = {
  save_bridge: 'save-bridge playouts (Hex)',
  knowledge: 'Hex knowledge in the tree',
} as const satisfies Partial<Record<PaneKey, string>>;
type PaneSwitch = keyof typeof PANE_SWITCHES;
const isPaneSwitch = (key: PaneKey): key is PaneSwitch => key in PANE_SWITCHES;

/** The budgets the compare view accepts, per mode: playouts 100 to 100,000,000; milliseconds
 * 10 to 3,600,000 (an hour). */
export const COMPARE_BUDGET: Record<CompareMode, { min: number; max: number; unit: string }> = {
  playouts: { min: 100, max: 100_000_000, unit: 'playouts' },
  millis: { min: 10, max: 3_600_000, unit: 'ms' },
};

/** The largest seed (as the page's `seed=`): 10^15. */
export const MAX_SEED = 1e15;

/** Numbers as people read them: `100000000` → `100,000,000`, `0.5` stays. */
const fmtNum = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 6 });

/** A whole number in [min, max] from text, or the sentence saying what was expected. */
export function wholeInRange(name: string, v: string, min: number, max: number, unit = ''): { value?: number; error?: string } {
  const t = v.trim();
  const n = Number(t);
  const range = `a whole number from ${fmtNum(min)} to ${fmtNum(max)}${unit ? ` (${unit})` : ''}`;
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < min || n > max) return { error: `${name}=${v}: expected ${range}` };
  return { value: n };
}

/** A pane field's value checked against its type and range; null when fine, else the sentence. */
function paneFieldError(key: PaneKey, val: string, mode: CompareMode): string | null {
  if (key === 'preset') return null;
  if (key === 'budget') {
    const b = COMPARE_BUDGET[mode];
    return wholeInRange(key, val, b.min, b.max, b.unit).error ?? null;
  }
  const typed = paramFromText(key, val);
  if (isPaneSwitch(key)) return 'value' in typed ? null : `${key}=${val}: ${PANE_SWITCHES[key]} must be true or false`;
  if (key === 'prior') return 'value' in typed ? null : `${key}=${val}: the tree's prior must be ${typed.error}`;
  const r = paneRange(key);
  const n = 'value' in typed ? typed.value : null;
  const ok = typeof n === 'number' && (r.open ? n > r.min : n >= r.min) && n <= r.max;
  if (ok) return null;
  const range = `${r.whole ? 'a whole number' : 'a number'} ${r.open ? `above ${fmtNum(r.min)} up` : `from ${fmtNum(r.min)}`} to ${fmtNum(r.max)}`;
  return `${key}=${val}: ${r.what} must be ${range}`;
}

/** A pane's engine parameters from its fields as typed (blank: the preset's), each turned into
 * its typed value by `paramFromText` (the fields were checked by `checkCompare`; a field that
 * does not read throws its sentence). */
export function paneParamValues(f: PaneFields, keys: readonly ParamName[]): Partial<Record<ParamName, ParamValue>> {
  const params: Partial<Record<ParamName, ParamValue>> = {};
  for (const k of keys) {
    const v = (f[k as PaneKey] ?? '').trim();
    if (v === '') continue;
    const typed = paramFromText(k, v);
    if ('error' in typed) throw new Error(`${k}=${v}: expected ${typed.error}`);
    params[k] = typed.value;
  }
  return params;
}

/** A compare pane's settings from `preset:rave,c:0.7,...`; unknown keys and values out of range
 * are reported (budget in the unit of `mode`). */
export function parsePane(v: string, mode: CompareMode = 'playouts'): { fields: Partial<Record<PaneKey, string>>; errors: string[] } {
  const fields: Partial<Record<PaneKey, string>> = {};
  const errors: string[] = [];
  for (const part of v.split(',').filter((x) => x.trim())) {
    const [k, ...rest] = part.split(':');
    const key = (k ?? '').trim() as PaneKey;
    const val = rest.join(':').trim();
    if (!(PANE_KEYS as readonly string[]).includes(key)) errors.push(`unknown pane field '${key}' (expected ${PANE_KEYS.join(', ')})`);
    else {
      const e = paneFieldError(key, val, mode);
      if (e) errors.push(e);
      else fields[key] = val;
    }
  }
  return { fields, errors };
}

/** The problems of a compare form as typed (the view checks it before a run, with the same
 * sentences as the URL's). */
export function checkCompare(c: CompareSettings, presets: readonly string[]): string[] {
  const errors: string[] = [];
  const b = COMPARE_BUDGET[c.mode];
  const e1 = wholeInRange(c.mode === 'millis' ? 'time' : 'playouts', c.budget, b.min, b.max, b.unit).error;
  if (e1) errors.push(e1);
  const e2 = wholeInRange('seed', c.seed, 0, MAX_SEED).error;
  if (e2) errors.push(e2);
  if (c.seeds !== undefined && !COMPARE_SEEDS.includes(c.seeds)) errors.push(`seeds ${c.seeds}: expected ${COMPARE_SEEDS.join(' or ')}`);
  c.panes.forEach((p, k) => {
    if (presets.length && p.preset !== undefined && !presets.includes(p.preset)) errors.push(`pane ${k + 1}: unknown preset '${p.preset}'`);
    for (const key of PANE_KEYS) {
      const v = p[key]?.trim();
      if (!v || key === 'preset') continue;
      const e = paneFieldError(key, v, c.mode);
      if (e) errors.push(`pane ${k + 1}: ${e}`);
    }
  });
  return errors;
}

export function formatPane(fields: Partial<Record<PaneKey, string>>): string {
  return PANE_KEYS.filter((k) => fields[k])
    .map((k) => `${k}:${fields[k]}`)
    .join(',');
}

/** How many seeds a Compare pane may run: one, or eight for the spread (`cmpseeds=`). */
export const COMPARE_SEEDS: readonly string[] = ['1', '8'];

/** The seeds of a pane run over `n` seeds from `seed`: the seed itself and the next ones (past
 * the largest seed, from 0 again), so that a link gives every pane the same seeds again. */
export function paneSeeds(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (seed + i) % (MAX_SEED + 1));
}

/** A positive integer parameter, or an error sentence. */
export function positiveInt(name: string, v: string): { value?: number; error?: string } {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) return { error: `${name}=${v} is not a positive whole number` };
  return { value: n };
}

/** A query string as the page writes it: `:` and `,` left readable (`game=hex:7`, `overlays=q,pv`). */
export function queryString(q: URLSearchParams): string {
  return q.toString().replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

/** The `moves=` value for a move list (the inverse of `splitMoves`). */
export function formatMoves(moves: readonly string[]): string {
  return moves.join(' ');
}

/** Writes both sides' settings: `p0`, `p1`; one `preset` and one budget (`ms` or `playouts`) when
 * the sides agree, else `preset0`/`preset1` and `ms0`/`playouts1`-style per side. */
export function formatSides(q: URLSearchParams, [a, b]: readonly [SideSettings, SideSettings]): void {
  q.set('p0', a.who);
  q.set('p1', b.who);
  const budgetKey = (x: SideSettings) => (x.budgetKind === 'millis' ? 'ms' : 'playouts');
  if (a.preset === b.preset) q.set('preset', a.preset);
  else {
    q.set('preset0', a.preset);
    q.set('preset1', b.preset);
  }
  if (a.budgetKind === b.budgetKind && a.budgetValue === b.budgetValue) q.set(budgetKey(a), String(a.budgetValue));
  else {
    q.set(`${budgetKey(a)}0`, String(a.budgetValue));
    q.set(`${budgetKey(b)}1`, String(b.budgetValue));
  }
}

/** Reads both sides' settings over `base` (what the page has): `p0`/`p1`, then for each side the
 * shared `preset`/`ms`/`playouts` and its own `preset0`/`ms0`/... (the own ones win). A value not
 * understood leaves the setting as it was and adds a sentence to `errors` (once per parameter). */
export function parseSides(
  q: URLSearchParams,
  presets: readonly string[],
  base: readonly [SideSettings, SideSettings],
): { sides: [SideSettings, SideSettings]; errors: string[] } {
  const sides: [SideSettings, SideSettings] = [{ ...base[0] }, { ...base[1] }];
  const errors: string[] = [];
  for (const side of [0, 1] as const) {
    const k = `p${side}`;
    const v = q.get(k);
    if (v === null) continue;
    if (v === 'person' || v === 'engine') sides[side].who = v;
    else errors.push(`${k}=${v}: expected person or engine`);
  }
  for (const side of [0, 1] as const) {
    const s = sides[side];
    for (const key of SIDE_KEYS) {
      for (const name of [key, `${key}${side}`]) {
        const v = q.get(name);
        if (v === null) continue;
        // A shared parameter's error is reported once (with side 0).
        const report = side === 0 || name !== key;
        if (key === 'preset') {
          if (presets.includes(v)) s.preset = v;
          else if (report) errors.push(`${name}=${v}: unknown preset (expected one of ${presets.join(', ')})`);
        } else {
          const r = positiveInt(name, v);
          if (r.value !== undefined) {
            s.budgetKind = key === 'ms' ? 'millis' : 'playouts';
            s.budgetValue = r.value;
          } else if (report && r.error) errors.push(r.error);
        }
      }
    }
  }
  return { sides, errors };
}

/** The `overlays=` value: the overlays on, in their order, or `none`. */
export function formatOverlays(on: readonly OverlayKey[]): string {
  return OVERLAY_KEYS.filter((k) => on.includes(k)).join(',') || 'none';
}

/** The overlays an `overlays=` value switches on (all others off), in their order; unknown names
 * are reported and left out. */
export function parseOverlays(v: string): { overlays: OverlayKey[]; errors: string[] } {
  const want = new Set(
    v
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x && x !== 'none'),
  );
  const known: readonly string[] = OVERLAY_KEYS;
  const errors = [...want]
    .filter((w) => !known.includes(w))
    .map((w) => `overlays: unknown overlay '${w}' (expected ${OVERLAY_KEYS.join(', ')} or none)`);
  return { overlays: OVERLAY_KEYS.filter((k) => want.has(k)), errors };
}

/** Writes the Compare view's form: `cmpgame`, `cmpmoves` (when there are moves), `cmpmode`
 * (`playouts` or `ms`), `cmpbudget`, `cmpseed`, `cmpseeds` (more than one), `panes` and `pane1`..`paneN` (the fields that are
 * not blank). `run` is never written: a link that runs adds `cmprun=1` itself (`compareRunLink`). */
export function formatCompare(q: URLSearchParams, c: CompareSettings): void {
  q.set('cmpgame', c.game);
  if (c.moves.trim()) q.set('cmpmoves', c.moves.trim());
  q.set('cmpmode', c.mode === 'millis' ? 'ms' : 'playouts');
  q.set('cmpbudget', c.budget);
  q.set('cmpseed', c.seed);
  // One seed is the default: the parameter is written only for more.
  if (c.seeds && c.seeds !== '1') q.set('cmpseeds', c.seeds);
  else q.delete('cmpseeds');
  q.set('panes', String(c.panes.length));
  c.panes.forEach((p, k) => {
    const fields: PaneFields = {};
    for (const key of PANE_KEYS) {
      const v = p[key]?.trim();
      if (v) fields[key] = v;
    }
    q.set(`pane${k + 1}`, formatPane(fields));
  });
}

/** A page URL with `cmprun=1` added: opening it fills the compare form and runs it once. */
export function compareRunLink(href: string): string {
  const u = new URL(href);
  const q = new URLSearchParams(u.search);
  q.set('cmprun', '1');
  return `${u.origin}${u.pathname}?${queryString(q)}${u.hash}`;
}

/** Reads the Compare view's form over `base` (what the view has): a value not understood leaves
 * the field as it was and adds a sentence to `errors`; a pane's fields replace only the fields
 * named; `pane3` and `pane4` count only when `panes` makes room for them. */
export function parseCompare(
  q: URLSearchParams,
  presets: readonly string[],
  base: CompareSettings,
): { compare: CompareSettings; errors: string[] } {
  const c: CompareSettings = { ...base, panes: base.panes.map((p) => ({ ...p })) };
  const errors: string[] = [];
  const panes = q.get('panes');
  if (panes !== null) {
    if (['2', '3', '4'].includes(panes)) {
      const n = Number(panes);
      while (c.panes.length < n) c.panes.push({});
      c.panes.length = n;
    } else errors.push(`panes=${panes}: expected 2, 3 or 4`);
  }
  const game = q.get('cmpgame');
  if (game !== null) c.game = game;
  const moves = q.get('cmpmoves');
  if (moves !== null) c.moves = splitMoves(moves).join(' ');
  const mode = q.get('cmpmode');
  if (mode !== null) {
    if (mode === 'playouts' || mode === 'ms') c.mode = mode === 'ms' ? 'millis' : 'playouts';
    else errors.push(`cmpmode=${mode}: expected playouts (equal playouts) or ms (equal time)`);
  }
  const budget = q.get('cmpbudget');
  if (budget !== null) {
    const b = COMPARE_BUDGET[c.mode];
    const r = wholeInRange('cmpbudget', budget, b.min, b.max, b.unit);
    if (r.error) errors.push(r.error);
    else c.budget = String(r.value);
  }
  const seed = q.get('cmpseed');
  if (seed !== null) {
    const r = wholeInRange('cmpseed', seed, 0, MAX_SEED);
    if (r.error) errors.push(r.error);
    else c.seed = String(r.value);
  }
  const seeds = q.get('cmpseeds');
  if (seeds !== null) {
    if (COMPARE_SEEDS.includes(seeds)) c.seeds = seeds;
    else errors.push(`cmpseeds=${seeds}: expected ${COMPARE_SEEDS.join(' or ')} (seeds per pane)`);
  }
  const run = q.get('cmprun');
  if (run !== null) {
    if (run === '1') c.run = true;
    else errors.push(`cmprun=${run}: expected 1`);
  }
  for (let k = 0; k < 4; k++) {
    const v = q.get(`pane${k + 1}`);
    if (v === null) continue;
    const { fields, errors: e } = parsePane(v, c.mode);
    errors.push(...e.map((x) => `pane${k + 1}: ${x}`));
    const pane = c.panes[k];
    if (!pane) {
      errors.push(`pane${k + 1}: there are only ${c.panes.length} panes (set panes=${k + 1} to use it)`);
      continue;
    }
    for (const key of PANE_KEYS) {
      const val = fields[key];
      if (val === undefined) continue;
      if (key === 'preset' && !presets.includes(val)) {
        errors.push(`pane${k + 1}: unknown preset '${val}' (expected one of ${presets.join(', ')})`);
        continue;
      }
      pane[key] = val;
    }
  }
  return { compare: c, errors };
}

// ---- searches= : the root statistics of the searches behind moves -----------------------------
//
// One entry per move with a kept search, comma-separated, in move order:
// `PLY:SRC:PRESET:N:RUN:LEAF:CHOSEN:RIVAL:PROVEN`, e.g. `2:e:rave:5000:5000:r:3120_0.6123_:c4_800_0.55_:`:
//   PLY     the move's number (1-based; the move itself is `moves=`'s)
//   SRC     `e` (the game's engine chose it) or `a` (a person played it after Analyse)
//   PRESET  the preset that searched
//   N       the root's visits (RootSummary.playouts); RUN the playouts the search ran itself, or empty
//   LEAF    `r` (playouts), `v` (value head), `m` (both), or empty
//   CHOSEN  the move's own figures `VISITS_Q_PROOF` (Q: the mover's win rate in [0, 1], four places;
//           PROOF `w`, `l`, `d` or empty), or empty when the search never tried it
//   RIVAL   the most visited other move `MOVE_VISITS_Q_PROOF`, or empty
//   PROVEN  the root's proof `w`, `l`, `d`, or empty
// Exactly the game JSON record's figures (share/records.ts), so a link and a reload keep what the
// move list could review.

const PROOF_CODE = { win: 'w', loss: 'l', draw: 'd' } as const;
const LEAF_CODE = { rollout: 'r', value: 'v', mix: 'm' } as const;
type Proof = MoveFigures['proven'];

const proofText = (p: Proof) => (p ? PROOF_CODE[p] : '');
function proofOf(t: string): Proof | undefined {
  if (t === '') return null;
  const hit = (Object.keys(PROOF_CODE) as (keyof typeof PROOF_CODE)[]).find((k) => PROOF_CODE[k] === t);
  return hit ?? undefined;
}

/** A preset name that fits an entry (the engine's names: letters, digits, `-`). */
const PRESET_TEXT = /^[A-Za-z0-9-]{1,32}$/;
/** A move that fits an entry (the games' notations: `d4`, `swap`, `d4-BR-cw`). */
const MOVE_TEXT = /^[A-Za-z0-9-]{1,32}$/;

/** The `searches=` value for the root summaries of a game's moves ('' when none fits). */
export function formatSearches(summaries: readonly RootSummary[]): string {
  const fig = (f: MoveFigures | null, withMove: boolean) =>
    f ? `${withMove ? `${f.move}_` : ''}${f.visits}_${Number(f.win_rate.toFixed(4))}_${proofText(f.proven)}` : '';
  return summaries
    .filter((s) => PRESET_TEXT.test(s.preset) && (!s.best_rival || MOVE_TEXT.test(s.best_rival.move)))
    .map((s) =>
      [
        s.ply,
        s.source === 'analysis' ? 'a' : 'e',
        s.preset,
        s.playouts,
        s.search_playouts ?? '',
        s.leaf ? LEAF_CODE[s.leaf] : '',
        fig(s.chosen, false),
        fig(s.best_rival, true),
        proofText(s.proven),
      ].join(':'),
    )
    .join(',');
}

/** An entry's nine fields (`parseSearches`). */
type Fields = [string, string, string, string, string, string, string, string, string];

const WHOLE = /^\d{1,15}$/;
const RATE = /^(?:0(?:\.\d{1,6})?|1(?:\.0{1,6})?|\.\d{1,6})$/;

function figuresOf(parts: string[], move: string): MoveFigures | null {
  const [visits, q, p] = parts;
  const proven = proofOf(p ?? '');
  if (parts.length !== 3 || !WHOLE.test(visits ?? '') || !RATE.test(q ?? '') || proven === undefined) throw new Error('bad figures');
  return { move, visits: Number(visits), win_rate: Number(q), proven };
}

/** The root summaries of a `searches=` value for the game's `moves`; an entry that does not read,
 * or names a move the game does not have, is left out and named in `errors`. */
export function parseSearches(v: string, moves: readonly string[]): { summaries: RootSummary[]; errors: string[] } {
  const summaries: RootSummary[] = [];
  const bad: number[] = [];
  const seen = new Set<number>();
  const entries = v.split(',').filter((x) => x.trim() !== '');
  for (const [i, entry] of entries.entries()) {
    try {
      const f = entry.trim().split(':');
      if (f.length !== 9) throw new Error('fields');
      const [ply, src, preset, n, run, leaf, chosen, rival, proven] = f as string[] as Fields;
      const k = Number(ply);
      if (!WHOLE.test(ply) || k < 1 || k > moves.length || seen.has(k)) throw new Error('ply');
      if ((src !== 'e' && src !== 'a') || !PRESET_TEXT.test(preset) || !WHOLE.test(n)) throw new Error('head');
      if (run !== '' && !WHOLE.test(run)) throw new Error('run');
      const leafName = (Object.keys(LEAF_CODE) as (keyof typeof LEAF_CODE)[]).find((x) => LEAF_CODE[x] === leaf);
      if (leaf !== '' && !leafName) throw new Error('leaf');
      const rootProof = proofOf(proven);
      if (rootProof === undefined) throw new Error('proof');
      const move = moves[k - 1]!;
      const rivalParts = rival.split('_');
      if (rival !== '' && !MOVE_TEXT.test(rivalParts[0] ?? '')) throw new Error('rival');
      summaries.push({
        ply: k,
        move,
        player: (k - 1) % 2 === 0 ? 0 : 1,
        source: src === 'a' ? 'analysis' : 'engine',
        preset,
        playouts: Number(n),
        ...(run !== '' ? { search_playouts: Number(run) } : {}),
        ...(leafName ? { leaf: leafName } : {}),
        chosen: chosen === '' ? null : figuresOf(chosen.split('_'), move),
        best_rival: rival === '' ? null : figuresOf(rivalParts.slice(1), rivalParts[0]!),
        proven: rootProof,
      });
      seen.add(k);
    } catch {
      bad.push(i + 1);
    }
  }
  summaries.sort((a, b) => a.ply - b.ply);
  const errors = bad.length
    ? [
        `searches: ${bad.length === 1 ? `entry ${bad[0]} does` : `entries ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ' …' : ''} do`} not read as a move's search of this game (left out)`,
      ]
    : [];
  return { summaries, errors };
}

// ---- review= : the game review a link reproduces --------------------------------------------

/** The budgets per position a link may ask of a review: playouts 1 to 100,000,000 (as the
 * compare view's), milliseconds 1 to 600,000 (ten minutes a position). */
export const REVIEW_LINK_BUDGET = {
  playouts: { min: 1, max: 100_000_000 },
  ms: { min: 1, max: 600_000 },
} as const;

/** The review a link asks for: `review=1` (or `true`) runs Review game once the game is loaded,
 * with `reviewplayouts=N` or `reviewms=N` per position (`budget` null: the page's default) and
 * `reviewseed=N` (`seed` null: the link's `seed=` if any, else [`DEFAULT_REVIEW_SEED`]; the
 * caller knows the page's seed). `review` is null without `review=1`; bad values are named in
 * `errors` and left out. */
export function parseReviewLink(q: URLSearchParams): {
  review: { budget: ReviewBudget | null; seed: number | null } | null;
  errors: string[];
} {
  const errors: string[] = [];
  const on = q.get('review');
  if (on !== null && !['1', 'true', '0', 'false'].includes(on)) errors.push(`review=${on}: expected 1 (review the game) or 0`);
  const playouts = q.get('reviewplayouts');
  const ms = q.get('reviewms');
  let budget: ReviewBudget | null = null;
  if (playouts !== null && ms !== null)
    errors.push('reviewplayouts and reviewms both given: the review takes one budget (the default is used)');
  else if (playouts !== null) {
    const r = wholeInRange('reviewplayouts', playouts, REVIEW_LINK_BUDGET.playouts.min, REVIEW_LINK_BUDGET.playouts.max, 'playouts');
    if (r.error) errors.push(r.error);
    else budget = { unit: 'playouts', value: r.value! };
  } else if (ms !== null) {
    const r = wholeInRange('reviewms', ms, REVIEW_LINK_BUDGET.ms.min, REVIEW_LINK_BUDGET.ms.max, 'ms');
    if (r.error) errors.push(r.error);
    else budget = { unit: 'ms', value: r.value! };
  }
  let seed: number | null = null;
  const s = q.get('reviewseed');
  if (s !== null) {
    const r = wholeInRange('reviewseed', s, 0, MAX_SEED);
    if (r.error) errors.push(r.error);
    else seed = r.value!;
  }
  return { review: on === '1' || on === 'true' ? { budget, seed } : null, errors };
}

/** Writes the review a link reproduces (`parseReviewLink`'s inverse): `review=1`, the budget
 * (`reviewplayouts` or `reviewms`) and `reviewseed` when the seed is not the one the link
 * implies (`pageSeed`, the link's `seed=`, else [`DEFAULT_REVIEW_SEED`]). The preset and the
 * solver's budget are the page's (the engine side's preset; `REVIEW_SOLVE_MS`). */
export function formatReviewLink(q: URLSearchParams, settings: ReviewSettings, pageSeed: number | null): void {
  q.set('review', '1');
  if (settings.iterations !== null) q.set('reviewplayouts', String(settings.iterations));
  else if (settings.ms !== null) q.set('reviewms', String(settings.ms));
  if (settings.seed !== (pageSeed ?? DEFAULT_REVIEW_SEED)) q.set('reviewseed', String(settings.seed));
}
