import { interpolateRdYlBu } from 'd3-scale-chromatic';
import { describe, expect, it } from 'vitest';
import { SERIES_COLOURS, valueColour, valuePalette, valuePosition, visitOpacity, withAlpha } from './colour';

// ColorBrewer RdYlBu's ends: #a50026 (red, bad) and #313695 (blue, good).
const RED = 'rgb(165, 0, 38)';
const BLUE = 'rgb(49, 54, 149)';

describe('value scale', () => {
  it('is stretched: Q 0.25 and below is full red, 0.75 and above full blue', () => {
    expect(valueColour(0.25)).toBe(RED);
    expect(valueColour(0)).toBe(RED);
    expect(valueColour(-3)).toBe(RED);
    expect(valueColour(0.75)).toBe(BLUE);
    expect(valueColour(1)).toBe(BLUE);
    expect(valueColour(7)).toBe(BLUE);
  });
  it('puts Q 0.5 in the middle of RdYlBu and doubles distances from it', () => {
    expect(valuePosition(0.5)).toBe(0.5);
    expect(valueColour(0.5)).toBe(interpolateRdYlBu(0.5));
    expect(valuePosition(0.6)).toBeCloseTo(0.7, 12);
    expect(valueColour(0.4)).toBe(interpolateRdYlBu(0.3));
  });
  it('is red (bad) below Q 0.5 and blue (good) above', () => {
    const rgb = (q: number) => /rgb\((\d+), (\d+), (\d+)\)/.exec(valueColour(q))!.slice(1).map(Number);
    for (const q of [0.3, 0.4, 0.45]) expect(rgb(q)[0]).toBeGreaterThan(rgb(q)[2]!);
    for (const q of [0.55, 0.6, 0.7]) expect(rgb(q)[2]).toBeGreaterThan(rgb(q)[0]!);
  });
  it('has a palette indexed by Q × steps', () => {
    const p = valuePalette(64);
    expect(p).toHaveLength(65);
    expect(p[0]).toBe(RED);
    expect(p[32]).toBe(valueColour(0.5));
    expect(p[64]).toBe(BLUE);
    expect(valuePalette(4)).toEqual([0, 0.25, 0.5, 0.75, 1].map(valueColour));
  });
});

describe('visit heat', () => {
  it('is 0 without visits and 0.9 for the most visited cell, on a square-root scale', () => {
    expect(visitOpacity(0, 100)).toBe(0);
    expect(visitOpacity(5, 0)).toBe(0);
    expect(visitOpacity(100, 100)).toBeCloseTo(0.9, 12);
    expect(visitOpacity(25, 100)).toBeCloseTo(0.12 + 0.78 * 0.5, 12);
    expect(visitOpacity(1, 10_000)).toBeCloseTo(0.12 + 0.78 * 0.01, 12);
    expect(visitOpacity(200, 100)).toBeCloseTo(0.9, 12);
  });
});

describe('series colours', () => {
  it('turn #rrggbb into rgba', () => {
    expect(withAlpha(SERIES_COLOURS[0], 0.35)).toBe('rgba(47,111,223,0.35)');
    expect(withAlpha('#D9480F', 1)).toBe('rgba(217,72,15,1)');
    expect(() => withAlpha('red', 0.5)).toThrow('not a #rrggbb colour: red');
  });
});
