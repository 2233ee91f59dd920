/// <reference lib="webworker" />
// What every part of the worker shares to answer: posting a response, the sentence of an error,
// and telling a trap of the engine (a panic: the module is unusable) from an ordinary error.

import type { Response } from '../protocol';

declare const self: DedicatedWorkerGlobalScope;

/** Posts a response to the page. */
export function send(r: Response): void {
  self.postMessage(r);
}

/** Posts a response whose buffers (`transfer`: a tree snapshot's arrays, trained weights) move to
 * the page instead of being copied. */
export function sendTransferring(r: Response, transfer: Transferable[]): void {
  self.postMessage(r, transfer);
}

/** The sentence of a thrown value. */
export function message(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** Whether `e` is a trap of the WebAssembly module (a panic → `unreachable`). */
export function isTrap(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError;
}
