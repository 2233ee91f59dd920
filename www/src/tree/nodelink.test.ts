import { describe, expect, it } from 'vitest';
import type { TreeSnapshot } from '../protocol';
import { childLists } from './nodelink';

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
