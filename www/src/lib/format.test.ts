import { describe, expect, it } from 'vitest';
import {
  compact,
  count,
  duration,
  iterationsWord,
  moveWinRate,
  moveWinRateCompact,
  moveWinRateShort,
  perSecond,
  provenTitle,
  provenValue,
  rawQ,
  rootWinRate,
  share,
  winRate,
  winRateFor,
  winRateShort,
} from './format';

describe('win rate', () => {
  it('is percent with one decimal, clamped to 0–100', () => {
    expect(winRate(0.5333)).toBe('53.3%');
    expect(winRate(0)).toBe('0.0%');
    expect(winRate(1)).toBe('100.0%');
    expect(winRate(1.2)).toBe('100.0%');
    expect(winRate(-0.1)).toBe('0.0%');
  });
  it('has a dash for no value', () => {
    expect(winRate(null)).toBe('–');
    expect(winRate(undefined)).toBe('–');
    expect(winRate(Number.NaN)).toBe('–');
  });
  it('names whose it is, and has a short form for board labels', () => {
    expect(winRateFor(0.25, 'White')).toBe('25.0% for White');
    expect(winRateShort(0.533)).toBe('53%');
    expect(winRateShort(null)).toBe('–');
  });
  it('turns a root Q round to the side to move', () => {
    expect(rootWinRate(0.3)).toBeCloseTo(0.7);
  });
  it('shows a proven move at its proven value, not its playouts’ mean', () => {
    expect(provenValue('win')).toBe(1);
    expect(provenValue('draw')).toBe(0.5);
    expect(provenValue('loss')).toBe(0);
    expect(moveWinRate(0.622, 'draw')).toBe('50.0% (draw)');
    expect(moveWinRate(0.9, 'loss')).toBe('0.0% (loss)');
    expect(moveWinRate(0.622, null)).toBe('62.2%');
    expect(moveWinRateShort(0.622, 'draw')).toBe('50%');
    expect(moveWinRateCompact(0.622, 'draw')).toBe('50% D');
    expect(moveWinRateCompact(0.2, 'win')).toBe('100% W');
    expect(moveWinRateCompact(0.622, null)).toBe('62.2%');
    expect(moveWinRateShort(0.622, null)).toBe('62%');
    expect(provenTitle(0.622, 'draw')).toBe('proven draw: worth 50.0% with perfect play (its playouts’ mean was 62.2%)');
  });
});

describe('raw Q, shares and counts', () => {
  it('writes raw Q with three places', () => {
    expect(rawQ(0.5333)).toBe('0.533');
    expect(rawQ(null)).toBe('–');
  });
  it('writes shares as percent of the whole', () => {
    expect(share(0.5)).toBe('50%');
    expect(share(0.012)).toBe('1.2%');
    expect(share(0.001)).toBe('<1%');
    expect(share(0)).toBe('0%');
  });
  it('groups counts and shortens them', () => {
    expect(count(48213)).toBe('48,213');
    expect(compact(950)).toBe('950');
    expect(compact(1234)).toBe('1.2k');
    expect(compact(48213)).toBe('48k');
    expect(compact(1_300_000)).toBe('1.3M');
  });
  it('calls an AlphaZero search’s iterations evaluations, any other search’s playouts', () => {
    expect(iterationsWord('value')).toBe('evaluations');
    expect(iterationsWord('mix')).toBe('playouts');
    expect(iterationsWord('rollout')).toBe('playouts');
    expect(iterationsWord(undefined)).toBe('playouts');
  });
  it('writes a duration in ms under a second', () => {
    expect(duration(43.4)).toBe('43 ms');
    expect(duration(2430)).toBe('2.4 s');
  });
  it('has no rate without playouts', () => {
    expect(perSecond(0, 0)).toBe('–/s');
    expect(perSecond(12345.4, 100)).toBe('12,345/s');
  });
});
