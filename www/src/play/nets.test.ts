import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../generated/schema';
import type { NetInfo } from '../protocol';
import { netShape, presetDescription, userNetSentence } from './nets';

describe('presetDescription (the preset lists’ tooltips)', () => {
  it('is the engine’s one line for every preset, and empty for other names', () => {
    for (const p of PRESET_NAMES) expect(presetDescription(p).length, p).toBeGreaterThan(10);
    expect(presetDescription('rave')).toBe('MC-RAVE: Q blended with AMAF values, c = 0');
    expect(presetDescription('alphazero')).toMatch(/^AlphaZero/);
    for (const other of ['', 'minimax', 'toString', '__proto__']) expect(presetDescription(other)).toBe('');
  });
});

describe('netShape (what a loaded net is)', () => {
  const base = { spec: 'hex:7', name: 'n.mctsnet', source: 'user', parameters: 35634, bytes: 142562 } as const;
  const conv: NetInfo = { ...base, layers: [98, 1568, 1568, 49], trunk: 'conv', channels: 32, blocks: 1, value_hidden: 64 };
  it('gives an MLP’s layer widths and a convolutional net’s channels and layers', () => {
    expect(netShape({ ...base, layers: [98, 128, 128, 49], trunk: 'mlp' })).toBe('layers 98→128→128→49');
    expect(netShape(conv)).toBe('convolutional, 32 channels × 2 layers');
    expect(userNetSentence(conv)).toContain('(35,634 parameters, convolutional, 32 channels × 2 layers)');
  });
});
