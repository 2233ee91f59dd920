// The Arena's controller: Play checks the form (with the URL's sentences), then plays the match —
// configuration A against B for a number of games, colours alternating, optionally on balanced
// openings — in up to 8 workers, each game the engine's own `arena::play_game` with seeds derived
// from (seed, game index), and the standings after every game the engine's `arena::Standings`.
// A network preset without a usable net plays the match again with a net-free preset. Its state
// (`ArenaState`: status line, standings and their history, games, the result for the downloads)
// is a store of its own that the view (arena.ts) draws. No DOM: unit-tested in Node with a fake
// engine.

import { EngineDied, EngineError, type EngineClient } from '../engine';
import { LIMITS } from '../generated/schema';
import { count, winRate } from '../lib/format';
import { createStore, type Store } from '../lib/store';
import { fallbackMessage, isNoNetError, NET_PRESETS, netFreeFallback } from '../play/net-fallback';
import type { EngineSettings, GameRecord, Standings } from '../protocol';
import { MAX_SEED, wholeInRange } from '../share/url';
import { parseSets, roundedElo } from './figures';

/** The JSON download: the shape of `mcts arena --json` (the standings plus the match settings). */
export interface ArenaResult extends Standings {
  game: string;
  a: string;
  b: string;
  set_a: string[];
  set_b: string[];
  iterations: number | null;
  ms: number | null;
  seed: number;
  /** `all` (every first move, colours swapped) or `none`, as `mcts arena --openings`. */
  openings: 'all' | 'none';
  seconds: number;
  records: GameRecord[];
}

/** The Arena's form as typed. */
export interface ArenaForm {
  spec: string;
  presetA: string;
  presetB: string;
  setA: string;
  setB: string;
  games: string;
  budget: string;
  unit: 'iterations' | 'millis';
  seed: string;
  workers: string;
  openings: boolean;
}

/** The win rate of A after a number of games, with its 95% interval (the chart's points). */
export interface HistoryPoint {
  games: number;
  rate: number;
  lo: number;
  hi: number;
}

export interface ArenaState {
  state: '' | 'invalid' | 'running' | 'done' | 'failed' | 'stopped';
  /** The status line (a new object for every sentence). */
  status: { text: string };
  /** Games of the match, and games played. */
  games: number;
  played: number;
  standings: Standings | null;
  history: readonly HistoryPoint[];
  records: readonly GameRecord[];
  /** The game and openings of the match on show. */
  match: { spec: string; openings: boolean } | null;
  result: ArenaResult | null;
  /** The net-free preset a network preset was replaced by, and the presets then played. */
  fallback: { preset: string; a: string; b: string } | null;
  /** Games in which a search tree reached the memory cap (null before a match ends). */
  memoryCapped: number | null;
}

export type ArenaEngine = Pick<EngineClient, 'arenaGame' | 'arenaStandings' | 'terminate'>;

export interface ArenaDeps {
  presets(): string[];
  newEngine(): ArenaEngine;
  now(): number;
}

/** Hex without the swap rule (`hex`, `hex:N`): a first-player win, so its matches default to
 * balanced openings, as `mcts arena` does. */
export function defaultOpenings(gameSpec: string): boolean {
  return /^hex(:\d+)?$/i.test(gameSpec.trim());
}

/** The problems of a form, in the URL's sentences (empty: it can be played). */
export function formProblems(f: ArenaForm): string[] {
  const a = parseSets(f.setA);
  const b = parseSets(f.setB);
  return [
    a.error ? `parameters of A: ${a.error}` : null,
    b.error ? `parameters of B: ${b.error}` : null,
    ...a.problems.map((p) => `configuration A: ${p}`),
    ...b.problems.map((p) => `configuration B: ${p}`),
    wholeInRange('games', f.games, 1, 10_000).error,
    f.unit === 'iterations'
      ? wholeInRange('iterations/move', f.budget, 1, 100_000_000).error
      : wholeInRange('ms/move', f.budget, 1, 3_600_000, 'ms').error,
    wholeInRange('seed', f.seed, 0, MAX_SEED).error,
    wholeInRange('workers', f.workers, 1, 8).error,
  ].filter((x): x is string => !!x);
}

export class ArenaController {
  readonly state: Store<ArenaState>;
  private clients: ArenaEngine[] = [];
  private generation = 0;

  constructor(private readonly deps: ArenaDeps) {
    this.state = createStore<ArenaState>({
      state: '',
      status: { text: 'Pick two configurations and press Play.' },
      games: 0,
      played: 0,
      standings: null,
      history: [],
      records: [],
      match: null,
      result: null,
      fallback: null,
      memoryCapped: null,
    });
  }

  private status(text: string): void {
    this.state.update({ status: { text } });
  }

  /** Plays the match of `form` (`retried`: the second time, with a net-free preset). */
  async play(form: ArenaForm, retried = false): Promise<void> {
    const problems = formProblems(form);
    if (problems.length) {
      this.state.update({ status: { text: `Not started: ${problems.join('; ')}.` }, state: 'invalid' });
      return;
    }
    this.stop();
    const gen = ++this.generation;
    const a = parseSets(form.setA);
    const b = parseSets(form.setB);
    const spec = form.spec.trim();
    const n = Math.max(1, Math.min(10000, Math.round(Number(form.games) || 1)));
    const amount = Math.max(1, Number(form.budget) || 1);
    const iterations = form.unit === 'iterations' ? Math.round(amount) : null;
    const millis = form.unit === 'millis' ? amount : null;
    const seed = Math.max(0, Math.round(Number(form.seed) || 0));
    const w = Math.max(1, Math.min(8, Math.round(Number(form.workers) || 1), n));
    const engA: EngineSettings = { preset: form.presetA, params: a.params };
    const engB: EngineSettings = { preset: form.presetB, params: b.params };
    const t0 = this.deps.now();
    let next = 0;
    let failure: string | null = null;
    let standings: Standings | null = null;
    let netError: string | null = null;
    const records: GameRecord[] = [];
    const history: HistoryPoint[] = [];
    this.clients = Array.from({ length: w }, () => this.deps.newEngine());
    this.state.update({
      state: 'running',
      match: { spec, openings: form.openings },
      games: n,
      played: 0,
      standings: null,
      history: [],
      records: [],
      result: null,
      status: { text: `Playing ${n} games of ${form.spec}${form.openings ? ' on balanced openings' : ''} in ${w} workers…` },
    });
    const loop = async (c: ArenaEngine) => {
      while (gen === this.generation && failure === null) {
        const index = next++;
        if (index >= n) return;
        try {
          const rec = await c.arenaGame({ spec, a: engA, b: engB, iterations, millis, seed, index, openings: form.openings });
          if (gen !== this.generation) return;
          records.push(rec);
          const s = await c.arenaStandings(records.slice());
          if (gen !== this.generation) return;
          if (!standings || s.games >= standings.games) standings = s;
          history.push({ games: s.games, rate: s.win_rate, lo: s.win_rate_ci95[0], hi: s.win_rate_ci95[1] });
          history.sort((x, y) => x.games - y.games);
          const secs = (this.deps.now() - t0) / 1000;
          this.state.update({
            standings,
            history: [...history],
            records: [...records],
            played: records.length,
            status: {
              text: `${records.length} of ${n} games played in ${w} workers · ${(records.length / Math.max(secs, 1e-3)).toFixed(2)} games/s · ${secs.toFixed(1)} s`,
            },
          });
        } catch (e) {
          if (e instanceof EngineDied && gen !== this.generation) return;
          if (e instanceof EngineError && isNoNetError(e.message)) netError ??= e.message;
          failure = `game ${index}: ${e instanceof Error ? e.message : String(e)}`;
        }
      }
    };
    await Promise.all(this.clients.map(loop));
    if (gen !== this.generation) return;
    for (const c of this.clients) c.terminate('the arena is over');
    this.clients = [];
    const fb = netError ? netFreeFallback(this.deps.presets()) : null;
    if (netError && fb && !retried) {
      // A network preset without a usable net: the match is played again from game 0 with a
      // net-free preset in its place (every game of a match has the same configurations).
      const notes: string[] = [];
      const swap = (p: string) => {
        if (!NET_PRESETS.includes(p)) return p;
        notes.push(fallbackMessage(p, spec, fb, netError!));
        return fb;
      };
      const again = { ...form, presetA: swap(form.presetA), presetB: swap(form.presetB) };
      this.state.update({ fallback: { preset: fb, a: again.presetA, b: again.presetB } });
      await this.play(again, true);
      this.status(`${notes.join(' ')} ${this.state.get().status.text}`);
      return;
    }
    if (failure) {
      this.state.update({ status: { text: `The arena stopped: ${failure}` }, state: 'failed' });
      return;
    }
    this.finish(form, { a, b, engA, engB, iterations, millis, seed, n, w, t0, records, standings: standings! });
  }

  /** The match is over: its result (the JSON download's shape) and the status line. */
  private finish(
    form: ArenaForm,
    m: {
      a: ReturnType<typeof parseSets>;
      b: ReturnType<typeof parseSets>;
      engA: EngineSettings;
      engB: EngineSettings;
      iterations: number | null;
      millis: number | null;
      seed: number;
      n: number;
      w: number;
      t0: number;
      records: GameRecord[];
      standings: Standings;
    },
  ): void {
    const { n, w, standings: s } = m;
    const records = [...m.records].sort((x, y) => x.index - y.index);
    const result: ArenaResult = {
      game: form.spec.trim(),
      a: m.engA.preset,
      b: m.engB.preset,
      set_a: m.a.sets,
      set_b: m.b.sets,
      iterations: m.iterations,
      ms: m.millis,
      seed: m.seed,
      openings: form.openings ? 'all' : 'none',
      games: s.games,
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
      win_rate: s.win_rate,
      win_rate_ci95: s.win_rate_ci95,
      // Elo to 0.1, as `mcts arena --json` writes it.
      ...roundedElo(s),
      a_first_games: s.a_first_games,
      a_first_wins: s.a_first_wins,
      a_first_draws: s.a_first_draws,
      a_first_losses: s.a_first_losses,
      a_second_games: s.a_second_games,
      a_second_wins: s.a_second_wins,
      a_second_draws: s.a_second_draws,
      a_second_losses: s.a_second_losses,
      first_player_wins: s.first_player_wins,
      second_player_wins: s.second_player_wins,
      seconds: (this.deps.now() - m.t0) / 1000,
      records,
    };
    let text = `Done: ${count(n)} games in ${result.seconds.toFixed(1)} s (${(n / Math.max(result.seconds, 1e-3)).toFixed(2)} games/s, ${w} workers). A ${s.wins}–${s.draws}–${s.losses}, win rate of A ${winRate(s.win_rate)}.`;
    // Trees held at a cap played on with the tree they had: say so, the cap being the reason.
    const capped = records.filter((r) => r.tree_cap === 'memory_cap').length;
    if (capped)
      text += ` In ${count(capped)} of ${count(n)} games a search tree reached the engine's memory cap (memory_cap_mib; ${LIMITS.PAGE_MEMORY_CAP_MIB} MiB per worker by default): it was kept and stopped growing.`;
    this.state.update({ result, status: { text }, memoryCapped: capped, state: 'done' });
  }

  /** Stop: every worker ends; the games played so far stay on show. */
  stop(): void {
    this.generation++;
    for (const c of this.clients) c.terminate('stopped by the person');
    this.clients = [];
    if (this.state.get().state === 'running')
      this.state.update({ state: 'stopped', status: { text: `Stopped. ${this.state.get().status.text}` } });
  }
}
