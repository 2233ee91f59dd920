import { describe, expect, it } from 'vitest';
import { FakeEngine } from '../testing/fake-engine';
import { type ArenaForm, ArenaController, defaultOpenings, formProblems } from './controller';

const FORM: ArenaForm = {
  spec: 'hex:3',
  presetA: 'rave',
  presetB: 'uct',
  setA: 'c=0.5',
  setB: '',
  games: '6',
  budget: '200',
  unit: 'iterations',
  seed: '9',
  workers: '2',
  openings: true,
};

function setup(prepare: (e: FakeEngine) => void = () => {}) {
  const workers: FakeEngine[] = [];
  let clock = 0;
  const c = new ArenaController({
    presets: () => ['uct', 'rave', 'best', 'alphazero'],
    newEngine: () => {
      const e = new FakeEngine();
      prepare(e);
      workers.push(e);
      return e;
    },
    now: () => (clock += 100),
  });
  return { c, workers };
}

describe('ArenaController', () => {
  it('a form with problems is not played, in the URL’s sentences', async () => {
    const { c, workers } = setup();
    await c.play({ ...FORM, setA: 'c', games: '0', workers: '9' });
    expect(c.state.get().state).toBe('invalid');
    expect(c.state.get().status.text).toMatch(/^Not started: parameters of A: expected key=value, got 'c'; games.*; workers/);
    expect(workers).toHaveLength(0);
    expect(formProblems(FORM)).toEqual([]);
    // Values are typed before a game is asked for: one of the wrong type is named, as the engine would.
    expect(formProblems({ ...FORM, setA: 'c=abc', setB: 'solver=maybe' })).toEqual([
      "configuration A: c must be a number, not 'abc'",
      "configuration B: solver must be true or false, not 'maybe'",
    ]);
  });

  it('plays every game once across the workers, with the seed, the budget and the openings, and ends with the result', async () => {
    const { c, workers } = setup();
    await c.play(FORM);
    const s = c.state.get();
    expect(s.state).toBe('done');
    expect(workers).toHaveLength(2);
    const games = workers.flatMap((w) => w.requests.filter((r) => r.type === 'arenaGame').map((r) => r.game as { index: number }));
    expect(games.map((g) => g.index).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(games[0]).toMatchObject({
      spec: 'hex:3',
      a: { preset: 'rave', params: { c: 0.5 } },
      b: { preset: 'uct', params: {} },
      iterations: 200,
      millis: null,
      seed: 9,
      openings: true,
    });
    expect(workers.every((w) => w.dead)).toBe(true);
    expect(s.played).toBe(6);
    expect(s.history.map((p) => p.games)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.standings?.games).toBe(6);
    const r = s.result!;
    expect(r).toMatchObject({
      game: 'hex:3',
      a: 'rave',
      b: 'uct',
      set_a: ['c=0.5'],
      set_b: [],
      iterations: 200,
      ms: null,
      seed: 9,
      openings: 'all',
    });
    expect(r.records.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.status.text).toMatch(/^Done: 6 games in [\d.]+ s .*2 workers\)\. A 3–0–3, win rate of A 50\.0%\./);
    expect(s.memoryCapped).toBe(0);
  });

  it('never more workers than games; a time budget is per move in milliseconds', async () => {
    const { c, workers } = setup();
    await c.play({ ...FORM, games: '1', workers: '8', unit: 'millis', budget: '50' });
    expect(workers).toHaveLength(1);
    expect(workers[0]!.requests[0]).toMatchObject({ game: { iterations: null, millis: 50 } });
  });

  it('a network preset without a net: the match is played again with a net-free preset, and the status says so', async () => {
    const { c, workers } = setup();
    await c.play({ ...FORM, presetA: 'alphazero' });
    const s = c.state.get();
    expect(s.fallback).toEqual({ preset: 'best', a: 'best', b: 'uct' });
    expect(s.state).toBe('done');
    expect(s.result?.a).toBe('best');
    expect(s.status.text).toMatch(/^alphazero needs a trained network and none ships for hex:3: playing with best instead\. Done: 6 games/);
    // The first match's workers, then the second's.
    expect(workers).toHaveLength(4);
  });

  it('an engine error stops the match and names the game', async () => {
    const { c } = setup((e) => e.failNext('arenaGame', 'the game is wrong'));
    await c.play(FORM);
    expect(c.state.get().state).toBe('failed');
    expect(c.state.get().status.text).toMatch(/^The arena stopped: game \d: the game is wrong$/);
    expect(c.state.get().result).toBeNull();
  });

  it('Stop ends the workers; the games played so far stay and the status says it stopped', async () => {
    const { c, workers } = setup((e) => e.hold('arenaGame'));
    const run = c.play(FORM);
    c.stop();
    await run;
    const s = c.state.get();
    expect(s.state).toBe('stopped');
    expect(s.status.text).toMatch(/^Stopped\. Playing 6 games of hex:3 on balanced openings in 2 workers…$/);
    expect(workers.every((w) => w.dead)).toBe(true);
    expect(s.result).toBeNull();
  });

  it('balanced openings are the default for Hex without the swap rule only', () => {
    expect(defaultOpenings('hex:7')).toBe(true);
    expect(defaultOpenings('hex')).toBe(true);
    expect(defaultOpenings('hex:7:swap')).toBe(false);
    expect(defaultOpenings('tictactoe')).toBe(false);
  });
});
