import { describe, expect, it } from 'vitest';
import exact from './testdata/hex7-exact.json';
import estimates from './testdata/hex9-estimates.json';
import { blackCurve, EXACT_GLYPH, plyMark, reviews, stepMistake, summaryRows } from './marks';
import type { ReviewPly, ReviewReport } from './report';

const est = estimates as ReviewReport;
const ex = exact as ReviewReport;

function ply(over: Partial<ReviewPly>): ReviewPly {
  return {
    ply: 0,
    move: 'a1',
    mover: 'black',
    value_before: 0.6,
    value_after: 0.6,
    loss: 0,
    class: 'best',
    label: null,
    accuracy: 100,
    best_move: 'a1',
    pv: [],
    exact_before: null,
    exact_after: null,
    iterations: 1,
    playouts: 1,
    ...over,
  };
}

describe('plyMark', () => {
  it('gives Lichess glyphs by class, none for best and good', () => {
    expect(plyMark(ply({ class: 'best' }))).toBeNull();
    expect(plyMark(ply({ class: 'good' }))).toBeNull();
    expect(plyMark(ply({ class: 'inaccuracy' }))?.glyph).toBe('?!');
    expect(plyMark(ply({ class: 'mistake' }))?.glyph).toBe('?');
    expect(plyMark(ply({ class: 'blunder' }))?.glyph).toBe('??');
  });
  it('sets an exact blunder apart, with its label in the title', () => {
    const m = plyMark(ply({ class: 'blunder', label: 'won → lost', move: 'e3', best_move: 'd5' }))!;
    expect(m.glyph).toBe(EXACT_GLYPH);
    expect(m.kind).toBe('exact');
    expect(m.title).toContain('won → lost');
    expect(m.title).toContain('best was d5');
  });
  it('marks the exact report’s blunders as exact', () => {
    expect(ex.plies.map((p) => plyMark(p)?.kind ?? null)).toEqual(ex.plies.map((p) => (p.class === 'blunder' ? 'exact' : null)));
  });
});

describe('blackCurve', () => {
  it('turns mover-relative values into Black’s: 1 − value_before where White moves, the end from the last value_after', () => {
    const r = {
      ...est,
      plies: [
        ply({ ply: 0, mover: 'black', value_before: 0.7, value_after: 0.6 }),
        ply({ ply: 1, mover: 'white', value_before: 0.45, value_after: 0.2, exact_after: 'loss' }),
      ],
    };
    expect(blackCurve(r)).toEqual([
      { position: 0, black: 0.7, exact: false },
      { position: 1, black: 0.55, exact: false },
      { position: 2, black: 0.8, exact: true },
    ]);
  });
  it('has one point per position of the report, exact where proven', () => {
    const c = blackCurve(ex);
    expect(c).toHaveLength(ex.moves.length + 1);
    expect(c.every((p) => p.exact)).toBe(true);
    // Black wins at the start (d4 keeps the win), loses after e3 (ply 2, won → lost).
    expect(c[0]!.black).toBe(1);
    expect(c[3]!.black).toBe(0);
  });
});

describe('stepMistake', () => {
  // hex9: marked moves (1-based) — black 1 (?!), 3 (??), 9 (?); white 2 (?!), 4 (?!), 8 (??), 10 (?).
  it('steps through every marked move of both sides in order, from the live position to the first', () => {
    const seen: number[] = [];
    let at: number | null = null;
    for (;;) {
      const n = stepMistake(est, at, 1, 'both');
      if (n === null) break;
      seen.push(n);
      at = n;
    }
    expect(seen).toEqual([1, 2, 3, 4, 8, 9, 10]);
  });
  it('goes back from the live position to the last, and keeps to the chosen side', () => {
    expect(stepMistake(est, null, -1, 'both')).toBe(10);
    expect(stepMistake(est, 9, -1, 'black')).toBe(3);
    expect(stepMistake(est, 3, 1, 'white')).toBe(4);
    expect(stepMistake(est, 1, -1, 'black')).toBeNull();
    expect(stepMistake(est, 10, 1, 'both')).toBeNull();
  });
});

describe('summaryRows and reviews', () => {
  it('lists Black first with its counts and accuracy to one decimal', () => {
    const rows = summaryRows(est);
    expect(rows.map((r) => r.player)).toEqual(['black', 'white']);
    expect(rows[0]!.accuracy).toBe('63.9%');
    expect(rows[1]!.counts).toEqual({ best: 1, good: 0, inaccuracy: 2, mistake: 1, blunder: 1 });
  });
  it('matches a report to its game only', () => {
    expect(reviews(est, est.moves)).toBe(true);
    expect(reviews(est, est.moves.slice(1))).toBe(false);
    expect(reviews(null, [])).toBe(false);
  });
});
