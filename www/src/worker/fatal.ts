// A trap in the engine (panic → `unreachable`) leaves the module unusable: the worker says why,
// once, forgets the sessions that lived in it, and answers every later request with `fatal`.

import { message, send } from './send';
import { takePanicMessage } from './wasm';

/** Set once the engine has trapped: the sentence every later request gets. */
let dead: string | null = null;

/** What the parts of the worker forget when the engine dies (their running loops and sessions). */
const forgetters: (() => void)[] = [];

/** The sentence of the engine's death, or null while it lives. */
export function deathMessage(): string | null {
  return dead;
}

/** Registers what a part of the worker forgets when the engine dies (called at its load). */
export function onFatal(forget: () => void): void {
  forgetters.push(forget);
}

/** Records the engine's death after the trap `e` (with the panic's message when there is one),
 * and answers request `id` (null: none in particular) with `fatal`. */
export function fatal(id: number | null, e: unknown): void {
  const panic = (() => {
    try {
      return takePanicMessage() ?? null;
    } catch {
      return null;
    }
  })();
  dead = panic ? `engine panicked: ${panic.replace(/\s*\n\s*/g, ' ')}` : `engine crashed: ${message(e)}`;
  for (const forget of forgetters) forget();
  send({ type: 'fatal', id, message: dead });
}
