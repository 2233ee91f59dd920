// Property (fuzz-style) test of the lesson-file parser: random values, the shipped lessons with
// random structural mutations, and their JSON text with random character edits (the ones that
// still parse) are fed to `parseLesson` and `loadLessons`. Properties: `loadLessons` never throws;
// `parseLesson` either returns a well-formed lesson or throws a plain `Error` whose message starts
// with the file's name (a TypeError or RangeError from inside the parser would be a bug); every
// message is one bounded sentence; a lesson's paper link is http(s) or relative, or named in its
// problems.
//
// Deterministic by default (seed 1, 3,000 inputs per kind: part of `vitest run`). `bash
// scripts/fuzz.sh SECONDS lessons` runs it for SECONDS with a fresh seed (LESSON_FUZZ_SEED,
// LESSON_FUZZ_SECONDS; or LESSON_FUZZ_RUNS inputs per kind). A failure names the seed and the
// input; replay it with LESSON_FUZZ_SEED=<n> npx vitest run src/lessons/format.fuzz.test.ts.
// This is random testing, not coverage-guided like the cargo-fuzz targets.

import { describe, expect, it } from 'vitest';
import { safeHttpUrl } from '../lib/safe-url';
import { isIntentName, isStateName, isTargetName } from './catalogue';
import { type Lesson, loadLessons, parseLesson } from './format';

const SEED = Number(process.env.LESSON_FUZZ_SEED ?? 1) >>> 0;
const RUNS = Math.max(1, Number(process.env.LESSON_FUZZ_RUNS ?? 3000) | 0);
/** With LESSON_FUZZ_SECONDS, each of the three kinds runs for a third of it (a budget, not a
 * check) instead of RUNS inputs. */
const SECONDS = Math.max(0, Number(process.env.LESSON_FUZZ_SECONDS ?? 0) || 0);
const budget = () => Date.now() + (SECONDS * 1000) / 3;
const more = (i: number, until: number) => (SECONDS > 0 ? Date.now() < until : i < RUNS);
const FILE = 'fuzz.json';
const MAX_MESSAGE = 600;
/** A generous bound per test (a loaded machine, or a long run from fuzz.sh, is only slower). */
const BOUND_MS = 3_600_000 + SECONDS * 1000;

const shipped = Object.values(import.meta.glob('./data/*.json', { eager: true, import: 'default' })) as unknown[];
/** Version-1 files as they were (converted on load by migrate.ts). */
const v1 = Object.values(import.meta.glob('./fixtures/*-v1.json', { eager: true, import: 'default' })) as unknown[];

/** mulberry32: a small seeded generator, so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'id',
  'title',
  'order',
  'params',
  'paper',
  'cite',
  'url',
  'intro',
  'steps',
  'do',
  'button',
  'actions',
  'look',
  'lookText',
  'question',
  'answer',
  'version',
  'intent',
  'args',
  'waitFor',
  'atLeast',
  'includes',
  'not',
  'compare.state',
  'step.iteration',
  'review.moves',
  'preset',
  'budget',
  'click',
  'set',
  'value',
  'focus',
  'key',
  '__proto__',
  'constructor',
  'toString',
  '',
];
const STRINGS = [
  '',
  ' ',
  'start',
  'a-b-1',
  'Bad Id',
  '#an-run',
  '#an-run[',
  'body[data-analysis="done"]',
  'compare.run',
  'analysis.run',
  'compare.state',
  'done',
  'step.path',
  'compare.panes',
  'div >> p',
  'javascript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  '\u0001javascript:x',
  'java\tscript:x',
  'data:text/html,<script>alert(1)</script>',
  'https://doi.org/10.1/x',
  '../paper.pdf',
  '//evil.example/x',
  'http://[::1',
  '<img src=x onerror=alert(1)>',
  '__proto__',
  'Escape',
  '\u0000',
  '\ud800',
  'é🙂',
];

class Gen {
  constructor(readonly r: () => number) {}
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  string(): string {
    const k = this.int(10);
    if (k < 6) return this.pick(STRINGS);
    if (k < 8) return this.pick(STRINGS) + this.pick(STRINGS);
    if (k < 9) return String.fromCharCode(...Array.from({ length: this.int(20) }, () => this.int(0x3000)));
    return 'x'.repeat(this.int(5000));
  }
  value(depth = 0): unknown {
    const k = this.int(depth > 3 ? 6 : 9);
    switch (k) {
      case 0:
        return null;
      case 1:
        return this.r() < 0.5;
      case 2:
        return this.pick([0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY]);
      case 3:
      case 4:
      case 5:
        return this.string();
      case 6:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let i = this.int(5); i > 0; i--)
          Object.defineProperty(o, this.pick(KEYS), { value: this.value(depth + 1), enumerable: true, configurable: true, writable: true });
        return o;
      }
    }
  }
  /** A value nested `n` deep (arrays or objects), as JSON.parse makes from a deep file. */
  deep(n: number): unknown {
    let v: unknown = '#an-run';
    for (let i = 0; i < n; i++) v = this.r() < 0.5 ? [v] : this.r() < 0.5 ? { waitFor: v } : { intent: 'compare.run', args: v };
    return v;
  }
}

/** Every (container, key) pair in a JSON tree, for mutations. */
function slots(v: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []) {
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push([v, i]);
      slots(x, out);
    });
  else if (typeof v === 'object' && v !== null)
    for (const k of Object.keys(v)) {
      out.push([v as Record<string, unknown>, k]);
      slots((v as Record<string, unknown>)[k], out);
    }
  return out;
}

function mutate(g: Gen, lesson: unknown): unknown {
  const root = structuredClone(lesson);
  for (let m = 1 + g.int(4); m > 0; m--) {
    const all = slots(root);
    if (!all.length) break;
    const [box, key] = g.pick(all);
    const b = box as Record<string | number, unknown>;
    switch (g.int(7)) {
      case 0:
        if (Array.isArray(box)) box.splice(key as number, 1);
        else delete b[key];
        break;
      case 1:
        b[key] = g.value();
        break;
      case 2:
        b[key] = g.string();
        break;
      case 3: // an own key the vocabulary knows, as JSON.parse would add it (even `__proto__`)
        if (typeof b[key] === 'object' && b[key] !== null && !Array.isArray(b[key]))
          Object.defineProperty(b[key], g.pick(KEYS), { value: g.value(), enumerable: true, configurable: true, writable: true });
        break;
      case 4:
        b[key] = Array.isArray(b[key]) ? [] : typeof b[key] === 'object' && b[key] !== null ? {} : [b[key]];
        break;
      case 5:
        b[key] = g.deep(1 + g.int(30));
        break;
      default:
        if (Array.isArray(box)) box.push(structuredClone(box[key as number]));
        else b[key] = structuredClone(b[g.pick(Object.keys(b))]);
    }
  }
  return root;
}

function editText(g: Gen, text: string): string {
  const chars = [...text];
  for (let m = 1 + g.int(3); m > 0; m--) {
    const at = g.int(chars.length + 1);
    const k = g.int(3);
    if (k === 0) chars.splice(at, 1);
    else if (k === 1) chars.splice(at, 0, g.pick(['"', ',', ':', '[', ']', '{', '}', '\\', 'x', ' ', '0', '-']));
    else chars.splice(at, 1, g.pick(['"', 'a', '1', 'null', 'true', '[]', '{}']));
  }
  return chars.join('');
}

function checkLesson(l: Lesson): void {
  expect(l.id).toMatch(/^[a-z0-9-]+$/);
  for (const s of [l.title, l.paper.cite, l.paper.url]) expect(typeof s).toBe('string');
  expect(Number.isFinite(l.order)).toBe(true);
  expect(l.steps.length).toBeGreaterThan(0);
  for (const v of Object.values(l.params)) expect(typeof v).toBe('string');
  for (const s of l.steps) {
    for (const f of [s.title, s.do, s.look, s.lookText, s.question, s.answer]) expect(typeof f).toBe('string');
    for (const a of s.actions) {
      if ('intent' in a) {
        expect(isIntentName(a.intent)).toBe(true);
        for (const v of Object.values(a.args)) expect(['string', 'number']).toContain(typeof v);
      } else for (const k of Object.keys(a.waitFor)) expect(isStateName(k)).toBe(true);
    }
    for (const p of s.problems) expect(l.problems).toContain(p);
    if (s.target === null) expect(s.problems.join()).toContain('"look"');
    else expect(isTargetName(s.target)).toBe(true);
  }
  if (!(safeHttpUrl(l.paper.url, 'https://page.example/') instanceof URL)) expect(l.problems.join()).toContain('"paper.url"');
  for (const p of l.problems) expect(p.length).toBeLessThanOrEqual(MAX_MESSAGE);
}

function feed(input: unknown, describeInput: () => string): void {
  try {
    let lesson: Lesson | null = null;
    try {
      lesson = parseLesson(input, FILE);
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
      if ((e as Error).constructor !== Error)
        throw new Error(`the parser threw ${String(e)}; ${(e as Error).stack?.split('\n')[1]?.trim()}`);
      expect((e as Error).message.startsWith(`${FILE}`)).toBe(true);
      expect((e as Error).message.length).toBeLessThanOrEqual(MAX_MESSAGE);
    }
    if (lesson) checkLesson(lesson);
    const r = loadLessons({ [`data/${FILE}`]: input });
    expect(r.lessons.length + r.errors.length).toBe(1);
    for (const e of r.errors) expect(e.startsWith(FILE)).toBe(true);
  } catch (e) {
    throw new Error(`seed ${SEED}: ${(e as Error).message}\ninput: ${describeInput()}`);
  }
}

const show = (v: unknown) => {
  try {
    return JSON.stringify(v)?.slice(0, 2000) ?? String(v);
  } catch (e) {
    return `(not printable: ${(e as Error).message})`;
  }
};

describe(`lesson parser fuzz (seed ${SEED}, ${SECONDS > 0 ? `${SECONDS} s` : `${RUNS} inputs per kind`})`, () => {
  it(
    'random values',
    () => {
      const g = new Gen(rng(SEED));
      for (let i = 0, until = budget(); more(i, until); i++) {
        const v = g.value();
        feed(v, () => show(v));
      }
    },
    BOUND_MS,
  );
  it(
    'the shipped lessons, mutated',
    () => {
      const g = new Gen(rng(SEED ^ 0x5eed));
      for (let i = 0, until = budget(); more(i, until); i++) {
        const v = mutate(g, g.pick(shipped));
        feed(v, () => show(v));
      }
    },
    BOUND_MS,
  );
  it(
    'version-1 lessons, mutated (converted on load)',
    () => {
      const g = new Gen(rng(SEED ^ 0x0001));
      for (let i = 0, until = budget(); more(i, until); i++) {
        const v = mutate(g, g.pick(v1));
        feed(v, () => show(v));
      }
    },
    BOUND_MS,
  );
  it(
    'the shipped lessons as JSON text, edited (the edits that still parse)',
    () => {
      const g = new Gen(rng(SEED ^ 0x7e47));
      const texts = shipped.map((l) => JSON.stringify(l));
      for (let i = 0, until = budget(); more(i, until); i++) {
        const text = editText(g, g.pick(texts));
        let v: unknown;
        try {
          v = JSON.parse(text);
        } catch {
          continue;
        }
        feed(v, () => text.slice(0, 2000));
      }
    },
    BOUND_MS,
  );
  it(
    'a deeply nested action (as JSON.parse makes from a deep file)',
    () => {
      const g = new Gen(rng(SEED));
      const deep = JSON.parse(`${'{"waitFor":'.repeat(50_000)}"#x"${'}'.repeat(50_000)}`);
      const step = (shipped[0] as { steps: Record<string, unknown>[] }).steps[0]!;
      const v = { ...(shipped[0] as object), steps: [{ ...step, actions: [deep, g.deep(100_000)] }] };
      feed(v, () => 'a lesson whose first action is nested 50,000 deep');
    },
    BOUND_MS,
  );
});
