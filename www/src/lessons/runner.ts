// The lesson runner: does a step's actions through the lesson registry (registry.ts) — triggers each
// intent, waits until each named state holds — and says in a sentence what it waited for in vain.
// It waits on the registry's change notices (the features' stores), never by polling the page, and
// gives up after `timeoutMs` (a search that never ends, a feature that never mounts). No DOM:
// unit-tested in Node with a registry of fake features.

import type { LessonRegistry } from './registry';
import type { StateName } from './catalogue';
import type { Condition, Expect, LessonAction } from './format';

/** Whether `value` is what `expect` asks (format.ts `Expect`). */
export function matches(value: unknown, expect: Expect): boolean {
  if (expect === null || typeof expect !== 'object') return Object.is(value, expect);
  if ('atLeast' in expect) return typeof value === 'number' && value >= expect.atLeast;
  if ('includes' in expect) return Array.isArray(value) && value.includes(expect.includes);
  return !Object.is(value, expect.not);
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

function expectText(e: Expect): string {
  if (e === null || typeof e !== 'object') return `= ${show(e)}`;
  if ('atLeast' in e) return `≥ ${e.atLeast}`;
  if ('includes' in e) return `includes ${e.includes}`;
  return `≠ ${show(e.not)}`;
}

const entries = (c: Condition) => Object.entries(c) as [StateName, Expect][];

/** The condition in words: `compare.state = "done" and compare.exact = "proven"`. */
export function describeCondition(c: Condition): string {
  return entries(c)
    .map(([k, e]) => `${k} ${expectText(e)}`)
    .join(' and ');
}

/** Whether every part of `c` holds now (a state no feature registered does not hold). */
export function holds<E>(registry: LessonRegistry<E>, c: Condition): boolean {
  return entries(c).every(([k, e]) => {
    const r = registry.read(k);
    return r.registered && matches(r.value, e);
  });
}

/** What the named states are now, for a message. */
function now<E>(registry: LessonRegistry<E>, c: Condition): string {
  return entries(c)
    .map(([k]) => {
      const r = registry.read(k);
      return r.registered ? `${k} is ${show(r.value)}` : `${k} is not on the page (no feature registered it)`;
    })
    .join(', ');
}

/** Resolves once `ok()` is true, re-checked on every change the registry is told of; rejects with
 * `why()` after `timeoutMs`. */
export function until<E>(registry: LessonRegistry<E>, ok: () => boolean, timeoutMs: number, why: () => string): Promise<void> {
  if (ok()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const off = registry.subscribe(() => {
      if (!ok()) return;
      off();
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      off();
      reject(new Error(why()));
    }, timeoutMs);
  });
}

/** Resolves once `c` holds. */
export function waitFor<E>(registry: LessonRegistry<E>, c: Condition, timeoutMs: number): Promise<void> {
  const secs = Math.round(timeoutMs / 1000);
  return until(
    registry,
    () => holds(registry, c),
    timeoutMs,
    () => `waited ${secs} s in vain for ${describeCondition(c)} (now ${now(registry, c)})`,
  );
}

export interface RunOptions {
  /** How long one action may wait (default 120 s: a long search or training iteration). */
  timeoutMs?: number;
}

/** Does a step's actions in order: an intent is triggered once its feature has registered it
 * (the Train view mounts on first open), a condition is waited for. Rejects with a sentence
 * naming the action that could not finish. */
export async function runActions<E>(actions: readonly LessonAction[], registry: LessonRegistry<E>, opts: RunOptions = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  for (const [k, a] of actions.entries()) {
    const where = `action ${k + 1}`;
    if ('intent' in a) {
      const name = a.intent;
      await until(
        registry,
        () => registry.hasIntent(name),
        timeoutMs,
        () => `${where}: ${name} is not on the page (no feature registered it)`,
      );
      try {
        registry.trigger(name, a.args);
      } catch (e) {
        throw new Error(`${where} (${name}): ${e instanceof Error ? e.message : String(e)}`);
      }
    } else {
      try {
        await waitFor(registry, a.waitFor, timeoutMs);
      } catch (e) {
        throw new Error(`${where}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}
