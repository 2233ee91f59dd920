import { describe, expect, it } from 'vitest';
import { fallbackMessage, isNoNetError, NET_PRESETS, netFreeFallback } from './net-fallback';

describe('net preset fallback', () => {
  it('recognises the engine error and picks a net-free preset', () => {
    expect(isNoNetError("no trained network for 'pentago' (nets ship for: tictactoe); use a preset without a network")).toBe(true);
    expect(isNoNetError('c = -1 is out of range [0, 100]')).toBe(false);
    expect(netFreeFallback(['uct', 'rave', 'best', 'alphazero'])).toBe('best');
    expect(netFreeFallback(['alphazero', 'rave'])).toBe('rave');
    expect(netFreeFallback([...NET_PRESETS])).toBeNull();
    expect(fallbackMessage('alphazero', 'pentago', 'best')).toContain('playing with best instead');
  });
});

describe('net load failures', () => {
  it('recognises a failed fetch or a corrupt file and names the reason', () => {
    const e = "the network for 'tictactoe' could not be loaded (models/tictactoe.mctsnet: HTTP 404)";
    expect(isNoNetError(e)).toBe(true);
    expect(isNoNetError("the network for 'tictactoe' is not loaded yet (models/tictactoe.mctsnet)")).toBe(true);
    expect(fallbackMessage('alphazero', 'tictactoe', 'best', e)).toBe(
      'alphazero needs the trained network for tictactoe, which could not be loaded (models/tictactoe.mctsnet: HTTP 404): playing with best instead.',
    );
  });
});
