// The Train panel's figures, without DOM (unit-tested in Node): the settings form read into the
// engine's `TrainConfig` fields with the same sentences as the URL's parameters, games per second,
// W/D/L text, and the first iteration at which the raw policy lost no game to perfect play.

import type { MatchWdl, TrainIteration, TrainSettings } from '../protocol';
import { MAX_SEED, wholeInRange } from '../share/url';

/** The fields of the form, as typed. */
export interface TrainForm {
  iterations: string;
  games: string;
  playouts: string;
  steps: string;
  lr: string;
  seed: string;
  /** λ, the weight of the exact targets (0–1), read only with `exact`. */
  mix: string;
  /** Train with exact targets (the checkbox; absent: off). */
  exact?: boolean;
}

/** The form's defaults: the shipped Tic-Tac-Toe net's run (models/README.md: 40 games of 64
 * playouts and 100 Adam steps per iteration, learning rate 0.002, seed 1), 20 iterations (800
 * self-play games; research saw the raw policy stop losing to perfect play after 350–550);
 * exact targets off, λ 0.5 when ticked (the engine's default). */
export const TRAIN_DEFAULTS: TrainForm = {
  iterations: '20',
  games: '40',
  playouts: '64',
  steps: '100',
  lr: '0.002',
  seed: '1',
  mix: '0.5',
};

/** Every setting the panel sends besides the form: the ~20k-parameter net (18 → 128 → 128 →
 * 9 + 1), minibatches of 128 rows, and an evaluation of 20 games (colours alternating) of the
 * raw policy and of the net's 16-playout search against perfect play per iteration. */
export const TRAIN_FIXED = { game: 'tictactoe', hidden: [128, 128], batch: 128, eval_games: 20, eval_playouts: 16 } as const;

/** The settings from the form, or the sentences naming each field out of range. */
export function readTrainForm(f: TrainForm): { settings: TrainSettings } | { errors: string[] } {
  const errors: string[] = [];
  const whole = (name: string, v: string, min: number, max: number): number => {
    const r = wholeInRange(name, v, min, max);
    if (r.error) errors.push(r.error);
    return r.value ?? min;
  };
  const iterations = whole('iterations', f.iterations, 1, 1000);
  const games = whole('games per iteration', f.games, 1, 2000);
  const playouts = whole('playouts per move', f.playouts, 1, 2000);
  const steps = whole('Adam steps per iteration', f.steps, 1, 10_000);
  const seed = whole('seed', f.seed, 0, MAX_SEED);
  const lr = Number(f.lr.trim());
  if (!/^\d*\.?\d+(e-?\d+)?$/i.test(f.lr.trim()) || !(lr > 0 && lr <= 0.1)) {
    errors.push(`learning rate=${f.lr}: expected a number above 0 and at most 0.1 (e.g. 0.002)`);
  }
  const mix = Number(f.mix.trim());
  if (f.exact && (!/^\d*\.?\d+$/.test(f.mix.trim()) || !(mix >= 0 && mix <= 1))) {
    errors.push(`exact targets λ=${f.mix}: expected a number from 0 to 1 (e.g. 0.5)`);
  }
  if (errors.length) return { errors };
  const settings: TrainSettings = { ...TRAIN_FIXED, hidden: [...TRAIN_FIXED.hidden], iterations, games, playouts, steps, lr, seed };
  if (f.exact) settings.exact_targets = { mix, policy: 'uniform' };
  return { settings };
}

/** Self-play games per second of training time (self-play, learning and evaluation together). */
export function gamesPerSecond(games: number, trainMs: number): number {
  return trainMs > 0 ? (games * 1000) / trainMs : 0;
}

/** `wins/draws/losses`, e.g. `0/16/4`. */
export function wdl(m: MatchWdl): string {
  return `${m.wins}/${m.draws}/${m.losses}`;
}

/** The first iteration whose raw policy lost none of its evaluation games (with at least one
 * game), or null. */
export function firstUnbeaten(reports: readonly TrainIteration[]): TrainIteration | null {
  for (const r of reports) {
    const t = r.raw.total;
    if (t.wins + t.draws + t.losses > 0 && t.losses === 0) return r;
  }
  return null;
}
