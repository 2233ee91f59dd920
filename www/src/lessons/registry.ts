// The page's lesson registry: how a lesson talks to the page without knowing its markup. Each
// feature registers, under the names of catalogue.ts, the states a lesson step may wait for (a
// function reading the feature's store), the intents it may trigger (the function its own
// button calls) and the targets it may outline (its element handles); the lesson runner
// (runner.ts) reads, triggers and outlines only through this object. A feature tells the registry
// when its state may have changed (`watch` its store, or `changed()` for a view's own state), and
// the runner re-checks what it waits for then.
//
// Generic over the element type, so that the runner and its tests need no DOM.

import { INTENTS, type IntentArgs, type IntentName, STATES, type StateName, TARGETS, type TargetName } from './catalogue';

/** What an intent does with its arguments (the function the feature's button calls). */
export type IntentHandler = (args: IntentArgs) => void;

/** Anything with a `subscribe` (a store). */
export interface Watchable {
  subscribe(listener: () => void): () => void;
}

export class LessonRegistry<E = Element> {
  private readonly states = new Map<StateName, () => unknown>();
  private readonly intents = new Map<IntentName, IntentHandler>();
  private readonly targets = new Map<TargetName, () => E | readonly E[] | null>();
  private readonly listeners = new Set<() => void>();

  /** Registers state `name`: `read` gives its value now. */
  state(name: StateName, read: () => unknown): void {
    this.states.set(name, read);
    this.changed();
  }

  /** Registers intent `name`. */
  intent(name: IntentName, handler: IntentHandler): void {
    this.intents.set(name, handler);
    this.changed();
  }

  /** Registers target `name`: the element(s) it stands for now (null: not on the page). */
  target(name: TargetName, find: () => E | readonly E[] | null): void {
    this.targets.set(name, find);
    this.changed();
  }

  /** Every change of `store` may change a registered state. */
  watch(store: Watchable): void {
    store.subscribe(() => this.changed());
  }

  /** Tells whoever waits that a state may have changed. */
  changed(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Calls `listener` after every possible change; returns the function that unsubscribes it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** State `name` now; `registered` false when no feature has registered it (yet). */
  read(name: StateName): { registered: boolean; value: unknown } {
    const r = this.states.get(name);
    return r ? { registered: true, value: r() } : { registered: false, value: undefined };
  }

  hasIntent(name: IntentName): boolean {
    return this.intents.has(name);
  }

  /** Triggers intent `name` (registered: check `hasIntent` first); what it throws is thrown. */
  trigger(name: IntentName, args: IntentArgs): void {
    const f = this.intents.get(name);
    if (!f) throw new Error(`no feature has registered the intent ${name}`);
    f(args);
  }

  /** The elements target `name` stands for now (none when it is not registered or not shown). */
  find(name: TargetName): E[] {
    const f = this.targets.get(name);
    const found = f ? f() : null;
    if (found === null) return [];
    return Array.isArray(found) ? [...(found as readonly E[])] : [found as E];
  }

  /** Whether target `name` is registered. */
  hasTarget(name: TargetName): boolean {
    return this.targets.has(name);
  }

  /** The catalogue's names no feature has registered (yet), e.g. `intent train.start`. */
  unregistered(): string[] {
    return [
      ...(Object.keys(STATES) as StateName[]).filter((n) => !this.states.has(n)).map((n) => `state ${n}`),
      ...(Object.keys(INTENTS) as IntentName[]).filter((n) => !this.intents.has(n)).map((n) => `intent ${n}`),
      ...(Object.keys(TARGETS) as TargetName[]).filter((n) => !this.targets.has(n)).map((n) => `target ${n}`),
    ];
  }
}
