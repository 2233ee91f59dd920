// Lesson files of format version 1 (no "version" field: actions and `look` were CSS selectors on
// the page's ids and data attributes) converted to version 2 (named states, intents and targets,
// catalogue.ts). The loader converts a version-1 file on load with this function, so an old file
// keeps working; the shipped files were converted once with it (`npm run migrate-lessons`, which
// rewrites www/src/lessons/data/*.json). A selector with no version-2 equivalent is named in the
// step's problems (its button is off; a `look` that is not converted outlines nothing), as a
// selector that did not parse was in version 1.
//
// Pure data in, data out: unit-tested in Node.

/** The result: the version-2 JSON, and per step (0-based) what could not be converted. */
export interface Migrated {
  lesson: Record<string, unknown>;
  stepProblems: Map<number, string[]>;
}

type Json = Record<string, unknown>;

const LOOKS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^#board$/, () => 'board'],
  [/^#board \.twists$/, () => 'board.twists'],
  [/^#board \.q-(TL|TR|BL|BR)$/, (m) => `board.quadrant.${m[1]}`],
  [/^#moves$/, () => 'game.moves'],
  [/^#internals$/, () => 'analysis.internals'],
  [/^#internals \.lgr-replies$/, () => 'analysis.lgrReplies'],
  [/^#step \.st-right$/, () => 'step.path'],
  [/^#st-table$/, () => 'step.table'],
  [/^#st-board$/, () => 'step.board'],
  [/^#step \.nodelink$/, () => 'step.tree'],
  [/^#cmp-panes$/, () => 'compare.panes'],
  [/^#cmp-pane-([0-3])$/, (m) => `compare.pane.${Number(m[1]) + 1}`],
  [/^#cmp-exact$/, () => 'compare.exact'],
  [/^\.cmp-truth$/, () => 'compare.truth'],
  [/^#cmp-value-chart$/, () => 'compare.valueChart'],
  [/^#tr-figures$/, () => 'train.figures'],
  [/^#tr-loss-chart$/, () => 'train.lossChart'],
  [/^#tr-wdl-chart$/, () => 'train.wdlChart'],
];

type Out = Json;
/** A selector pattern and what a match becomes. */
type Rule<T> = [RegExp, (m: RegExpExecArray) => T];

function byRule<T>(rules: readonly Rule<T>[], sel: string): T | null {
  for (const [re, f] of rules) {
    const m = re.exec(sel);
    if (m) return f(m);
  }
  return null;
}

const intent = (name: string, args: Json = {}): Out => (Object.keys(args).length ? { intent: name, args } : { intent: name });

/** Clicks on elements named by a pattern. */
const CLICKS: Rule<Out>[] = [
  [/^#tab-(play|compare|arena|train)$/, (m) => intent('view.open', { view: m[1] })],
  [/^#moves button\[data-ply="(\d+)"\]$/, (m) => intent('review.open', { move: Number(m[1]) })],
  [/^#board \[data-cell="([a-z]\d+)"\]$/, (m) => intent('board.place', { cell: m[1] })],
  [/^#board \[data-twist="((?:TL|TR|BL|BR)-(?:cw|ccw))"\]$/, (m) => intent('board.twist', { twist: m[1] })],
];

/** A click's version-2 intent (null: none). */
function click(sel: string): Out | null {
  const simple: Record<string, Out> = {
    '#cmp-run': intent('compare.run'),
    '#solve-run': intent('solve.run'),
    '#st-phase': intent('step.phase'),
    '#st-run10': intent('step.run', { iterations: 10 }),
    '#st-run100': intent('step.run', { iterations: 100 }),
    '#hint': intent('game.hint'),
    '#live': intent('review.live'),
    '#board .cell.hint': intent('game.playHint'),
    '#tr-start': intent('train.start'),
    '#tr-play': intent('train.play'),
  };
  if (Object.hasOwn(simple, sel)) return simple[sel]!;
  return byRule(CLICKS, sel);
}

/** Waits for attributes named by a pattern. */
const WAITS: Rule<Json>[] = [
  [/^#compare\[data-state="(\w*)"\]$/, (m) => ({ 'compare.state': m[1] })],
  [/^#compare\[data-exact="(\w*)"\]$/, (m) => ({ 'compare.exact': m[1] })],
  [/^body\[data-analysis="(\w*)"\]$/, (m) => ({ 'analysis.state': m[1] })],
  [/^body\[data-view="(\w+)"\]$/, (m) => ({ view: m[1] })],
  [/^#moves button\[data-ply="(\d+)"\]$/, (m) => ({ 'review.moves': { includes: Number(m[1]) } })],
  [/^#board svg\[data-preview="([^"]*)"\]$/, (m) => ({ 'board.preview': m[1] })],
  [/^#solve-status\[data-state="(\w*)"\]$/, (m) => ({ 'solve.state': m[1] })],
  [/^#train\[data-state="(\w*)"\]$/, (m) => ({ 'train.state': m[1] })],
  [/^#train\[data-iteration="(\d+)"\]$/, (m) => ({ 'train.iteration': Number(m[1]) })],
  [
    /^#step\[data-iteration="(\d+)"\](?:\[data-phase="(\w+)"\])?$/,
    (m) => (m[2] ? { 'step.iteration': Number(m[1]), 'step.phase': m[2] } : { 'step.iteration': Number(m[1]) }),
  ],
];

/** A waitFor's version-2 condition (null: none). */
function waitFor(sel: string): Json | null {
  if (/^#cmp-truth-\d\[data-state\]:not\(\[data-state=""\]\)$/.test(sel)) return { 'compare.state': 'done', 'compare.solved': true };
  if (/^#cmp-value-chart\[data-exact="[01](\.5)?"\]$/.test(sel)) return { 'compare.solved': true };
  if (sel === 'body[data-review=""]') return { review: null };
  if (sel === '#internals .lgr-replies') return { 'analysis.lgrReplies': { atLeast: 1 } };
  if (sel === '#board .cell.hint') return { 'game.hints': { atLeast: 1 } };
  if (/^#board \[data-twist="[^"]*"\]$/.test(sel)) return { 'board.pending': { not: null } };
  if (sel === '#st-board[data-playout-done="true"]') return { 'step.playoutDone': true };
  return byRule(WAITS, sel);
}

/** A `set` (a form field): the intent whose arguments it becomes, and the argument. `held`: the
 * field is an argument of the intent a later click triggers (Analyse, New). */
function setField(sel: string, value: string): { intent: string; arg: string; value: string | number; held?: string } | null {
  const num = Number(value);
  const n = value.trim() !== '' && Number.isFinite(num) ? num : value;
  if (sel === '#an-preset') return { intent: 'analysis.run', arg: 'preset', value, held: '#an-run' };
  if (sel === '#an-budget') return { intent: 'analysis.run', arg: 'budget', value: n, held: '#an-run' };
  if (sel === '#st-preset') return { intent: 'step.new', arg: 'preset', value, held: '#st-new' };
  if (sel === '#st-seed') return { intent: 'step.new', arg: 'seed', value: n, held: '#st-new' };
  const cmp = /^#cmp-(budget|seed)$/.exec(sel);
  if (cmp) return { intent: 'compare.set', arg: cmp[1]!, value: n };
  const tr = /^#tr-(iterations|games|playouts|steps|lr|seed)$/.exec(sel);
  if (tr) return { intent: 'train.set', arg: tr[1]!, value: n };
  return null;
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const selText = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** Converts one version-1 lesson (a parsed JSON value) to version 2. What is malformed is left as
 * it is, for the version-2 reader to name. */
export function migrateV1(v: Json, file: string): Migrated {
  const stepProblems = new Map<number, string[]>();
  const lesson: Json = { version: 2 };
  for (const k of Object.keys(v))
    if (k !== 'version' && k !== 'steps')
      Object.defineProperty(lesson, k, { value: v[k], enumerable: true, writable: true, configurable: true });
  if (!Array.isArray(v.steps)) {
    if ('steps' in v) lesson.steps = v.steps;
    return { lesson, stepProblems };
  }
  lesson.steps = v.steps.map((s: unknown, i: number) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return s;
    const step = { ...(s as Json) };
    const problems: string[] = [];
    const where = `${file}, step ${i + 1}`;
    if (isStr(step.look)) {
      const look = step.look;
      const hit = LOOKS.find(([re]) => re.test(look));
      if (hit) step.look = hit[1](hit[0].exec(look)!);
    }
    if (Array.isArray(step.actions)) {
      const out: unknown[] = [];
      /** Fields set for a later click (Analyse, New), by that click's selector. */
      const held = new Map<string, Json>();
      for (const [j, a] of step.actions.entries()) {
        const at = `${where}, action ${j + 1}`;
        const no = (kind: string, sel: string) =>
          problems.push(`${at} (version 1 ${kind}): ${selText(sel)} has no version-2 equivalent; the step's button is off`);
        const o = typeof a === 'object' && a !== null && !Array.isArray(a) ? (a as Json) : null;
        const keys = o ? Object.keys(o) : [];
        if (o && keys.length === 1 && isStr(o.click)) {
          const sel = o.click;
          const args = held.get(sel);
          held.delete(sel);
          const c =
            sel === '#an-run' ? intent('analysis.run', args ?? {}) : sel === '#st-new' ? intent('step.new', args ?? {}) : click(sel);
          if (c) out.push(c);
          else no('click', sel);
        } else if (o && keys.length === 1 && isStr(o.waitFor)) {
          const c = waitFor(o.waitFor);
          if (c) out.push({ waitFor: c });
          else no('waitFor', o.waitFor);
        } else if (o && keys.length === 1 && isStr(o.focus)) {
          const m = /^#board \[data-twist="([^"]*)"\]$/.exec(o.focus);
          if (m) out.push(intent('board.previewTwist', { twist: m[1] }));
          else no('focus', o.focus);
        } else if (o && keys.length === 2 && isStr(o.set) && isStr(o.value)) {
          const pane = /^#cmp-(preset|c|rave_k|lgr_p|pool_k|budget)-([0-3])$/.exec(o.set);
          const f = pane ? null : setField(o.set, o.value);
          const last = out[out.length - 1] as Json | undefined;
          if (pane) {
            const n = Number(o.value);
            const value = pane[1] === 'preset' || o.value.trim() === '' || !Number.isFinite(n) ? o.value : n;
            out.push(intent('compare.setPane', { pane: Number(pane[2]) + 1, [pane[1]!]: value }));
          } else if (!f) no('set', o.set);
          else if (f.held) held.set(f.held, { ...(held.get(f.held) ?? {}), [f.arg]: f.value });
          // Consecutive fields of one form become one intent.
          else if (last && last.intent === f.intent && f.intent === 'train.set') last.args = { ...(last.args as Json), [f.arg]: f.value };
          else out.push(intent(f.intent, { [f.arg]: f.value }));
        } else if (o && keys.length === 1 && isStr(o.key)) no('key', o.key);
        // Anything else: left for the reader, which names it.
        else out.push(a);
      }
      for (const [sel, args] of held)
        problems.push(
          `${where}: the fields ${Object.keys(args).join(', ')} are set for a click on ${selText(sel)} that never comes; the step's button is off`,
        );
      step.actions = out;
    }
    if (problems.length) stepProblems.set(i, problems);
    return step;
  });
  return { lesson, stepProblems };
}
