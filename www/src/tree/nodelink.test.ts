import { describe, expect, it } from 'vitest';
import type { TreeSnapshot } from '../protocol';
import { childLists, nodeValue, nodeValueText } from './nodelink';

/** A snapshot with only what `Children` reads: `count` and `parent` (pre-order). */
function tree(parent: number[]): TreeSnapshot {
  return { count: parent.length, parent: Int32Array.from(parent) } as unknown as TreeSnapshot;
}

describe('Children', () => {
  it('lists each node’s children in order', () => {
    const k = childLists(tree([-1, 0, 1, 0, 3, 3]));
    expect(k.of(0)).toEqual([1, 3]);
    expect(k.of(1)).toEqual([2]);
    expect(k.of(3)).toEqual([4, 5]);
    expect(k.count(2)).toBe(0);
    expect(k.first(3)).toBe(4);
  });

  it('keeps a tree’s children after another tree’s are built (the search behind a reviewed move is cached)', () => {
    // The analysis keeps the child lists of every reviewed move's tree; building the lists of a
    // later, smaller tree (a search near the end of a game: the root alone) must not change them.
    const big = childLists(tree([-1, 0, 1, 0, 3, 3, 0]));
    childLists(tree([-1]));
    childLists(tree([-1, 0]));
    expect(big.of(0)).toEqual([1, 3, 6]);
    expect(big.of(3)).toEqual([4, 5]);
    expect(big.count(1)).toBe(1);
  });
});

describe('nodeValueText', () => {
  // Root (move 65535) then two children; q is for the player who moved into each node, proven
  // 0 unknown, 1 win, 2 loss, 3 draw in the same view.
  const s = { move: Uint16Array.from([65535, 0, 1]), q: Float32Array.from([0.25, 0.622, 0.4]), proven: Uint8Array.from([0, 3, 0]) };
  it('gives a move its win rate for the player who chose it, the root its side to move’s', () => {
    expect(nodeValueText(s, 2)).toBe('40.0%');
    expect(nodeValueText(s, 0)).toBe('75.0%');
  });
  it('gives a proven node its proven value, the root’s proof turned round to the side to move', () => {
    expect(nodeValueText(s, 1)).toBe('50.0% draw');
    const won = { ...s, q: Float32Array.from([0.105, 0.9, 0.4]), proven: Uint8Array.from([2, 1, 0]) };
    // The player who moved into the root lost: the side to move has a proven win.
    expect(nodeValueText(won, 0)).toBe('100.0% won');
    expect(nodeValueText(won, 1)).toBe('100.0% won');
  });
});

describe('nodeValue', () => {
  // What the trees colour a node by: the value its label writes, in the same perspective.
  const s = { move: Uint16Array.from([65535, 0, 1]), q: Float32Array.from([0.102, 0.9, 0.4]), proven: Uint8Array.from([0, 0, 2]) };
  it('is the root’s value for the side to move (the label’s), not the raw Q of the player who moved into it', () => {
    expect(nodeValue(s, 0).value).toBeCloseTo(0.898);
    expect(nodeValueText(s, 0)).toBe('89.8%');
  });
  it('is a move’s Q for the player who chose it, and a proven node’s proven value', () => {
    expect(nodeValue(s, 1)).toEqual({ value: expect.closeTo(0.9) as unknown as number, proof: null });
    expect(nodeValue(s, 2)).toEqual({ value: 0, proof: 'loss' });
    const won = { ...s, proven: Uint8Array.from([2, 0, 0]) };
    expect(nodeValue(won, 0)).toEqual({ value: 1, proof: 'win' });
  });
});
