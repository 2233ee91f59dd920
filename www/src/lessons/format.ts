// The lesson file format, version 2 (docs.html, "Writing a lesson"):
// one JSON file per lesson in www/src/lessons/data/, read at build time. A lesson is a position
// and configuration (URL parameters), a paper, a short introduction and numbered steps; each step
// says what to do (with a button that does it: a list of actions), what to look at (a target the
// page outlines) and one question with its answer folded away.
//
// A step's actions talk to the page through its lesson registry (registry.ts), never through its
// markup: `{ "intent": NAME, "args": {...} }` triggers what a button of the page does, and
// `{ "waitFor": { STATE: EXPECT, ... } }` waits until every named state holds. `look` names a
// target. The names, their types and their values are catalogue.ts's.
//
// `parseLesson` checks a file and names what is wrong in it, so that a teacher's typo shows as a
// sentence on the page, not as a broken page. A file that does not read (not an object, a field
// missing or of the wrong kind, an action of an unknown shape, an unknown version) is left out
// and named in `errors`; the page shows those sentences (on the card of the lesson asked for,
// never a blank card). A lesson that reads but has a part that cannot work keeps the rest and
// names that part in `problems`, shown on its card: an intent, state or target the catalogue
// does not have, an argument or value of the wrong type (the step's button is off; a bad
// `look` outlines nothing), a paper `url` that is not an http(s) or relative URL
// (`lib/safe-url.ts`: a `javascript:` link would run the file author's script in the reader's
// page: shown as text without a link).
//
// Version 1 (no "version" field; CSS selectors) is converted on load by migrate.ts.
//
// No DOM here (unit-tested in Node).

import { safeHttpUrl } from '../lib/safe-url';
import {
  INTENTS,
  type IntentArgs,
  type IntentName,
  isIntentName,
  isStateName,
  isTargetName,
  STATES,
  type StateName,
  type StateSpec,
  type TargetName,
} from './catalogue';
import { migrateV1 } from './migrate';

/** The format version this page writes and reads (version 1 is converted on load). */
export const LESSON_VERSION = 2;

/** What a state must be: a value (equal), or at least a number, a list that includes a number,
 * or anything but a value. */
export type Expect =
  | string
  | number
  | boolean
  | null
  | { readonly atLeast: number }
  | { readonly includes: number }
  | { readonly not: string | number | boolean | null };

/** States and what each must be; every one must hold. */
export type Condition = Readonly<Partial<Record<StateName, Expect>>>;

/** One thing the step's button does, in order: trigger an intent, or wait for a condition. */
export type LessonAction = { readonly intent: IntentName; readonly args: IntentArgs } | { readonly waitFor: Condition };

export interface LessonStep {
  /** A few words: the step's heading. */
  title: string;
  /** What to do, in a sentence or two. */
  do: string;
  /** The button's label (default "Do it"); omitted with no actions. */
  button?: string | undefined;
  /** What the button does. */
  actions: LessonAction[];
  /** The target to look at, outlined when the step is done (a catalogue.ts target name; when it
   * is not one, the step's problems say so and nothing is outlined). */
  look: string;
  /** `look` when it names a target, else null. */
  target: TargetName | null;
  /** What to look at, in words. */
  lookText: string;
  /** One question to think about, and its answer (folded away). */
  question: string;
  answer: string;
  /** What in this step cannot work (sentences naming the step and the name). */
  problems: string[];
  /** False when an action names what the page does not have: the button could only fail. */
  runnable: boolean;
}

export interface Lesson {
  /** The `?lesson=` name: lower case letters, digits and dashes. */
  id: string;
  title: string;
  /** Place in the lessons menu (smaller first). */
  order: number;
  /** URL parameters the lesson opens with (explicit URL parameters win), as in docs.html. */
  params: Record<string, string>;
  /** The paper the lesson is about. */
  paper: { cite: string; url: string };
  /** Short paragraphs before the steps. */
  intro: string[];
  steps: LessonStep[];
  /** What in the lesson cannot work (each a sentence naming the file and the field), shown on the
   * lesson card; the rest of the lesson works. */
  problems: string[];
  /** 1 when the file was version 1, converted on load (migrate.ts); null for a version-2 file. */
  migratedFrom: 1 | null;
}

/** Relative paper URLs are checked against this base (any http(s) base: only the scheme of the
 * resolved URL is judged here); the page resolves them against its own address. */
const CHECK_BASE = 'https://lesson.invalid/';

const isStr = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A short picture of a value for a message: JSON-like, two levels deep, at most 120 characters
 * (a whole `JSON.stringify` of a file's value can be megabytes long, or overflow the stack on a
 * value nested thousands deep). */
function preview(v: unknown, depth = 0): string {
  let out: string;
  if (typeof v === 'string') out = JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  else if (typeof v !== 'object' || v === null) out = String(v);
  else if (depth >= 2) out = Array.isArray(v) ? '[…]' : '{…}';
  else if (Array.isArray(v))
    out = `[${v
      .slice(0, 4)
      .map((x) => preview(x, depth + 1))
      .join(', ')}${v.length > 4 ? ', …' : ''}]`;
  else {
    const keys = Object.keys(v);
    const shown = keys
      .slice(0, 4)
      .map((k) => `${JSON.stringify(k.slice(0, 30))}: ${preview((v as Record<string, unknown>)[k], depth + 1)}`);
    out = `{${shown.join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  return out.length > 120 ? `${out.slice(0, 119)}…` : out;
}

/** A name for a message, shortened. */
const nameText = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Why `v` is not a value state `spec` takes (null: it is). */
function badValue(v: unknown, spec: StateSpec): string | null {
  if (v === null) return spec.nullable ? null : 'is never null';
  if (spec.type === 'numbers') return 'is a list: ask whether it {"includes": N}';
  if (typeof v !== spec.type) return `is a ${spec.type}, not ${preview(v)}`;
  if (typeof v === 'number' && !Number.isFinite(v)) return `is a finite number, not ${preview(v)}`;
  if (spec.values && !spec.values.includes(v as string))
    return `is one of ${spec.values.map((x) => JSON.stringify(x)).join(', ')}, not ${preview(v)}`;
  return null;
}

/** Why `e` is not what state `name` can be (null: it can be). */
function badExpect(name: StateName, e: unknown): string | null {
  const spec: StateSpec = STATES[name];
  if (!isObj(e)) return typeof e === 'object' && e !== null ? `expects a value, not ${preview(e)}` : badValue(e, spec);
  const keys = Object.keys(e);
  if (keys.length === 1 && keys[0] === 'atLeast') {
    if (spec.type !== 'number') return `is not a number: {"atLeast": …} does not apply`;
    return typeof e.atLeast === 'number' && Number.isFinite(e.atLeast) ? null : `{"atLeast": N} needs a number, not ${preview(e.atLeast)}`;
  }
  if (keys.length === 1 && keys[0] === 'includes') {
    if (spec.type !== 'numbers') return `is not a list: {"includes": …} does not apply`;
    return typeof e.includes === 'number' && Number.isFinite(e.includes)
      ? null
      : `{"includes": N} needs a number, not ${preview(e.includes)}`;
  }
  if (keys.length === 1 && keys[0] === 'not') return badValue(e.not, spec);
  return `expects a value, {"atLeast": N}, {"includes": N} or {"not": value}, not ${preview(e)}`;
}

/** Reads one action: throws for an unknown shape (the file is not read); a name or value the page
 * does not have goes to `problems` (null returned: the button is off). */
function parseAction(v: unknown, where: string, problems: string[]): LessonAction | null {
  if (!isObj(v))
    throw new Error(`${where}: an action is an object such as {"intent": "compare.run"} or {"waitFor": {"compare.state": "done"}}`);
  const keys = Object.keys(v);
  const off = (why: string) => {
    problems.push(`${where}: ${why}; the step's button is off`);
    return null;
  };
  if (keys.includes('intent') && keys.every((k) => k === 'intent' || k === 'args')) {
    if (!isStr(v.intent)) throw new Error(`${where}: "intent" must be a non-empty string`);
    const args = v.args ?? {};
    if (!isObj(args)) throw new Error(`${where}: "args" must be an object of named arguments`);
    const name = v.intent;
    if (!isIntentName(name))
      return off(`unknown intent ${nameText(name)} (the page's intents are listed in lessons/catalogue.ts and docs.html)`);
    const spec = INTENTS[name].args as Readonly<Record<string, { type: string; required?: boolean; values?: readonly string[] }>>;
    const out: Record<string, string | number | boolean> = {};
    for (const k of Object.keys(args)) {
      const a = Object.hasOwn(spec, k) ? spec[k] : undefined;
      const x = args[k];
      if (!a) {
        const known = Object.keys(spec);
        return off(`${name} has no argument ${nameText(k)} (${known.length ? `it takes ${known.join(', ')}` : 'it takes none'})`);
      }
      if (typeof x !== a.type || (typeof x === 'number' && !Number.isFinite(x)))
        return off(`${name}'s argument "${k}" is a ${a.type}, not ${preview(x)}`);
      if (a.values && !a.values.includes(x as string))
        return off(`${name}'s argument "${k}" is one of ${a.values.map((y) => JSON.stringify(y)).join(', ')}, not ${preview(x)}`);
      Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    }
    const missing = Object.keys(spec).filter((k) => spec[k]!.required && !Object.hasOwn(args, k));
    if (missing.length) return off(`${name} needs the argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    return { intent: name, args: out };
  }
  if (keys.length === 1 && keys[0] === 'waitFor') {
    const c = v.waitFor;
    if (!isObj(c) || Object.keys(c).length === 0)
      throw new Error(`${where}: "waitFor" must be an object naming states and what they must be, such as {"compare.state": "done"}`);
    const cond: Record<string, Expect> = {};
    for (const k of Object.keys(c)) {
      if (!isStateName(k)) return off(`unknown state ${nameText(k)} (the page's states are listed in lessons/catalogue.ts and docs.html)`);
      const why = badExpect(k, c[k]);
      if (why) return off(`state ${k} ${why}`);
      Object.defineProperty(cond, k, { value: c[k], enumerable: true, writable: true, configurable: true });
    }
    return { waitFor: cond };
  }
  throw new Error(`${where}: unknown action ${preview(v)} (expected {"intent": …, "args": {…}} or {"waitFor": {…}})`);
}

/** Checks one lesson file (version 2, or version 1 converted); throws a sentence naming the field
 * that is wrong. */
export function parseLesson(v: unknown, file = 'lesson'): Lesson {
  if (!isObj(v)) throw new Error(`${file}: a lesson is a JSON object`);
  let o = v;
  let migratedFrom: 1 | null = null;
  let stepProblems = new Map<number, string[]>();
  if (o.version === undefined || o.version === 1) {
    const m = migrateV1(o, file);
    o = m.lesson;
    stepProblems = m.stepProblems;
    migratedFrom = 1;
  } else if (o.version !== LESSON_VERSION)
    throw new Error(
      `${file}: "version" ${preview(o.version)} is not a lesson format this page reads (${LESSON_VERSION}, or 1, converted on load)`,
    );
  const need = (k: string) => {
    if (!isStr(o[k])) throw new Error(`${file}: "${k}" must be a non-empty string`);
    return o[k] as string;
  };
  const id = need('id');
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`${file}: "id" may hold only a-z, 0-9 and -`);
  const title = need('title');
  const order = typeof o.order === 'number' && Number.isFinite(o.order) ? o.order : 100;
  const params = o.params ?? {};
  if (!isObj(params) || Object.values(params).some((x) => typeof x !== 'string'))
    throw new Error(`${file}: "params" must map URL parameters to strings`);
  const paper = o.paper;
  if (!isObj(paper) || !isStr(paper.cite) || !isStr(paper.url)) throw new Error(`${file}: "paper" needs "cite" and "url"`);
  const intro = o.intro ?? [];
  if (!Array.isArray(intro) || !intro.every(isStr)) throw new Error(`${file}: "intro" must be a list of paragraphs`);
  if (!Array.isArray(o.steps) || o.steps.length === 0) throw new Error(`${file}: "steps" must be a non-empty list`);
  const steps = o.steps.map((s: unknown, k: number): LessonStep => {
    const where = `${file}, step ${k + 1}`;
    if (!isObj(s)) throw new Error(`${where}: a step is an object`);
    for (const f of ['title', 'do', 'look', 'lookText', 'question', 'answer'])
      if (!isStr(s[f])) throw new Error(`${where}: "${f}" must be a non-empty string`);
    const actions = s.actions ?? [];
    if (!Array.isArray(actions)) throw new Error(`${where}: "actions" must be a list`);
    const problems: string[] = [...(stepProblems.get(k) ?? [])];
    const parsed = actions.map((a, j) => parseAction(a, `${where}, action ${j + 1}`, problems));
    const good = parsed.filter((a): a is LessonAction => a !== null);
    const runnable = problems.length === 0;
    const look = s.look as string;
    const target = isTargetName(look) ? look : null;
    if (!target)
      problems.push(`${where}, "look": ${nameText(look)} is not a target the page has (lessons/catalogue.ts); nothing is outlined`);
    return {
      title: s.title as string,
      do: s.do as string,
      button: isStr(s.button) ? s.button : undefined,
      actions: good,
      look,
      target,
      lookText: s.lookText as string,
      question: s.question as string,
      answer: s.answer as string,
      problems,
      runnable,
    };
  });
  const problems: string[] = [];
  const link = safeHttpUrl(paper.url, CHECK_BASE);
  if (!(link instanceof URL)) problems.push(`${file}: "paper.url" ${link.error}: the paper is shown without a link`);
  for (const s of steps) problems.push(...s.problems);
  return {
    id,
    title,
    order,
    params: params as Record<string, string>,
    paper: { cite: paper.cite, url: paper.url },
    intro,
    steps,
    problems,
    migratedFrom,
  };
}

/** Reads every lesson file (`{ path: json }`), sorted by `order` then title; files that do not
 * parse are left out and named in `errors`. Ids must be unique. */
export function loadLessons(files: Record<string, unknown>): { lessons: Lesson[]; errors: string[] } {
  const lessons: Lesson[] = [];
  const errors: string[] = [];
  for (const [path, json] of Object.entries(files)) {
    const name = path.split('/').pop() ?? path;
    try {
      const l = parseLesson(json, name);
      if (lessons.some((x) => x.id === l.id)) throw new Error(`${name}: another lesson has the id "${l.id}"`);
      lessons.push(l);
    } catch (e) {
      errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  lessons.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
  return { lessons, errors };
}

/** The states and targets that carry the exact solver's verdict in Compare (its line, the panes'
 * lines against it, its ✓/✗ on the pane boards). */
const VERDICT_STATES: readonly StateName[] = ['compare.exact', 'compare.solved'];
const VERDICT_TARGETS: readonly TargetName[] = ['compare.exact', 'compare.truth'];

/** Whether step `s` asks for the exact solver's verdict: it waits for the solve, or points at its
 * line or the panes' lines against it. Until such a step runs (or the reader reveals it), a lesson
 * that has one keeps the verdict hidden, so that an earlier question ("can you tell which move is
 * right?") is not answered on screen before it is asked. */
export function revealsVerdict(s: Pick<LessonStep, 'actions' | 'target'>): boolean {
  if (s.target !== null && VERDICT_TARGETS.includes(s.target)) return true;
  return s.actions.some((a) => 'waitFor' in a && VERDICT_STATES.some((k) => k in a.waitFor));
}
