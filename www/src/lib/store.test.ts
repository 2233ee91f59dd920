import { describe, expect, it } from 'vitest';
import { changed, createStore } from './store';

describe('store', () => {
  it('merges patches into a new state and tells listeners with the state before', () => {
    const store = createStore({ a: 1, b: 'x' });
    const seen: [unknown, unknown][] = [];
    store.subscribe((s, prev) => seen.push([{ ...s }, { ...prev }]));
    const first = store.get();
    store.update({ a: 2 });
    store.update((s) => ({ b: `${s.b}y` }));
    expect(store.get()).toEqual({ a: 2, b: 'xy' });
    expect(first).toEqual({ a: 1, b: 'x' });
    expect(seen).toEqual([
      [
        { a: 2, b: 'x' },
        { a: 1, b: 'x' },
      ],
      [
        { a: 2, b: 'xy' },
        { a: 2, b: 'x' },
      ],
    ]);
  });
  it('tells no one when a patch changes nothing', () => {
    const list = [1];
    const store = createStore({ list, n: 0 });
    let calls = 0;
    store.subscribe(() => calls++);
    store.update({ list, n: 0 });
    store.update({});
    expect(calls).toBe(0);
    store.update({ list: [1] });
    expect(calls).toBe(1);
  });
  it('runs an update made by a listener after the current round, so every listener sees every state in order', () => {
    const store = createStore({ n: 0 });
    const log: string[] = [];
    store.subscribe((s) => {
      log.push(`A${s.n}`);
      if (s.n === 1) store.update({ n: 2 });
    });
    store.subscribe((s, prev) => log.push(`B${prev.n}→${s.n}`));
    store.update({ n: 1 });
    expect(log).toEqual(['A1', 'B0→1', 'A2', 'B1→2']);
    expect(store.get().n).toBe(2);
  });
  it('unsubscribes', () => {
    const store = createStore({ n: 0 });
    let calls = 0;
    const off = store.subscribe(() => calls++);
    store.update({ n: 1 });
    off();
    store.update({ n: 2 });
    expect(calls).toBe(1);
  });
  it('says which fields changed', () => {
    const a = { x: 1, y: [1], z: 'q' };
    const b = { ...a, x: 2 };
    expect(changed(b, a, 'x')).toBe(true);
    expect(changed(b, a, 'y', 'z')).toBe(false);
  });
});
