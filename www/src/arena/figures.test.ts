// The arena's figures: the engine's standings (Wilson interval, Elo: the wasm module the worker
// loads, run here in Node) and how the page formats and downloads them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arenaStandings, initSync } from '../../../pkg/mcts_playground.js';
import type { GameRecord, Standings } from '../protocol';
import { csvText } from '../lib/download';
import { arenaCsv, eloOf, firstPlayerNote, fmtElo, fmtEloCells, fmtEloCi, fmtRateCi, parseSets, round1, roundedElo } from './figures';

initSync({ module: readFileSync(new URL('../../../pkg/mcts_playground_bg.wasm', import.meta.url)) });

/** `wins`, `draws`, `losses` for A, colours alternating. */
function records(wins: number, draws: number, losses: number): GameRecord[] {
  const scores = [...Array(wins).fill(1), ...Array(draws).fill(0.5), ...Array(losses).fill(0)] as number[];
  return scores.map((a_score, index) => {
    const a_first = index % 2 === 0;
    const aPlayer = a_first ? 0 : 1;
    const winner = a_score === 0.5 ? null : ((a_score === 1 ? aPlayer : 1 - aPlayer) as 0 | 1);
    return { index, a_first, moves: ['a1'], a_score, winner };
  });
}

const standings = (w: number, d: number, l: number) => arenaStandings(records(w, d, l)) as Standings;

describe('standings (the engine’s, as the arena shows them)', () => {
  it('190 of 200: win rate 0.95, Wilson 95% interval [0.9104, 0.9726], Elo +512 [+403, +620]', () => {
    const s = standings(190, 0, 10);
    expect([s.games, s.wins, s.draws, s.losses]).toEqual([200, 190, 0, 10]);
    expect(s.win_rate).toBe(0.95);
    expect(s.win_rate_ci95[0]).toBeCloseTo(0.9104, 4);
    expect(s.win_rate_ci95[1]).toBeCloseTo(0.9726, 4);
    expect(s.elo).toBeCloseTo(511.5, 1);
    expect(s.elo_ci95[0]).toBeCloseTo(402.8, 1);
    expect(s.elo_ci95[1]).toBeCloseTo(620.2, 1);
    expect(fmtRateCi(s.win_rate_ci95)).toBe('[91.0%, 97.3%]');
    expect(fmtElo(s.elo, s.win_rate)).toBe('+512');
    expect(fmtEloCi(s.elo_ci95)).toBe('[+403, +620]');
    expect(roundedElo(s)).toEqual({ elo: 511.5, elo_ci95: [402.8, 620.2] });
  });
  it('draws count half: 10 wins, 10 draws, 0 losses is 0.75, Wilson [0.5313, 0.8881]', () => {
    const s = standings(10, 10, 0);
    expect(s.win_rate).toBe(0.75);
    expect(s.win_rate_ci95[0]).toBeCloseTo(0.5313, 4);
    expect(s.win_rate_ci95[1]).toBeCloseTo(0.8881, 4);
    expect(fmtElo(s.elo, s.win_rate)).toBe('+191');
  });
  it('an even match is symmetric around 0.5 and Elo 0', () => {
    const s = standings(5, 0, 5);
    expect(s.win_rate).toBe(0.5);
    expect(s.win_rate_ci95[0]).toBeCloseTo(0.2366, 4);
    expect(s.win_rate_ci95[0] + s.win_rate_ci95[1]).toBeCloseTo(1, 12);
    expect(Math.abs(s.elo!)).toBe(0);
    expect(s.elo_ci95[0]).toBeCloseTo(-s.elo_ci95[1]!, 9);
  });
  it('a clean sweep has an infinite Elo (null), shown as ±∞', () => {
    const s = standings(8, 0, 0);
    expect(s.win_rate).toBe(1);
    expect(s.win_rate_ci95[1]).toBe(1);
    expect(s.elo).toBeNull();
    expect(s.elo_ci95[1]).toBeNull();
    expect(fmtElo(s.elo, s.win_rate)).toBe('+∞');
    expect(fmtEloCi(s.elo_ci95)).toMatch(/^\[\+\d+, \+∞\]$/);
    const t = standings(0, 0, 8);
    expect(fmtElo(t.elo, t.win_rate)).toBe('−∞');
    expect(fmtEloCi(t.elo_ci95)).toMatch(/^\[−∞, −\d+\]$/);
  });
  it('a clean sweep is shown as the finite bound of the Wilson interval, never ∞', () => {
    // 20 of 20: Wilson 95% lower end 0.8389 (z = 1.96), Elo 400·log10(0.8389/0.1611) = +287.
    const s = standings(20, 0, 0);
    expect(s.win_rate_ci95[0]).toBeCloseTo(0.8389, 4);
    expect(eloOf(s.win_rate_ci95[0])).toBeCloseTo(286.6, 1);
    expect(fmtEloCells(s)).toEqual({ elo: '≥ +287 (95%)', ci: '≥ +287 (one-sided: every game won)' });
    expect(fmtEloCells(standings(0, 0, 20))).toEqual({ elo: '≤ −287 (95%)', ci: '≤ −287 (one-sided: every game lost)' });
    expect(fmtEloCells(standings(190, 0, 10))).toEqual({ elo: '+512', ci: '[+403, +620]' });
  });
});

describe('formatting', () => {
  it('signs Elo with a true minus and rounds to whole points', () => {
    expect(fmtElo(-12.4, 0.48)).toBe('−12');
    expect(fmtElo(0, 0.5)).toBe('+0');
    expect(round1(-147.77)).toBe(-147.8);
    expect(round1(null)).toBeNull();
  });
  it('writes one CSV row per game with draws named', () => {
    const recs: GameRecord[] = [
      { index: 0, a_first: true, moves: ['d4', 'c5', 'e3'], a_score: 1, winner: 0 },
      { index: 1, a_first: false, moves: ['b2'], a_score: 0.5, winner: null },
    ];
    const [header, rows] = arenaCsv(recs);
    expect(csvText(header, rows)).toBe('index,a_first,a_score,winner,plies,moves\n0,true,1,0,3,d4 c5 e3\n1,false,0.5,draw,1,b2\n');
  });
  it('quotes CSV fields that need it', () => {
    expect(csvText(['a', 'b'], [['x,y', 'say "hi"']])).toBe('a,b\n"x,y","say ""hi"""\n');
  });
});

describe('parseSets', () => {
  it('reads key=value pairs into engine parameters and the CLI’s --set list', () => {
    expect(parseSets('c=0.5, rave_k=300 save_bridge=true prior=patterns seed=7')).toEqual({
      params: { c: 0.5, rave_k: 300, save_bridge: true, prior: 'patterns', seed: 7 },
      sets: ['c=0.5', 'rave_k=300', 'save_bridge=true', 'prior=patterns', 'seed=7'],
      error: null,
      problems: [],
    });
    expect(parseSets('  ')).toEqual({ params: {}, sets: [], error: null, problems: [] });
    expect(parseSets('c=0.5 fast').error).toBe("expected key=value, got 'fast'");
    // Values are typed by the schema; a value of another type, or no such parameter, is named.
    expect(parseSets('c=abc pool_k=2.5 colour=red c=200').problems).toEqual([
      "c must be a number, not 'abc'",
      "pool_k must be a whole number, not '2.5'",
      expect.stringMatching(/^there is no parameter 'colour' \(the parameters are anti_decisive, c, /),
    ]);
    expect(parseSets('c=200').params).toEqual({ c: 200 });
  });
});

describe('firstPlayerNote', () => {
  it('says when moving first decided a Hex match and offers the swap rule', () => {
    // alphazero against best on Hex 7×7 from the empty board: the first player won 374 of 400.
    const n = firstPlayerNote('hex:7', { games: 400, first_player_wins: 374 }, false);
    expect(n?.swapSpec).toBe('hex:7:swap');
    expect(n?.text).toBe(
      "The first player won 93.5% of the games: this match measures who moved first more than A against B. In Hex moving first wins with perfect play; try the swap rule (hex:7:swap: White may take Black's first move as its own) or balanced openings.",
    );
    expect(firstPlayerNote('hex', { games: 20, first_player_wins: 20 }, true)?.swapSpec).toBe('hex:11:swap');
  });
  it('says nothing of a balanced match or a short one', () => {
    expect(firstPlayerNote('hex:7', { games: 400, first_player_wins: 212 }, false)).toBeNull();
    expect(firstPlayerNote('hex:7', { games: 8, first_player_wins: 8 }, false)).toBeNull();
  });
  it('offers balanced openings where there is no swap rule to offer', () => {
    expect(firstPlayerNote('pentago', { games: 20, first_player_wins: 18 }, false)?.text).toMatch(/Try balanced openings/);
    expect(firstPlayerNote('pentago', { games: 20, first_player_wins: 18 }, true)).toBeNull();
    expect(firstPlayerNote('hex:7:swap', { games: 20, first_player_wins: 18 }, true)).toBeNull();
  });
});
