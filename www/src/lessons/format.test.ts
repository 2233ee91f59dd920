import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARAMS } from '../generated/schema';
import { PANE_PARAMS } from '../lib/pane-params';
import { INTENTS, STATES, TARGETS } from './catalogue';
import { LESSON_VERSION, loadLessons, parseLesson, revealsVerdict } from './format';
import { migrateV1 } from './migrate';

const files = import.meta.glob('./data/*.json', { eager: true, import: 'default' });
const v1files = import.meta.glob('./fixtures/*-v1.json', { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;
const v1 = (name: string) => structuredClone(v1files[`./fixtures/${name}-v1.json`]!);

const step = {
  title: 'Run',
  do: 'Press Analyse.',
  actions: [{ intent: 'analysis.run', args: { preset: 'rave', budget: 2000 } }, { waitFor: { 'analysis.state': 'done' } }],
  look: 'analysis.internals',
  lookText: 'the table',
  question: 'Why?',
  answer: 'Because.',
};
const minimal = {
  version: 2,
  id: 'mine',
  title: 'My lesson',
  paper: { cite: 'Someone 2024', url: 'https://example.org/paper' },
  steps: [step],
};
const withStep = (s: Record<string, unknown>) => ({ ...minimal, steps: [{ ...step, ...s }] });

describe('the shipped lessons', () => {
  it('are all version 2 and read, with unique ids, Start here first, each step with a button, a target and a question', () => {
    for (const [path, json] of Object.entries(files)) expect((json as { version: unknown }).version, path).toBe(LESSON_VERSION);
    const { lessons, errors } = loadLessons(files);
    expect(errors).toEqual([]);
    const ids = lessons.map((l) => l.id);
    expect(ids[0]).toBe('start');
    for (const id of [
      'ucb1',
      'rave',
      'decisive',
      'lgr',
      'solver',
      'pentago-twist',
      'puct-prior',
      'alphazero-train',
      'alphazero-hex7',
      'which-policy',
      'rave-connect4',
    ])
      expect(ids).toContain(id);
    for (const l of lessons) {
      expect(l.migratedFrom).toBeNull();
      expect(l.paper.url).toMatch(/^https:\/\//);
      expect(l.problems).toEqual([]);
      for (const s of l.steps) {
        expect(s.runnable).toBe(true);
        expect(s.actions.length).toBeGreaterThan(0);
        expect(s.target).not.toBeNull();
      }
    }
    expect(lessons.find((l) => l.id === 'start')!.steps.map((s) => s.title)).toEqual([
      'Select',
      'Expand',
      'Simulate (playout)',
      'Back up',
      'Choose the move',
    ]);
  });
  it('name no CSS selector: no "#", "[" or "." in an intent, a state or a target', () => {
    const text = JSON.stringify(
      Object.values(files).map((l) => (l as { steps: { actions: unknown; look: unknown }[] }).steps.map((s) => [s.actions, s.look])),
    );
    expect(text).not.toMatch(/"#|\[data-|"\.[a-z]/);
  });
});

describe('parseLesson (version 2)', () => {
  it('reads a minimal lesson with defaults', () => {
    const l = parseLesson(minimal, 'mine.json');
    expect(l.order).toBe(100);
    expect(l.params).toEqual({});
    expect(l.migratedFrom).toBeNull();
    expect(l.steps[0]!.button).toBeUndefined();
    expect(l.steps[0]!.actions).toEqual(step.actions);
    expect(l.steps[0]!.target).toBe('analysis.internals');
    expect(l.problems).toEqual([]);
  });
  it('names the file, the step and the field that is wrong (the file is not read)', () => {
    expect(() => parseLesson({ ...minimal, id: 'My Lesson' }, 'x.json')).toThrow('x.json: "id" may hold only a-z, 0-9 and -');
    expect(() => parseLesson({ ...minimal, paper: { cite: 'x' } }, 'x.json')).toThrow('"paper" needs "cite" and "url"');
    expect(() => parseLesson(withStep({ question: '' }), 'x.json')).toThrow('x.json, step 1: "question" must be a non-empty string');
    expect(() => parseLesson(withStep({ actions: [{ press: 'x' }] }), 'x.json')).toThrow(
      'x.json, step 1, action 1: unknown action {"press": "x"} (expected {"intent": …, "args": {…}} or {"waitFor": {…}})',
    );
    expect(() => parseLesson(withStep({ actions: [{ waitFor: {} }] }), 'x.json')).toThrow(
      /step 1, action 1: "waitFor" must be an object naming states/,
    );
    expect(() => parseLesson(withStep({ actions: [{ intent: 'compare.run', args: [1] }] }), 'x.json')).toThrow(
      'x.json, step 1, action 1: "args" must be an object of named arguments',
    );
  });
  it('refuses a version it does not know, saying which it reads', () => {
    expect(() => parseLesson({ ...minimal, version: 3 }, 'x.json')).toThrow(
      'x.json: "version" 3 is not a lesson format this page reads (2, or 1, converted on load)',
    );
    expect(() => parseLesson({ ...minimal, version: '2' }, 'x.json')).toThrow('"version" "2" is not a lesson format');
  });
  it('keeps a lesson that names what the page does not have, naming each in its step; that step’s button is off', () => {
    const l = parseLesson(
      {
        ...minimal,
        steps: [
          step,
          { ...step, actions: [{ intent: 'compare.runn' }] },
          { ...step, actions: [{ waitFor: { 'compare.stat': 'done' } }] },
          { ...step, actions: [{ waitFor: { 'compare.state': 'don' } }] },
          { ...step, actions: [{ intent: 'step.run', args: { iterations: '10' } }] },
          { ...step, actions: [{ intent: 'step.run', args: {} }] },
          { ...step, actions: [{ intent: 'compare.run', args: { budget: 1 } }] },
          { ...step, actions: [{ waitFor: { 'step.iteration': { atLeast: 'x' } } }] },
          { ...step, look: '#internals' },
        ],
      },
      'x.json',
    );
    expect(l.steps.map((s) => s.runnable)).toEqual([true, false, false, false, false, false, false, false, true]);
    expect(l.problems).toEqual([
      `x.json, step 2, action 1: unknown intent "compare.runn" (the page's intents are listed in lessons/catalogue.ts and docs.html); the step's button is off`,
      `x.json, step 3, action 1: unknown state "compare.stat" (the page's states are listed in lessons/catalogue.ts and docs.html); the step's button is off`,
      `x.json, step 4, action 1: state compare.state is one of "", "invalid", "running", "done", "stopped", not "don"; the step's button is off`,
      `x.json, step 5, action 1: step.run's argument "iterations" is a number, not "10"; the step's button is off`,
      `x.json, step 6, action 1: step.run needs the argument iterations; the step's button is off`,
      `x.json, step 7, action 1: compare.run has no argument "budget" (it takes none); the step's button is off`,
      `x.json, step 8, action 1: state step.iteration {"atLeast": N} needs a number, not "x"; the step's button is off`,
      `x.json, step 9, "look": "#internals" is not a target the page has (lessons/catalogue.ts); nothing is outlined`,
    ]);
    expect(l.steps[8]!.target).toBeNull();
  });
  it('keeps a lesson whose paper URL is not http(s) or relative, naming the URL as a problem', () => {
    for (const url of [
      'javascript:alert(document.domain)',
      ' JaVaScRiPt:alert(1)',
      '\x01javascript:alert(1)',
      'java\tscript:x',
      'data:text/html,x',
    ]) {
      const l = parseLesson({ ...minimal, paper: { cite: 'Someone 2024', url } }, 'x.json');
      expect(l.steps.length).toBe(1);
      expect(l.problems).toHaveLength(1);
      expect(l.problems[0]).toMatch(
        /^x\.json: "paper\.url" ".*" has the scheme (javascript|data): \(only http:, https: and relative URLs are allowed\): the paper is shown without a link$/,
      );
    }
    for (const url of ['https://doi.org/10.1/x', 'http://example.org/p.pdf', 'papers/p.pdf', '../p.pdf'])
      expect(parseLesson({ ...minimal, paper: { cite: 'x', url } }, 'x.json').problems).toEqual([]);
  });
  it('leaves out a broken file and a duplicate id, naming them', () => {
    const r = loadLessons({ 'a/one.json': minimal, 'a/two.json': minimal, 'a/three.json': { version: 2, id: 'x' } });
    expect(r.lessons.map((l) => l.id)).toEqual(['mine']);
    expect(r.errors).toEqual(['two.json: another lesson has the id "mine"', 'three.json: "title" must be a non-empty string']);
  });
  // compare.setPane takes every parameter a Compare pane has (lib/pane-params.ts), typed as the
  // engine's schema says; before, a hand list left out save_bridge, prior and progressive_bias.
  it('compare.setPane takes the pane’s parameters, typed by the schema', () => {
    const args = INTENTS['compare.setPane'].args as Readonly<Record<string, { type: string; values?: readonly string[] }>>;
    expect(Object.keys(args)).toEqual(['pane', 'preset', ...PANE_PARAMS, 'budget']);
    for (const k of PANE_PARAMS) {
      const want = { number: 'number', integer: 'number', boolean: 'boolean', enum: 'string' }[PARAMS[k].type];
      expect(args[k]!.type, k).toBe(want);
    }
    expect(args.prior!.values).toEqual(PARAMS.prior.values);
    const l = parseLesson(
      {
        ...minimal,
        steps: [
          {
            ...step,
            actions: [{ intent: 'compare.setPane', args: { pane: 1, save_bridge: true, prior: 'patterns', progressive_bias: 2.47 } }],
          },
          { ...step, actions: [{ intent: 'compare.setPane', args: { pane: 1, save_bridge: 'yes' } }] },
          { ...step, actions: [{ intent: 'compare.setPane', args: { pane: 1, prior: 'oracle' } }] },
        ],
      },
      'x.json',
    );
    expect(l.steps.map((s) => s.runnable)).toEqual([true, false, false]);
    expect(l.steps[0]!.actions[0]).toEqual({
      intent: 'compare.setPane',
      args: { pane: 1, save_bridge: true, prior: 'patterns', progressive_bias: 2.47 },
    });
    expect(l.problems).toEqual([
      `x.json, step 2, action 1: compare.setPane's argument "save_bridge" is a boolean, not "yes"; the step's button is off`,
      `x.json, step 3, action 1: compare.setPane's argument "prior" is one of "uniform", "tactical", "net", "patterns", not "oracle"; the step's button is off`,
    ]);
  });

  it('every name in the catalogue has a description, and every intent argument a type', () => {
    for (const [k, s] of Object.entries(STATES)) expect(s.doc.length, k).toBeGreaterThan(0);
    for (const [k, i] of Object.entries(INTENTS))
      for (const a of Object.values(i.args)) expect(['string', 'number', 'boolean'], k).toContain(a.type);
    for (const [k, t] of Object.entries(TARGETS)) expect(t.length, k).toBeGreaterThan(0);
  });
});

describe('docs.html, "Writing a lesson"', () => {
  it('names every intent (with its arguments), state and target of the catalogue', () => {
    const html = readFileSync(join(__dirname, '..', '..', 'docs.html'), 'utf8');
    const table = html.slice(
      html.indexOf('<table id="lesson-names">'),
      html.indexOf('</table>', html.indexOf('<table id="lesson-names">')),
    );
    const named = new Set([...table.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]));
    const missing: string[] = [];
    for (const [k, i] of Object.entries(INTENTS)) {
      if (!named.has(k)) missing.push(`intent ${k}`);
      for (const a of Object.keys(i.args)) if (!named.has(a)) missing.push(`argument ${a} of ${k}`);
    }
    for (const k of Object.keys(STATES)) if (!named.has(k)) missing.push(`state ${k}`);
    // The quadrants are named once, with their letters.
    for (const k of Object.keys(TARGETS))
      if (!named.has(k) && !/^board\.quadrant\.(TR|BL|BR)$|^compare\.pane\.[23]$/.test(k)) missing.push(`target ${k}`);
    expect(missing).toEqual([]);
  });
});

describe('version 1 (CSS selectors), converted on load', () => {
  it('a version-1 file still loads: its selectors become intents, states and targets', () => {
    const l = parseLesson(v1('start'), 'start.json');
    expect(l.migratedFrom).toBe(1);
    expect(l.problems).toEqual([]);
    // Step 1: the fields set before a click become the arguments of its intent.
    expect(l.steps[0]!.actions).toEqual([
      { intent: 'step.new', args: { preset: 'uct', seed: 1 } },
      { waitFor: { 'step.iteration': 0 } },
      { intent: 'step.run', args: { iterations: 10 } },
      { waitFor: { 'step.iteration': 10 } },
      { intent: 'step.phase', args: {} },
      { waitFor: { 'step.iteration': 11, 'step.phase': 'Selection' } },
    ]);
    expect(l.steps.map((s) => s.target)).toEqual(['step.path', 'step.table', 'step.board', 'step.table', 'step.tree']);
    expect(l.steps[2]!.actions[2]).toEqual({ waitFor: { 'step.playoutDone': true } });
  });
  it('the review, hint and Pentago selectors', () => {
    const lgr = parseLesson(v1('lgr'), 'lgr.json');
    expect(lgr.problems).toEqual([]);
    expect(lgr.steps[1]!.actions).toEqual([
      { intent: 'review.live', args: {} },
      { intent: 'game.hint', args: {} },
      { waitFor: { 'game.hints': { atLeast: 1 } } },
      { intent: 'game.playHint', args: {} },
      { waitFor: { 'review.moves': { includes: 4 } } },
      { intent: 'review.open', args: { move: 4 } },
      { waitFor: { 'analysis.lgrReplies': { atLeast: 1 } } },
    ]);
    expect(lgr.steps[2]!.actions).toEqual([{ intent: 'review.live', args: {} }, { waitFor: { review: null } }]);
    const pt = parseLesson(v1('pentago-twist'), 'pentago-twist.json');
    expect(pt.problems).toEqual([]);
    expect(pt.steps.map((s) => s.actions)).toEqual([
      [{ intent: 'board.place', args: { cell: 'a2' } }, { waitFor: { 'board.pending': { not: null } } }],
      [{ intent: 'board.previewTwist', args: { twist: 'TL-cw' } }, { waitFor: { 'board.preview': 'TL-cw' } }],
      [
        { intent: 'board.twist', args: { twist: 'TL-cw' } },
        { waitFor: { 'review.moves': { includes: 2 } } },
        { intent: 'review.open', args: { move: 2 } },
      ],
    ]);
    expect(pt.steps.map((s) => s.target)).toEqual(['board.twists', 'board.quadrant.TL', 'board']);
    const ucb1 = parseLesson(v1('ucb1'), 'ucb1.json');
    expect(ucb1.steps[1]!.actions[0]).toEqual({ intent: 'compare.setPane', args: { pane: 1, c: 1.4 } });
    expect(ucb1.steps[1]!.target).toBe('compare.pane.1');
  });
  it('the shipped files are what the conversion gives (no hand edits to their actions)', () => {
    for (const name of ['start', 'lgr', 'pentago-twist', 'ucb1']) {
      const shipped = files[`./data/${name}.json`] as { steps: { actions: unknown; look: unknown }[] };
      const m = migrateV1(v1(name), `${name}.json`);
      expect(m.stepProblems.size).toBe(0);
      const steps = m.lesson.steps as { actions: unknown; look: unknown }[];
      expect(steps.map((s) => [s.actions, s.look])).toEqual(shipped.steps.map((s) => [s.actions, s.look]));
    }
  });
  it('a selector with no version-2 equivalent is named with its step; that step’s button is off, the rest works', () => {
    const old = v1('start');
    const steps = old.steps as Record<string, unknown>[];
    steps[0]!.actions = [{ click: '#st-new[' }, { key: 'Escape' }, { set: '#an-preset', value: 'rave' }];
    steps[1]!.look = '#step .st-right:nope';
    const l = parseLesson(old, 'start.json');
    expect(l.steps.map((s) => s.runnable)).toEqual([false, true, true, true, true]);
    expect(l.problems).toEqual([
      `start.json, step 1, action 1 (version 1 click): "#st-new[" has no version-2 equivalent; the step's button is off`,
      `start.json, step 1, action 2 (version 1 key): "Escape" has no version-2 equivalent; the step's button is off`,
      `start.json, step 1: the fields preset are set for a click on "#an-run" that never comes; the step's button is off`,
      `start.json, step 2, "look": "#step .st-right:nope" is not a target the page has (lessons/catalogue.ts); nothing is outlined`,
    ]);
  });
  it('a malformed version-1 file is named as a version-2 one would be', () => {
    const old = v1('start');
    (old.steps as Record<string, unknown>[])[0]!.actions = [{ press: '#x' }];
    expect(() => parseLesson(old, 'start.json')).toThrow(/start\.json, step 1, action 1: unknown action \{"press": "#x"\}/);
    expect(() => parseLesson({ ...v1('start'), steps: 'none' }, 'start.json')).toThrow('start.json: "steps" must be a non-empty list');
  });
});

describe('revealsVerdict', () => {
  const first = (s: Record<string, unknown>) => parseLesson(withStep(s), 'x.json').steps[0]!;
  it('is true for a step that waits for the exact solve or points at its line or the panes’ lines', () => {
    expect(revealsVerdict(first({ actions: [{ waitFor: { 'compare.exact': 'proven' } }] }))).toBe(true);
    expect(revealsVerdict(first({ actions: [{ waitFor: { 'compare.state': 'done', 'compare.solved': true } }] }))).toBe(true);
    expect(revealsVerdict(first({ look: 'compare.truth' }))).toBe(true);
    expect(revealsVerdict(first({ look: 'compare.exact' }))).toBe(true);
  });
  it('is false for a step that runs the panes and looks at them (the question comes before the verdict)', () => {
    expect(
      revealsVerdict(
        first({ actions: [{ intent: 'compare.run', args: {} }, { waitFor: { 'compare.state': 'done' } }], look: 'compare.panes' }),
      ),
    ).toBe(false);
    expect(revealsVerdict(first({}))).toBe(false);
  });
  it('in the shipped which-policy lesson: step 1 asks before the verdict, step 2 reveals it', () => {
    const l = loadLessons(files).lessons.find((x) => x.id === 'which-policy')!;
    // Step 6 (one seed, or eight?) reads the spread of when each pane found the proven move.
    expect(l.steps.map(revealsVerdict)).toEqual([false, true, true, true, false, true]);
  });
  it('in the shipped rave-connect4 lesson: step 1 asks which search is right before the verdict, step 2 reveals it', () => {
    const l = loadLessons(files).lessons.find((x) => x.id === 'rave-connect4')!;
    // Step 4 (AMAF against Q) reads the analysis; step 5 the spread of when each pane found e.
    expect(l.steps.map(revealsVerdict)).toEqual([false, true, true, false, true]);
  });
});
