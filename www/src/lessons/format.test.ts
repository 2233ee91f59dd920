import { describe, expect, it } from 'vitest';
import { loadLessons, parseLesson } from './format';

const files = import.meta.glob('./data/*.json', { eager: true, import: 'default' });

const minimal = {
  id: 'mine',
  title: 'My lesson',
  paper: { cite: 'Someone 2024', url: 'https://example.org/paper' },
  steps: [
    {
      title: 'Run',
      do: 'Press Analyse.',
      actions: [{ click: '#an-run' }],
      look: '#internals',
      lookText: 'the table',
      question: 'Why?',
      answer: 'Because.',
    },
  ],
};

describe('the shipped lessons', () => {
  it('all read, with unique ids, Start here first, each step with a button, an outline and a question', () => {
    const { lessons, errors } = loadLessons(files);
    expect(errors).toEqual([]);
    const ids = lessons.map((l) => l.id);
    expect(ids[0]).toBe('start');
    for (const id of ['ucb1', 'rave', 'decisive', 'lgr', 'solver', 'pentago-twist', 'puct-prior', 'alphazero-train', 'which-policy'])
      expect(ids).toContain(id);
    for (const l of lessons) {
      expect(l.paper.url).toMatch(/^https:\/\//);
      expect(l.problems).toEqual([]);
      for (const s of l.steps) {
        expect(s.actions.length).toBeGreaterThan(0);
        expect(s.look.length).toBeGreaterThan(0);
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
});

describe('parseLesson', () => {
  it('reads a minimal lesson with defaults', () => {
    const l = parseLesson(minimal, 'mine.json');
    expect(l.order).toBe(100);
    expect(l.params).toEqual({});
    expect(l.steps[0]!.button).toBeUndefined();
    expect(l.steps[0]!.actions).toEqual([{ click: '#an-run' }]);
  });
  it('names the file, the step and the field that is wrong', () => {
    expect(() => parseLesson({ ...minimal, id: 'My Lesson' }, 'x.json')).toThrow('x.json: "id" may hold only a-z, 0-9 and -');
    expect(() => parseLesson({ ...minimal, paper: { cite: 'x' } }, 'x.json')).toThrow('"paper" needs "cite" and "url"');
    const badStep = { ...minimal, steps: [{ ...minimal.steps[0], question: '' }] };
    expect(() => parseLesson(badStep, 'x.json')).toThrow('x.json, step 1: "question" must be a non-empty string');
    const badAction = { ...minimal, steps: [{ ...minimal.steps[0], actions: [{ press: '#x' }] }] };
    expect(() => parseLesson(badAction, 'x.json')).toThrow(/step 1, action 1: unknown action/);
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
  it('checks every selector with the given check: a bad one is named with its step, and its button is off', () => {
    // The page's check is querySelector on an empty fragment (lessons.ts, the browser test); here,
    // a stand-in that knows three selectors the browser refuses.
    const BAD = new Set(['#an-run[', 'div >> p', '1abc']);
    const isSelector = (sel: string) => !BAD.has(sel);
    const step = minimal.steps[0]!;
    const lesson = {
      ...minimal,
      steps: [
        step,
        { ...step, actions: [{ set: '#an-budget', value: '5' }, { click: '#an-run[' }, { key: 'Escape' }, { waitFor: 'div >> p' }] },
        { ...step, look: '1abc' },
      ],
    };
    const l = parseLesson(lesson, 'x.json', isSelector);
    expect(l.steps.map((s) => s.runnable)).toEqual([true, false, true]);
    expect(l.steps[0]!.problems).toEqual([]);
    expect(l.steps[1]!.problems).toEqual([
      `x.json, step 2, action 2 (click): "#an-run[" is not a valid CSS selector; the step's button is off`,
      `x.json, step 2, action 4 (waitFor): "div >> p" is not a valid CSS selector; the step's button is off`,
    ]);
    expect(l.steps[2]!.problems).toEqual([`x.json, step 3, "look": "1abc" is not a valid CSS selector; nothing is outlined`]);
    expect(l.problems).toEqual([...l.steps[1]!.problems, ...l.steps[2]!.problems]);
    // loadLessons passes the check on; without one, nothing is judged.
    expect(loadLessons({ 'd/x.json': lesson }, isSelector).lessons[0]!.problems).toHaveLength(3);
    expect(parseLesson(lesson, 'x.json').problems).toEqual([]);
  });
  it('leaves out a broken file and a duplicate id, naming them', () => {
    const r = loadLessons({ 'a/one.json': minimal, 'a/two.json': minimal, 'a/three.json': { id: 'x' } });
    expect(r.lessons.map((l) => l.id)).toEqual(['mine']);
    expect(r.errors).toEqual(['two.json: another lesson has the id "mine"', 'three.json: "title" must be a non-empty string']);
  });
});
