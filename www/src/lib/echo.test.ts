import { describe, expect, it } from 'vitest';
import { abbreviate, cannotLoadMessage, MAX_ECHO_CHARS, MAX_MESSAGE_CHARS, quoteMoves } from './echo';

describe('abbreviate', () => {
  it('keeps short texts and cuts long ones to the limit, both ends kept', () => {
    expect(abbreviate('zz')).toBe('zz');
    expect(abbreviate('é'.repeat(MAX_ECHO_CHARS))).toBe('é'.repeat(MAX_ECHO_CHARS));
    const long = `${'a'.repeat(100)}${'x'.repeat(999_850)}${'b'.repeat(50)}`;
    expect(abbreviate(long)).toBe(`${'a'.repeat(100)} … (999850 characters left out) … ${'b'.repeat(50)}`);
    expect(abbreviate(long, MAX_MESSAGE_CHARS).length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
  });
  it('counts characters, not UTF-16 units, and never splits one', () => {
    const astral = '😀'.repeat(300);
    const cut = abbreviate(astral);
    expect(Array.from(cut).length).toBeLessThanOrEqual(MAX_ECHO_CHARS);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(cut.startsWith('😀'.repeat(100))).toBe(true);
  });
});

describe('quoteMoves', () => {
  it('quotes a short list whole and a long one by its ends', () => {
    expect(quoteMoves(['d4', 'd4'])).toBe('d4 d4');
    const million = Array.from({ length: 1_000_000 }, (_, i) => `m${i + 1}`);
    expect(quoteMoves(million)).toBe('m1 m2 m3 m4 m5 … 999,993 more … m999999 m1000000');
    expect(quoteMoves(['x'.repeat(1_000_000)]).length).toBeLessThanOrEqual(MAX_ECHO_CHARS);
  });
});

describe('cannotLoadMessage', () => {
  it('names the spec, the ends of the moves and the reason, in a sentence', () => {
    expect(cannotLoadMessage('hex:7', ['d4', 'd4'], 'move 2: taken')).toBe('Cannot load hex:7 with moves d4 d4: move 2: taken');
    expect(cannotLoadMessage('hex:7', [], 'why')).toBe('Cannot load hex:7: why');
    const million = Array.from({ length: 1_000_000 }, () => 'a1');
    const m = cannotLoadMessage('x'.repeat(1_000_000), million, '1000000 moves; a request carries at most 1000');
    expect(m.length).toBeLessThan(2 * MAX_ECHO_CHARS + 100);
    expect(m.endsWith(': 1000000 moves; a request carries at most 1000')).toBe(true);
  });
});
