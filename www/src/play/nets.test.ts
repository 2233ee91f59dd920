import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../generated/schema';
import { presetDescription } from './nets';

describe('presetDescription (the preset lists’ tooltips)', () => {
  it('is the engine’s one line for every preset, and empty for other names', () => {
    for (const p of PRESET_NAMES) expect(presetDescription(p).length, p).toBeGreaterThan(10);
    expect(presetDescription('rave')).toBe('MC-RAVE: Q blended with AMAF values, c = 0');
    expect(presetDescription('alphazero')).toMatch(/^AlphaZero/);
    for (const other of ['', 'minimax', 'toString', '__proto__']) expect(presetDescription(other)).toBe('');
  });
});
