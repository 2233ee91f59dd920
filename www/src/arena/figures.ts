// The arena's figures as the page shows and downloads them (no DOM): the engine computes the
// standings (Rust `arena::Standings`: Wilson interval, Elo); this module formats them, turns the
// `key=value` settings into engine parameters, and writes the CSV rows.

import { findGame, playerName } from '../games';
import { PARAM_NAMES } from '../generated/schema';
import type { EngineParams, GameRecord, Standings } from '../protocol';
import { isParamName, paramFromText } from '../share/url';
import { winRate } from '../lib/format';

/** `key=value` pairs separated by spaces or commas → engine parameters, typed by the schema
 * (share/url.ts `paramFromText`, as the engine reads `--set` text), and the CLI's --set list as
 * written. `error`: text that is not `key=value` pairs; `problems`: a name that is no parameter or
 * a value not of its parameter's type, one sentence each (ranges are the engine's to say). */
export function parseSets(text: string): { params: EngineParams; sets: string[]; error: string | null; problems: string[] } {
  const params: EngineParams = {};
  const sets: string[] = [];
  const problems: string[] = [];
  for (const kv of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([a-z_0-9]+)=(.+)$/i.exec(kv);
    if (!m) return { params, sets, error: `expected key=value, got '${kv}'`, problems };
    const [, key, value] = m as unknown as [string, string, string];
    sets.push(`${key}=${value}`);
    if (!isParamName(key)) {
      problems.push(`there is no parameter '${key}' (the parameters are ${PARAM_NAMES.join(', ')})`);
      continue;
    }
    const typed = paramFromText(key, value);
    if ('error' in typed) problems.push(`${key} must be ${typed.error}, not '${value}'`);
    else params[key] = typed.value;
  }
  return { params, sets, error: null, problems };
}

/** To 0.1, as `mcts arena --json` writes Elo (null stays null: an infinite Elo). */
export function round1(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10) / 10;
}

/** An Elo difference with its sign (`+191`, `−12`); null is infinite, its sign from the win rate. */
export function fmtElo(x: number | null, rate: number): string {
  if (x === null) return rate >= 1 ? '+∞' : '−∞';
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(0)}`;
}

/** The Elo difference of a score rate `p` in (0, 1) under the logistic model: 400·log10(p/(1−p))
 * (Elo 1978; the engine's `arena::Standings` uses the same). */
export function eloOf(p: number): number {
  return 400 * Math.log10(p / (1 - p));
}

/** The Elo as the standings table shows it: the estimate with its 95% interval; for a score of
 * 100% (0%), whose estimate is infinite, the finite bound the data do support, from the lower
 * (upper) end of the 95% Wilson interval of the win rate: `≥ +250 (95%)`, `≤ −250 (95%)`. */
export function fmtEloCells(s: Pick<Standings, 'elo' | 'elo_ci95' | 'win_rate' | 'win_rate_ci95' | 'games'>): { elo: string; ci: string } {
  if (s.games > 0 && s.win_rate >= 1) {
    const b = `≥ ${fmtElo(eloOf(s.win_rate_ci95[0]), 1)}`;
    return { elo: `${b} (95%)`, ci: `${b} (one-sided: every game won)` };
  }
  if (s.games > 0 && s.win_rate <= 0) {
    const b = `≤ ${fmtElo(eloOf(s.win_rate_ci95[1]), 0)}`;
    return { elo: `${b} (95%)`, ci: `${b} (one-sided: every game lost)` };
  }
  return { elo: fmtElo(s.elo, s.win_rate), ci: fmtEloCi(s.elo_ci95) };
}

/** The Elo interval: a null lower end is −∞, a null upper end +∞. */
export function fmtEloCi([lo, hi]: Standings['elo_ci95']): string {
  return `[${lo === null ? '−∞' : fmtElo(lo, 0)}, ${hi === null ? '+∞' : fmtElo(hi, 1)}]`;
}

/** Below this share of the games won by the first player, the match is not said to be decided
 * by who moved first. */
export const FIRST_PLAYER_DOMINATES = 0.7;

/** When the first player won most games of a match (at least 10 games, `FIRST_PLAYER_DOMINATES`
 * of them), what to say about it and the remedy: for a game that offers the swap rule without it
 * (Hex: a first-player win with perfect play), the swap rule (`hex:N:swap`, the spec to switch
 * to; `GamePage.swapOption`, `firstMoveNote`); otherwise, or
 * with the swap rule already on, balanced openings when they were off. Null: nothing to say. */
export function firstPlayerNote(
  spec: string,
  s: Pick<Standings, 'games' | 'first_player_wins'>,
  openings: boolean,
): { text: string; swapSpec: string | null } | null {
  if (s.games < 10 || s.first_player_wins < FIRST_PLAYER_DOMINATES * s.games) return null;
  const share = winRate(s.first_player_wins / s.games);
  const game = findGame(spec);
  const head = `The first player won ${share} of the games: this match measures who moved first more than A against B.`;
  const trimmed = spec.trim();
  if (game?.swapOption && !trimmed.toLowerCase().split(':').includes('swap')) {
    const swapSpec = `${trimmed.includes(':') ? trimmed : game.facts.default_spec}:swap`;
    const [first, second] = [playerName(game.name, 0), playerName(game.name, 1)];
    const why = game.firstMoveNote ?? `In ${game.facts.title} moving first is an advantage`;
    return {
      text: `${head} ${why}; try the swap rule (${swapSpec}: ${second} may take ${first}'s first move as its own)${openings ? '' : ' or balanced openings'}.`,
      swapSpec,
    };
  }
  return openings ? null : { text: `${head} Try balanced openings (every first move, colours swapped).`, swapSpec: null };
}

/** The win rate's interval in percent, as every win rate on the page: `[91.0%, 97.3%]`. */
export function fmtRateCi([lo, hi]: Standings['win_rate_ci95']): string {
  return `[${winRate(lo)}, ${winRate(hi)}]`;
}

/** The Elo figures of the JSON download, rounded as `mcts arena --json` writes them. */
export function roundedElo(s: Standings): Pick<Standings, 'elo' | 'elo_ci95'> {
  return { elo: round1(s.elo), elo_ci95: [round1(s.elo_ci95[0]), round1(s.elo_ci95[1])] };
}

export const ARENA_CSV_HEADER = ['index', 'a_first', 'a_score', 'winner', 'plies', 'moves'] as const;

/** The CSV download: a header and one row per game (`winner` is `draw` for a draw). */
export function arenaCsv(records: readonly GameRecord[]): [readonly string[], (string | number | boolean)[][]] {
  return [ARENA_CSV_HEADER, records.map((r) => [r.index, r.a_first, r.a_score, r.winner ?? 'draw', r.moves.length, r.moves.join(' ')])];
}
