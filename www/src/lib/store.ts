// A small store (as chessground keeps one `State`): one state object, `update` with a patch,
// `subscribe` to be told of every change with the state before it. Listeners run synchronously,
// in the order they subscribed, after the state has changed; an update made by a listener runs its
// own round of listeners once the current round is over (so every listener sees every state in order).

export type Listener<S> = (state: Readonly<S>, prev: Readonly<S>) => void;

export interface Store<S extends object> {
  /** The current state (do not mutate it: `update` replaces it). */
  get(): Readonly<S>;
  /** Merges `patch` (or what `f` returns for the current state) into a new state and tells the
   * listeners; a patch that changes no field (by `Object.is`) tells no one. */
  update(patch: Partial<S> | ((s: Readonly<S>) => Partial<S>)): void;
  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  subscribe(listener: Listener<S>): () => void;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state: Readonly<S> = { ...initial };
  const listeners = new Set<Listener<S>>();
  const queue: [Readonly<S>, Readonly<S>][] = [];
  let notifying = false;
  return {
    get: () => state,
    update(patch) {
      const p = typeof patch === 'function' ? patch(state) : patch;
      if (Object.entries(p).every(([k, v]) => Object.is(state[k as keyof S], v))) return;
      const prev = state;
      state = { ...state, ...p };
      queue.push([state, prev]);
      if (notifying) return;
      notifying = true;
      try {
        for (let next = queue.shift(); next; next = queue.shift()) for (const l of [...listeners]) l(next[0], next[1]);
      } finally {
        notifying = false;
        queue.length = 0;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** Whether any of `keys` differs between two states. */
export function changed<S extends object>(s: Readonly<S>, prev: Readonly<S>, ...keys: (keyof S)[]): boolean {
  return keys.some((k) => !Object.is(s[k], prev[k]));
}
