// The lesson runner without a browser: a registry with fake features (a store each, their intents),
// and lesson steps run against it — a step fires its intent, waits for the state, advances.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../lib/store';
import { LessonRegistry } from './registry';
import { type LessonAction, parseLesson } from './format';
import { describeCondition, holds, matches, runActions } from './runner';

afterEach(() => {
  vi.useRealTimers();
});

/** A fake Compare: Run all starts a run that ends when `finish()` is called. */
function fakeCompare(b: LessonRegistry<string>) {
  const store = createStore({ state: '' as string, budget: '50000' });
  const calls: string[] = [];
  b.watch(store);
  b.state('compare.state', () => store.get().state);
  b.intent('compare.run', () => {
    calls.push(`run at ${store.get().budget}`);
    store.update({ state: 'running' });
  });
  b.intent('compare.set', (a) => {
    calls.push(`set ${JSON.stringify(a)}`);
    if (a.budget !== undefined) store.update({ budget: String(a.budget) });
  });
  b.target('compare.panes', () => ['<the panes>']);
  return { store, calls, finish: () => store.update({ state: 'done' }) };
}

describe('runActions', () => {
  it('fires the intent, waits for the state, then goes on', async () => {
    const b = new LessonRegistry<string>();
    const c = fakeCompare(b);
    const actions: LessonAction[] = [
      { intent: 'compare.set', args: { budget: 3000 } },
      { intent: 'compare.run', args: {} },
      { waitFor: { 'compare.state': 'done' } },
    ];
    let finished = false;
    const run = runActions(actions, b).then(() => {
      finished = true;
    });
    // The run starts (the store says so); the runner waits for its end.
    await new Promise<void>((ok) => {
      const off = c.store.subscribe((st) => {
        if (st.state !== 'running') return;
        off();
        ok();
      });
    });
    expect(c.calls).toEqual(['set {"budget":3000}', 'run at 3000']);
    expect(finished).toBe(false);
    c.finish();
    await run;
    expect(finished).toBe(true);
    expect(b.find('compare.panes')).toEqual(['<the panes>']);
  });

  it('a condition that holds already does not wait; every part of a condition must hold', async () => {
    const b = new LessonRegistry<string>();
    const step = createStore({ iteration: 11, phase: 'Selection' });
    b.watch(step);
    b.state('step.iteration', () => step.get().iteration);
    b.state('step.phase', () => step.get().phase);
    await runActions([{ waitFor: { 'step.iteration': 11, 'step.phase': 'Selection' } }], b);
    expect(holds(b, { 'step.iteration': 11, 'step.phase': 'Expansion' })).toBe(false);
    const waiting = runActions([{ waitFor: { 'step.iteration': 11, 'step.phase': 'Expansion' } }], b);
    step.update({ phase: 'Expansion' });
    await waiting;
  });

  it('waits for a feature that mounts later (the Train view) before triggering its intent', async () => {
    const b = new LessonRegistry<string>();
    const started: unknown[] = [];
    const run = runActions([{ intent: 'train.start', args: {} }], b);
    await Promise.resolve();
    expect(started).toEqual([]);
    b.intent('train.start', (a) => started.push(a));
    await run;
    expect(started).toEqual([{}]);
  });

  it('an intent the page refuses fails the step with its reason, naming the action', async () => {
    const b = new LessonRegistry<string>();
    b.intent('analysis.run', () => {
      throw new Error('Back to the live position to analyse it');
    });
    await expect(runActions([{ intent: 'analysis.run', args: {} }], b)).rejects.toThrow(
      'action 1 (analysis.run): Back to the live position to analyse it',
    );
  });

  it('gives up after its time with a sentence saying what it waited for and what the state is', async () => {
    vi.useFakeTimers();
    const b = new LessonRegistry<string>();
    const c = fakeCompare(b);
    const run = runActions([{ intent: 'compare.run', args: {} }, { waitFor: { 'compare.state': 'done' } }], b, { timeoutMs: 5000 });
    const failed = expect(run).rejects.toThrow('action 2: waited 5 s in vain for compare.state = "done" (now compare.state is "running")');
    await vi.advanceTimersByTimeAsync(5000);
    await failed;
    expect(c.calls).toEqual(['run at 50000']);
  });

  it('names a state no feature registered', async () => {
    vi.useFakeTimers();
    const b = new LessonRegistry<string>();
    const run = runActions([{ waitFor: { 'train.state': 'done' } }], b, { timeoutMs: 1000 });
    const failed = expect(run).rejects.toThrow('now train.state is not on the page (no feature registered it)');
    await vi.advanceTimersByTimeAsync(1000);
    await failed;
  });
});

describe('conditions', () => {
  it('match a value, at least a number, a list that includes a number, anything but a value', () => {
    expect(matches('done', 'done')).toBe(true);
    expect(matches(null, null)).toBe(true);
    expect(matches(undefined, null)).toBe(false);
    expect(matches(3, { atLeast: 2 })).toBe(true);
    expect(matches(1, { atLeast: 2 })).toBe(false);
    expect(matches('3', { atLeast: 2 })).toBe(false);
    expect(matches([2, 4], { includes: 4 })).toBe(true);
    expect(matches([2], { includes: 4 })).toBe(false);
    expect(matches('a2', { not: null })).toBe(true);
    expect(matches(null, { not: null })).toBe(false);
    expect(describeCondition({ 'compare.state': 'done', 'review.moves': { includes: 2 }, 'board.pending': { not: null } })).toBe(
      'compare.state = "done" and review.moves includes 2 and board.pending ≠ null',
    );
  });
});

describe('a shipped lesson against fake features', () => {
  it('Start here runs its five steps on a fake step-through: each step fires its intent and waits for the iteration and phase', async () => {
    const files = import.meta.glob('./data/start.json', { eager: true, import: 'default' });
    const lesson = parseLesson(files['./data/start.json'], 'start.json');
    const b = new LessonRegistry<string>();
    const PHASES = ['Selection', 'Expansion', 'Playout', 'Backpropagation'];
    // A step-through whose requests answer later (after the intent has returned), as a worker does.
    const s = createStore({ iteration: null as number | null, phase: 3, session: '', playoutDone: false });
    const later = (f: () => void) => queueMicrotask(f);
    const log: string[] = [];
    b.watch(s);
    b.state('step.iteration', () => s.get().iteration);
    b.state('step.phase', () => (s.get().iteration ? PHASES[s.get().phase] : ''));
    b.state('step.playoutDone', () => s.get().playoutDone);
    b.intent('step.new', (a) => {
      log.push(`new ${a.preset} seed ${a.seed}`);
      later(() => s.update({ iteration: 0, phase: 3, session: String(a.preset) }));
    });
    b.intent('step.phase', () => {
      const { iteration, phase } = s.get();
      const next = phase === 3 ? { iteration: (iteration ?? 0) + 1, phase: 0 } : { iteration, phase: phase + 1 };
      later(() => s.update({ ...next, playoutDone: false }));
      // The playout is drawn move by move, then done.
      if (next.phase === 2) later(() => later(() => s.update({ playoutDone: true })));
    });
    b.intent('step.run', (a) => later(() => s.update({ iteration: (s.get().iteration ?? 0) + Number(a.iterations), phase: 3 })));
    for (const t of ['step.path', 'step.table', 'step.board', 'step.tree'] as const) b.target(t, () => [t]);
    const seen: string[] = [];
    for (const step of lesson.steps) {
      await runActions(step.actions, b);
      seen.push(`${s.get().iteration} ${PHASES[s.get().phase]} → ${b.find(step.target!)[0]}`);
    }
    expect(log).toEqual(['new uct seed 1']);
    expect(seen).toEqual([
      '11 Selection → step.path',
      '11 Expansion → step.table',
      '11 Playout → step.board',
      '11 Backpropagation → step.table',
      '111 Backpropagation → step.tree',
    ]);
  });
});
