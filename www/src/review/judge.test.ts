import { describe, expect, it } from 'vitest';
import { type JudgeEngine, MoveJudge, noticeText, parseTeachLevel, pointsOut, TEACH_PLAYOUTS, teachSettings } from './judge';
import type { ReviewPly } from './report';

function ply(p: Partial<ReviewPly>): ReviewPly {
  return {
    ply: 1,
    move: 'a2',
    mover: 'o',
    value_before: 0.5,
    value_after: 0.5,
    loss: 0,
    class: 'best',
    label: null,
    accuracy: 100,
    best_move: 'a1',
    pv: ['a1'],
    exact_before: null,
    exact_after: null,
    iterations: 2000,
    playouts: 2000,
    ...p,
  };
}

describe('the teaching threshold', () => {
  it('points out a class at or above the level, never when off', () => {
    const mistake = ply({ class: 'mistake', loss: 0.12 });
    expect(pointsOut(mistake, 'off')).toBe(false);
    expect(pointsOut(mistake, 'inaccuracy')).toBe(true);
    expect(pointsOut(mistake, 'mistake')).toBe(true);
    expect(pointsOut(mistake, 'blunder')).toBe(false);
    expect(pointsOut(ply({ class: 'inaccuracy' }), 'mistake')).toBe(false);
    expect(pointsOut(ply({ class: 'good' }), 'inaccuracy')).toBe(false);
    expect(pointsOut(ply({ class: 'best' }), 'inaccuracy')).toBe(false);
  });
  it('always points out a proven result made worse', () => {
    const exact = ply({ class: 'blunder', label: 'won → drawn', exact_before: 'win', exact_after: 'draw' });
    expect(pointsOut(exact, 'blunder')).toBe(true);
    expect(pointsOut(exact, 'off')).toBe(false);
  });
  it('reads the URL value, plurals too', () => {
    expect(parseTeachLevel('mistake')).toBe('mistake');
    expect(parseTeachLevel(' Blunders ')).toBe('blunder');
    expect(parseTeachLevel('off')).toBe('off');
    expect(parseTeachLevel('always')).toBeNull();
  });
  it('judges with the review preset, a small budget and seed 0', () => {
    expect(teachSettings('rave')).toEqual({ preset: 'rave', iterations: TEACH_PLAYOUTS, ms: null, solve_ms: 300, seed: 0 });
  });
});

describe('the notice text', () => {
  it('says an exact blunder with its label, the drop in points and the proven best move', () => {
    const n = noticeText(
      ply({
        class: 'blunder',
        label: 'drawn → lost',
        value_before: 0.5,
        value_after: 0,
        loss: 0.5,
        exact_before: 'draw',
        exact_after: 'loss',
      }),
    );
    expect(n).toEqual({
      move: 'a2??✗',
      headline: 'Blunder (drawn → lost, proven)',
      drop: 'O’s win rate 50.0% → 0.0% (−50 points).',
      best: 'Best was a1 (keeps the draw, proven).',
    });
  });
  it('says an estimated mistake with its glyph and the search’s best move', () => {
    const n = noticeText(
      ply({ mover: 'black', move: 'c4', class: 'mistake', value_before: 0.62, value_after: 0.493, loss: 0.127, best_move: 'd4' }),
    );
    expect(n.move).toBe('c4?');
    expect(n.headline).toBe('Mistake');
    expect(n.drop).toBe('Black’s win rate 62.0% → 49.3% (−12.7 points).');
    expect(n.best).toBe('Best was d4.');
    expect(noticeText(ply({ class: 'blunder', label: 'won → lost', exact_before: 'win', best_move: 'b2' })).best).toBe(
      'Best was b2 (wins, proven).',
    );
    expect(noticeText(ply({ class: 'inaccuracy', best_move: 'a2' })).best).toBe('');
  });
});

describe('MoveJudge', () => {
  function fake() {
    const calls: { move: string; resolve: (p: ReviewPly) => void }[] = [];
    let made = 0;
    let terminated = 0;
    const engine: JudgeEngine = {
      judgeMove: (_g, move) => new Promise((resolve) => calls.push({ move, resolve })),
      terminate: () => void terminated++,
    };
    const judge = new MoveJudge(() => {
      made++;
      return engine;
    });
    return { judge, calls, made: () => made, terminated: () => terminated };
  }
  const game = { spec: 'tictactoe', moves: ['b2'], settings: teachSettings('uct') };

  it('makes one worker on first use, keeps it, and ends it on stop', async () => {
    const f = fake();
    expect(f.judge.alive).toBe(false);
    const a = f.judge.judge(game, 'a2');
    f.calls[0]!.resolve(ply({ move: 'a2' }));
    expect((await a)?.move).toBe('a2');
    const b = f.judge.judge(game, 'a1');
    f.calls[1]!.resolve(ply({ move: 'a1' }));
    expect((await b)?.move).toBe('a1');
    expect(f.made()).toBe(1);
    f.judge.stop();
    expect(f.terminated()).toBe(1);
    expect(f.judge.alive).toBe(false);
  });

  it('answers null for a judgement made stale by a newer one or by cancel', async () => {
    const f = fake();
    const old = f.judge.judge(game, 'a2');
    const fresh = f.judge.judge(game, 'a1');
    f.calls[0]!.resolve(ply({ move: 'a2' }));
    f.calls[1]!.resolve(ply({ move: 'a1' }));
    expect(await old).toBeNull();
    expect((await fresh)?.move).toBe('a1');
    const cancelled = f.judge.judge(game, 'c3');
    f.judge.cancel();
    f.calls[2]!.resolve(ply({ move: 'c3' }));
    expect(await cancelled).toBeNull();
  });
});
