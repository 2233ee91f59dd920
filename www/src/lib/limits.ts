// The engine's limits on what the page reads from the user (Rust `src/limits.rs`, through the
// generated schema: `generated/schema.ts` `LIMITS`). The page checks them before reading a file or
// posting a text to the worker, so that a file of any size costs nothing: a 100 MB record read
// into the record box and sent to the worker froze the page for tens of seconds or crashed the
// tab. The messages are the engine's own (`RecordError::TooLong`, `NetError::TooLong`).

import { LIMITS } from '../generated/schema';

/** Longest game record read, in bytes of UTF-8: Rust `MAX_RECORD_BYTES`. */
export const MAX_RECORD_BYTES: number = LIMITS.MAX_RECORD_BYTES;

/** Largest network weights file read, in bytes: Rust `MAX_NET_BYTES` (the largest file the
 * format can hold). */
export const MAX_NET_BYTES: number = LIMITS.MAX_NET_BYTES;

/** The engine's sentence for a record of `bytes` bytes over `MAX_RECORD_BYTES`. */
export function recordTooLong(bytes: number): string {
  return `the record is ${bytes} bytes long; records of at most ${MAX_RECORD_BYTES} bytes are read`;
}

/** The engine's sentence for a weights file of `bytes` bytes over `MAX_NET_BYTES`. */
export function netTooLong(bytes: number): string {
  return `the weights file is ${bytes} bytes long; weights files of at most ${MAX_NET_BYTES} bytes are read`;
}

/** The length of `text` in UTF-8, as the worker receives it (a lone surrogate becomes U+FFFD,
 * 3 bytes), without encoding it. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Why `text` is too long to be read as a record (the engine's sentence), or null. */
export function recordTextTooLong(text: string): string | null {
  const n = utf8Length(text);
  return n > MAX_RECORD_BYTES ? recordTooLong(n) : null;
}
