import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, netTooLong, recordTextTooLong, recordTooLong, utf8Length } from './limits';

describe("the engine's input limits on the page", () => {
  it("says what the engine says (tests/limits.rs's sentences)", () => {
    expect(recordTooLong(1_000_001)).toBe('the record is 1000001 bytes long; records of at most 1000000 bytes are read');
    expect(netTooLong(71_442_530)).toBe('the weights file is 71442530 bytes long; weights files of at most 71442529 bytes are read');
  });

  it('counts UTF-8 bytes as the worker receives the text (lone surrogates as U+FFFD)', () => {
    for (const s of ['', 'hex:7\nd4 c5', 'é', '€', '😀', 'a😀b', '\ud83d', 'x\udc00y', '\ud83d\ud83d', 'é€😀'.repeat(1000)])
      expect(utf8Length(s), JSON.stringify(s)).toBe(new TextEncoder().encode(s).length);
  });

  it('refuses a record text by its length in bytes, not in characters', () => {
    expect(recordTextTooLong('x'.repeat(MAX_RECORD_BYTES))).toBeNull();
    expect(recordTextTooLong('x'.repeat(MAX_RECORD_BYTES + 1))).toBe(recordTooLong(MAX_RECORD_BYTES + 1));
    // 500,001 characters of two bytes each: under the limit in characters, over it in bytes.
    expect(recordTextTooLong('é'.repeat(500_001))).toBe(recordTooLong(1_000_002));
  });
});
