// The lesson file format (docs.html, "Writing a lesson"): one JSON file per lesson in
// www/src/lessons/data/, read at build time. A lesson is a position and configuration (URL
// parameters), a paper, a short introduction and numbered steps; each step says what to do (with a
// button that does it: a list of actions on the page), what to look at (an element highlighted on
// screen), and one question with its answer folded away.
//
// `parseLesson` checks a file and names what is wrong in it, so that a teacher's typo shows as a
// sentence on the page, not as a broken page. No DOM here (unit-tested in Node).
//
// A file that does not read is left out (named in `errors`). A lesson that reads but has a part
// that cannot work keeps the rest and names that part in `problems`, shown on its card: a paper
// `url` that is not an http(s) or relative URL (`lib/safe-url.ts`: a `javascript:` link would run
// the file author's script in the reader's page) is shown as text without a link; a CSS selector
// (an action's or `look`) that does not parse is named with its step, and a step whose action has
// one gets no working button (it could only fail). Selectors are checked by the `isSelector`
// function the caller gives (the page: `querySelector` on an empty fragment), so this file needs
// no DOM.

import { safeHttpUrl } from '../lib/safe-url';

/** One thing the step's button does, in order:
 * - `{ "click": "SELECTOR" }`: wait until the element exists and is enabled, then click it;
 * - `{ "set": "SELECTOR", "value": "TEXT" }`: set a field (input, select) and fire its change;
 * - `{ "waitFor": "SELECTOR" }`: wait until an element matches (e.g. a state the page sets:
 *   `#step[data-phase=\"Playout\"]`, `body[data-analysis=\"done\"]`, `#compare[data-state=\"done\"]`);
 * - `{ "focus": "SELECTOR" }`: move the keyboard focus to the element (e.g. a Pentago twist
 *   button, which previews its twist);
 * - `{ "key": "KEY" }`: press a key on the page (e.g. `Escape`). */
export type LessonAction = { click: string } | { set: string; value: string } | { waitFor: string } | { focus: string } | { key: string };

export interface LessonStep {
  /** A few words: the step's heading. */
  title: string;
  /** What to do, in a sentence or two. */
  do: string;
  /** The button's label (default "Do it"); omitted with no actions. */
  button?: string | undefined;
  /** What the button does. */
  actions: LessonAction[];
  /** A CSS selector of what to look at: highlighted when the step is done. */
  look: string;
  /** What to look at, in words. */
  lookText: string;
  /** One question to think about, and its answer (folded away). */
  question: string;
  answer: string;
  /** What in this step cannot work (sentences naming the step and the selector). */
  problems: string[];
  /** False when an action's selector does not parse: the button could only fail. */
  runnable: boolean;
}

/** True when `selector` is a CSS selector the browser can match (the page's check: `querySelector`
 * on an empty fragment, which throws a SyntaxError for one it cannot parse). */
export type SelectorCheck = (selector: string) => boolean;

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
}

/** Relative paper URLs are checked against this base (any http(s) base: only the scheme of the
 * resolved URL is judged here); the page resolves them against its own address. */
const CHECK_BASE = 'https://lesson.invalid/';

const isStr = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

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

function parseAction(v: unknown, where: string): LessonAction {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`${where}: an action is an object such as {"click": "#an-run"}`);
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && isStr(o.click)) return { click: o.click };
  if (keys.length === 1 && isStr(o.waitFor)) return { waitFor: o.waitFor };
  if (keys.length === 1 && isStr(o.key)) return { key: o.key };
  if (keys.length === 1 && isStr(o.focus)) return { focus: o.focus };
  if (keys.length === 2 && isStr(o.set) && typeof o.value === 'string') return { set: o.set, value: o.value };
  throw new Error(`${where}: unknown action ${preview(v)} (expected click, set + value, waitFor, focus or key)`);
}

/** The selector an action acts on (none for `key`). */
function actionSelector(a: LessonAction): [kind: string, selector: string] | null {
  if ('click' in a) return ['click', a.click];
  if ('set' in a) return ['set', a.set];
  if ('waitFor' in a) return ['waitFor', a.waitFor];
  if ('focus' in a) return ['focus', a.focus];
  return null;
}

/** Checks one lesson file; throws a sentence naming the field that is wrong. With `isSelector`,
 * the step's selectors are checked too (a bad one is named in the step's and the lesson's
 * `problems`). */
export function parseLesson(v: unknown, file = 'lesson', isSelector?: SelectorCheck): Lesson {
  if (typeof v !== 'object' || v === null) throw new Error(`${file}: a lesson is a JSON object`);
  const o = v as Record<string, unknown>;
  const need = (k: string) => {
    if (!isStr(o[k])) throw new Error(`${file}: "${k}" must be a non-empty string`);
    return o[k] as string;
  };
  const id = need('id');
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`${file}: "id" may hold only a-z, 0-9 and -`);
  const title = need('title');
  const order = typeof o.order === 'number' && Number.isFinite(o.order) ? o.order : 100;
  const params = o.params ?? {};
  if (typeof params !== 'object' || params === null || Object.values(params).some((x) => typeof x !== 'string'))
    throw new Error(`${file}: "params" must map URL parameters to strings`);
  const paper = o.paper as Record<string, unknown> | undefined;
  if (!paper || !isStr(paper.cite) || !isStr(paper.url)) throw new Error(`${file}: "paper" needs "cite" and "url"`);
  const intro = o.intro ?? [];
  if (!Array.isArray(intro) || !intro.every(isStr)) throw new Error(`${file}: "intro" must be a list of paragraphs`);
  if (!Array.isArray(o.steps) || o.steps.length === 0) throw new Error(`${file}: "steps" must be a non-empty list`);
  const steps = o.steps.map((s: unknown, k: number): LessonStep => {
    const where = `${file}, step ${k + 1}`;
    if (typeof s !== 'object' || s === null) throw new Error(`${where}: a step is an object`);
    const x = s as Record<string, unknown>;
    for (const f of ['title', 'do', 'look', 'lookText', 'question', 'answer'])
      if (!isStr(x[f])) throw new Error(`${where}: "${f}" must be a non-empty string`);
    const actions = x.actions ?? [];
    if (!Array.isArray(actions)) throw new Error(`${where}: "actions" must be a list`);
    const parsed = actions.map((a, j) => parseAction(a, `${where}, action ${j + 1}`));
    const look = x.look as string;
    const problems: string[] = [];
    let runnable = true;
    const bad = (sel: string) => `${JSON.stringify(sel.length > 80 ? `${sel.slice(0, 80)}…` : sel)} is not a valid CSS selector`;
    if (isSelector) {
      parsed.forEach((a, j) => {
        const sel = actionSelector(a);
        if (sel && !isSelector(sel[1])) {
          problems.push(`${where}, action ${j + 1} (${sel[0]}): ${bad(sel[1])}; the step's button is off`);
          runnable = false;
        }
      });
      if (!isSelector(look)) problems.push(`${where}, "look": ${bad(look)}; nothing is outlined`);
    }
    return {
      title: x.title as string,
      do: x.do as string,
      button: isStr(x.button) ? x.button : undefined,
      actions: parsed,
      look,
      lookText: x.lookText as string,
      question: x.question as string,
      answer: x.answer as string,
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
  };
}

/** Reads every lesson file (`{ path: json }`), sorted by `order` then title; files that do not
 * parse are left out and named in `errors`. Ids must be unique. `isSelector`: as for `parseLesson`. */
export function loadLessons(files: Record<string, unknown>, isSelector?: SelectorCheck): { lessons: Lesson[]; errors: string[] } {
  const lessons: Lesson[] = [];
  const errors: string[] = [];
  for (const [path, json] of Object.entries(files)) {
    const name = path.split('/').pop() ?? path;
    try {
      const l = parseLesson(json, name, isSelector);
      if (lessons.some((x) => x.id === l.id)) throw new Error(`${name}: another lesson has the id "${l.id}"`);
      lessons.push(l);
    } catch (e) {
      errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  lessons.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
  return { lessons, errors };
}
