// Judging one move with the engine's review core (src/report/review.rs `judge_move`, the same
// search, solve and classes as `mcts review`), on a worker of its own: the teaching game points
// out a person's mistake at once (KaTrain's teaching mode), and "Learn from your mistakes" builds
// on the same judge. Pure parts (the teaching threshold, the notice's words) and the `MoveJudge`
// (one worker kept while teaching is on, stale judgements dropped by epoch). No DOM.

import { winRate } from '../lib/format';
import { CLASS_GLYPH, EXACT_GLYPH, displayName } from './marks';
import type { ReviewClass, ReviewPly, ReviewSettings } from './report';

/** The teaching game's settings (the URL's `teach=`): off, or the least class pointed out. */
export const TEACH_LEVELS = ['off', 'inaccuracy', 'mistake', 'blunder'] as const;
export type TeachLevel = (typeof TEACH_LEVELS)[number];

/** The words of each level in the control ("Teaching: point out mistakes"). */
export const TEACH_LEVEL_WORDS: Record<TeachLevel, string> = {
  off: 'off',
  inaccuracy: 'point out inaccuracies',
  mistake: 'point out mistakes',
  blunder: 'point out blunders',
};

/** Playouts of each of the two positions' searches of a judgement. A small budget, as KaTrain's
 * teaching mode judges a move with its ordinary quick analysis (KaTrain `config.json`
 * `engine.max_visits` 500 visits, not a deep review) so that the game flows; 2,000 playouts is the
 * page review's smallest choice (app/game-review.ts `REVIEW_PLAYOUTS`). */
export const TEACH_PLAYOUTS = 2_000;
/** The exact solver's budget per position of a judgement, milliseconds: enough for every
 * Tic-Tac-Toe position and small Hex boards, short enough not to hold the game up. */
export const TEACH_SOLVE_MS = 300;
/** The judgements' seed (as the review's, 0): a judged ply equals that ply of `mcts review
 * --iterations 2000 --solve-ms 300 --seed 0 --preset P`. */
export const TEACH_SEED = 0;

/** The settings of a judgement with `preset` (the engine side's, as the review's). */
export function teachSettings(preset: string): ReviewSettings {
  return { preset, iterations: TEACH_PLAYOUTS, ms: null, solve_ms: TEACH_SOLVE_MS, seed: TEACH_SEED };
}

/** The teaching level a URL value names, or null (unknown; `off` is a level). Accepts the
 * plural (`mistakes`) too. */
export function parseTeachLevel(v: string): TeachLevel | null {
  const w = v.trim().toLowerCase();
  const plural: Record<string, TeachLevel> = { inaccuracies: 'inaccuracy', mistakes: 'mistake', blunders: 'blunder' };
  if ((TEACH_LEVELS as readonly string[]).includes(w)) return w as TeachLevel;
  return plural[w] ?? null;
}

const RANK: Record<ReviewClass, number> = { best: 0, good: 1, inaccuracy: 2, mistake: 3, blunder: 4 };

/** Whether the teaching game at `level` points out the judged move: its class is at least the
 * level's, or it made a proven value worse (`won → lost`, `won → drawn`, `drawn → lost`: always a
 * blunder by the review's exact overrides). Never when teaching is off. */
export function pointsOut(ply: ReviewPly, level: TeachLevel): boolean {
  if (level === 'off') return false;
  if (ply.label !== null) return true;
  return RANK[ply.class] >= RANK[level];
}

/** What the notice says about a judged move, in the page's value language (win rates in percent
 * for the player who chose the move, lib/format.ts). */
export interface NoticeText {
  /** The move and its glyph: `a2??✗`, `c4?`. */
  move: string;
  /** `Blunder (drawn → lost, proven)`, `Mistake`. */
  headline: string;
  /** The mover's win rate before → after and the drop in points, e.g. `O's win rate 50.0% → 0.0%
   * (−50 points).` */
  drop: string;
  /** The best move, with its proven value when there is one: `Best was a1 (keeps the draw,
   * proven).`; empty when the move played was the best. */
  best: string;
}

/** The notice's words for a judged move. */
export function noticeText(ply: ReviewPly): NoticeText {
  const exact = ply.class === 'blunder' && ply.label !== null;
  const glyph = exact ? EXACT_GLYPH : ply.class in CLASS_GLYPH ? CLASS_GLYPH[ply.class as keyof typeof CLASS_GLYPH] : '';
  const word = ply.class[0]!.toUpperCase() + ply.class.slice(1);
  const headline = exact ? `${word} (${ply.label}, proven)` : word;
  const points = Math.round(Math.max(0, ply.value_before - ply.value_after) * 1000) / 10;
  const drop = `${displayName(ply.mover)}’s win rate ${winRate(ply.value_before)} → ${winRate(ply.value_after)} (−${points} points).`;
  let best = '';
  if (ply.best_move && ply.best_move !== ply.move) {
    const proven = ply.exact_before === 'win' ? ' (wins, proven)' : ply.exact_before === 'draw' ? ' (keeps the draw, proven)' : '';
    best = `Best was ${ply.best_move}${proven}.`;
  }
  return { move: `${ply.move}${glyph}`, headline, drop, best };
}

/** The game a move is judged in: the spec, the moves before the move and the settings (protocol.ts
 * `ReviewGame`; declared here so that this folder does not import the page’s top level). */
export interface JudgeGame {
  spec: string;
  moves: string[];
  settings: ReviewSettings;
}

/** What a judging worker must answer (an `EngineClient`; a fake in the tests). */
export interface JudgeEngine {
  judgeMove(game: JudgeGame, move: string): Promise<ReviewPly>;
  terminate(reason?: string): void;
}

/** Judges moves on one worker of its own (never the game's: the game's searches are not
 * disturbed), made on the first judgement and kept until `stop()`. A judgement made stale by a
 * newer one or by `cancel()` (a new move, undo, a new game) answers null. */
export class MoveJudge {
  private engine: JudgeEngine | null = null;
  private epoch = 0;

  constructor(private readonly newEngine: () => JudgeEngine) {}

  /** Whether a worker is alive (teaching on and used). */
  get alive(): boolean {
    return this.engine !== null;
  }

  /** The ply of `move` played after `game.moves` (the review's `ReviewPly`), or null when it went
   * stale meanwhile. Rejects with the engine's sentence (a bad move), or EngineDied when the
   * worker died (the next judgement starts a new one). */
  async judge(game: JudgeGame, move: string): Promise<ReviewPly | null> {
    const my = ++this.epoch;
    if (!this.engine) this.engine = this.newEngine();
    const engine = this.engine;
    try {
      const ply = await engine.judgeMove(game, move);
      return my === this.epoch ? ply : null;
    } catch (e) {
      if (this.engine === engine && e instanceof Error && e.name === 'EngineDied') this.engine = null;
      if (my !== this.epoch) return null;
      throw e;
    }
  }

  /** Makes the running judgement stale (it answers null). */
  cancel(): void {
    this.epoch++;
  }

  /** Cancels and ends the worker (teaching switched off). */
  stop(): void {
    this.cancel();
    this.engine?.terminate('teaching was switched off');
    this.engine = null;
  }
}
