import { describe, expect, it } from 'vitest';
import {
  addContinuation,
  addLine,
  deleteVariation,
  fullLine,
  inTree,
  listMoves,
  mainPrefix,
  onMainLine,
  promote,
  singleLine,
  treeSize,
} from './tree';

const main = ['a1', 'b2', 'c3', 'd4'];

describe('the game tree', () => {
  it('keeps a line that is already in it, extends one past its end, branches where it leaves', () => {
    const t = singleLine('hex:5', main);
    expect(addLine(t, ['a1', 'b2'])).toBe(t);
    expect(addLine(t, [...main, 'e5']).moves).toEqual([...main, 'e5']);
    const v = addLine(t, ['a1', 'b2', 'e1', 'e2']);
    expect(v.moves).toEqual(main);
    expect(v.variations).toEqual([{ at: 2, moves: ['e1', 'e2'], variations: [] }]);
    // A variation of the variation, and one at the first move.
    const w = addLine(addLine(v, ['a1', 'b2', 'e1', 'a5']), ['c1']);
    expect(w.variations).toEqual([
      { at: 0, moves: ['c1'], variations: [] },
      { at: 2, moves: ['e1', 'e2'], variations: [{ at: 1, moves: ['a5'], variations: [] }] },
    ]);
    expect(inTree(w, ['a1', 'b2', 'e1', 'a5'])).toBe(true);
    expect(inTree(w, ['a1', 'e5'])).toBe(false);
    expect(treeSize(w)).toBe(4 + 1 + 2 + 1);
  });

  it('a move after a take-back becomes its line’s continuation; the line taken back a variation', () => {
    const t = singleLine('hex:5', main);
    const c = addContinuation(t, ['a1', 'b2', 'e1']);
    expect(c.moves).toEqual(['a1', 'b2', 'e1']);
    expect(c.variations).toEqual([{ at: 2, moves: ['c3', 'd4'], variations: [] }]);
    // Playing on at a line's end, or inside a variation, changes no order.
    const v = addLine(t, ['a1', 'b2', 'e1']);
    expect(addContinuation(v, ['a1', 'b2', 'e1', 'e2']).variations).toEqual([{ at: 2, moves: ['e1', 'e2'], variations: [] }]);
    expect(addContinuation(t, [...main, 'e5']).moves).toEqual([...main, 'e5']);
    expect(addContinuation(t, ['a1'])).toBe(t);
  });

  it('follows a move to the end of its line', () => {
    const t = addLine(addLine(singleLine('hex:5', main), ['a1', 'b2', 'e1', 'e2']), ['a1', 'b2', 'e1', 'a5', 'b5']);
    expect(fullLine(t, ['a1'])).toEqual(main);
    expect(fullLine(t, ['a1', 'b2', 'e1'])).toEqual(['a1', 'b2', 'e1', 'e2']);
    expect(fullLine(t, ['a1', 'b2', 'e1', 'a5'])).toEqual(['a1', 'b2', 'e1', 'a5', 'b5']);
    expect(fullLine(t, [])).toEqual(main);
    expect(mainPrefix(t, ['a1', 'b2', 'e1'])).toBe(2);
    expect(onMainLine(t, ['a1', 'b2'])).toBe(true);
    expect(onMainLine(t, ['a1', 'b2', 'e1'])).toBe(false);
  });

  it('promotes a variation one level and deletes one', () => {
    const t = addLine(singleLine('hex:5', main), ['a1', 'b2', 'e1', 'e2']);
    const p = promote(t, ['a1', 'b2', 'e1', 'e2']);
    expect(p.moves).toEqual(['a1', 'b2', 'e1', 'e2']);
    expect(p.variations).toEqual([{ at: 2, moves: ['c3', 'd4'], variations: [] }]);
    expect(promote(p, p.moves)).toBe(p);
    expect(promote(promote(p, ['a1', 'b2', 'c3']), main).moves).toEqual(main);
    const d = deleteVariation(t, ['a1', 'b2', 'e1', 'e2']);
    expect(d).toEqual({ tree: singleLine('hex:5', main), at: ['a1', 'b2'] });
    expect(deleteVariation(t, main)).toBeNull();
    expect(deleteVariation(t, ['z9'])).toBeNull();
  });

  it('merges a variation that repeats a move already there', () => {
    const t = { spec: 'hex:5', moves: main, variations: [{ at: 1, moves: ['b2', 'e5'], variations: [] }] };
    expect(addLine(t, ['a1']).variations).toEqual(t.variations);
    expect(listMoves(t).map((m) => m.move)).toEqual(main);
    expect(fullLine(t, ['a1', 'b2'])).toEqual(main);
    expect(inTree(t, ['a1', 'b2', 'e5'])).toBe(true);
  });

  it('lays the tree out for the move list: each variation after the move it replaces', () => {
    const t = addLine(addLine(singleLine('hex:5', main), ['a1', 'b2', 'e1', 'e2']), ['a1', 'b2', 'e1', 'a5']);
    const list = listMoves(t);
    expect(list.map((m) => m.move)).toEqual(main);
    expect(list[2]!.variations).toHaveLength(1);
    const v = list[2]!.variations[0]!;
    expect(v.map((m) => m.line)).toEqual([
      ['a1', 'b2', 'e1'],
      ['a1', 'b2', 'e1', 'e2'],
    ]);
    expect(v[1]!.variations[0]!.map((m) => m.line)).toEqual([['a1', 'b2', 'e1', 'a5']]);
  });
});
