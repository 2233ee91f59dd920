import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_LIMITS, allowedOrigins, parseCommand } from './commands';

const msg = (fields: Record<string, unknown>) => ({ source: 'mcts-playground', version: 1, ...fields });
const err = (data: unknown) => {
  const r = parseCommand(data);
  if (!('err' in r)) throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.err;
};

describe('embed commands', () => {
  it('ignores messages that are not ours', () => {
    for (const d of [null, 'x', 7, [], { type: 'setPosition' }, { source: 'other', version: 1 }])
      expect(parseCommand(d)).toEqual({ ignore: true });
  });

  it('accepts the documented commands and keeps only their fields', () => {
    expect(parseCommand(msg({ type: 'setPosition', game: 'hex:5', moves: ['c3'] }))).toEqual({
      ok: { type: 'setPosition', game: 'hex:5', moves: ['c3'] },
    });
    expect(parseCommand(msg({ type: 'setPosition', moves: 'c3 d4' }))).toEqual({ ok: { type: 'setPosition', moves: 'c3 d4' } });
    expect(parseCommand(msg({ type: 'startSearch', budget: { kind: 'playouts', value: 500 }, preset: 'rave', play: true }))).toEqual({
      ok: { type: 'startSearch', budget: { kind: 'playouts', value: 500 }, preset: 'rave', play: true },
    });
    expect(parseCommand(msg({ type: 'startSearch' }))).toEqual({ ok: { type: 'startSearch' } });
    expect(parseCommand(msg({ type: 'review' }))).toEqual({ ok: { type: 'review' } });
    expect(parseCommand(msg({ type: 'review', budget: { kind: 'millis', value: 250 }, seed: 3 }))).toEqual({
      ok: { type: 'review', budget: { kind: 'millis', value: 250 }, seed: 3 },
    });
  });

  it('names what is wrong with a review command', () => {
    expect(err(msg({ type: 'review', seed: -1 }))).toBe("review: field 'seed' must be a whole number in 0..10^15");
    expect(err(msg({ type: 'review', seed: 1.5 }))).toBe("review: field 'seed' must be a whole number in 0..10^15");
    expect(err(msg({ type: 'review', budget: { kind: 'playouts', value: 0 } }))).toMatch(/value must be a whole number/);
    expect(err(msg({ type: 'review', preset: 'uct' }))).toBe('review: unknown field "preset" (expected budget, seed)');
  });

  it('takes a review to show, and names what is wrong with it', () => {
    const report = JSON.parse(readFileSync(new URL('../review/testdata/hex9-estimates.json', import.meta.url), 'utf8'));
    expect(parseCommand(msg({ type: 'showReview', report }))).toEqual({ ok: { type: 'showReview', report } });
    expect(err(msg({ type: 'showReview' }))).toBe("showReview: field 'report' is missing");
    expect(err(msg({ type: 'showReview', report: { ...report, plies: [] } }))).toBe(
      'showReview: field \'report\' is not a review: the review cannot be read: "plies" must hold one entry per move (10), not 0',
    );
    const long = { ...report, moves: Array.from({ length: 1001 }, () => 'a1') };
    expect(err(msg({ type: 'showReview', report: long }))).toBe("showReview: field 'report' must review at most 1000 moves (got 1001)");
  });

  it('names the problem: version, unknown type, wrong field types, extra keys', () => {
    expect(err(msg({ version: 2, type: 'setPosition' }))).toBe('unsupported protocol version 2 (this page speaks version 1)');
    expect(err(msg({ type: 'fly' }))).toBe('unknown command "fly" (expected setPosition, startSearch, review or showReview)');
    expect(err(msg({ type: 7 }))).toMatch(/unknown command 7/);
    expect(err(msg({ type: 'toString' }))).toMatch(/unknown command "toString"/);
    expect(err(msg({ type: '__proto__' }))).toMatch(/unknown command "__proto__"/);
    expect(err(msg({ type: 'setPosition', game: 5 }))).toBe("setPosition: field 'game' must be a string");
    expect(err(msg({ type: 'setPosition', moves: [1, 2] }))).toMatch(/field 'moves' entry 1 must be a move string/);
    expect(err(msg({ type: 'setPosition', moves: { length: 1 } }))).toMatch(/field 'moves' must be an array/);
    expect(err(msg({ type: 'startSearch', play: 'yes' }))).toBe("startSearch: field 'play' must be true or false");
    expect(err(msg({ type: 'startSearch', budget: { kind: 'millis', value: -5 } }))).toMatch(/value must be a whole number/);
    expect(err(msg({ type: 'startSearch', budget: { kind: 'hours', value: 5 } }))).toMatch(/kind must be/);
    expect(err(msg({ type: 'startSearch', budget: { kind: 'millis', value: 5, extra: 1 } }))).toMatch(/unknown field "extra"/);
    expect(err(msg({ type: 'setPosition', innerHTML: '<img src=x onerror=alert(1)>' }))).toBe(
      'setPosition: unknown field "innerHTML" (expected game, moves)',
    );
    // An own `__proto__` key (as JSON.parse and structured cloning make it) is refused, not merged.
    const proto = JSON.parse('{"source":"mcts-playground","version":1,"type":"setPosition","__proto__":{"polluted":true}}');
    expect(err(proto)).toMatch(/unknown field "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(err(msg({ type: 'setPosition', constructor: 'x' }))).toMatch(/unknown field "constructor"/);
  });

  it('names the type of a version that is not a number, never contradicting itself', () => {
    expect(err(msg({ version: '1', type: 'setPosition' }))).toBe('version must be the number 1, got the string "1"');
    expect(err(msg({ version: ' 1 ', type: 'setPosition' }))).toBe('version must be the number 1, got the string " 1 "');
    expect(err(msg({ version: null, type: 'setPosition' }))).toBe('version must be the number 1, got null');
    expect(err(msg({ version: true, type: 'setPosition' }))).toBe('version must be the number 1, got the boolean true');
    expect(err(msg({ version: [1], type: 'setPosition' }))).toBe('version must be the number 1, got an array');
    expect(err(msg({ version: { major: 1 }, type: 'setPosition' }))).toBe('version must be the number 1, got an object');
    expect(err({ source: 'mcts-playground', type: 'setPosition' })).toBe('version is missing: it must be the number 1');
    expect(err(msg({ version: 'x'.repeat(100), type: 'setPosition' }))).toMatch(/^version must be the number 1, got the string "x{40}…"$/);
    // An inherited `version` is not the message's own.
    expect(err(Object.assign(Object.create({ version: 1 }), { source: 'mcts-playground', type: 'setPosition' }))).toMatch(/missing/);
  });

  it('enforces the limits', () => {
    expect(err(msg({ type: 'setPosition', game: 'h'.repeat(COMMAND_LIMITS.spec + 1) }))).toMatch(/at most 64 characters/);
    expect(err(msg({ type: 'setPosition', moves: Array(COMMAND_LIMITS.moves + 1).fill('a1') }))).toMatch(/at most 1000 moves/);
    expect(err(msg({ type: 'setPosition', moves: 'a1 '.repeat(10_000) }))).toMatch(/at most 20000 characters/);
    expect(err(msg({ type: 'startSearch', budget: { kind: 'millis', value: 2 ** 60 } }))).toMatch(/whole number/);
  });

  it('reads allowed-origins', () => {
    expect(allowedOrigins(null)).toEqual({ origins: null });
    expect(allowedOrigins('https://a.example.org, http://localhost:8080/path')).toEqual({
      origins: ['https://a.example.org', 'http://localhost:8080'],
    });
    expect(allowedOrigins('https://a.example.org not-an-origin').error).toMatch(/'not-an-origin' is not an origin/);
    expect(allowedOrigins('  ').error).toMatch(/empty/);
    expect(allowedOrigins('javascript:alert(1)').error).toMatch(/not an origin/);
  });

  it('normalises allowed-origins and names each origin once', () => {
    expect(allowedOrigins('http://localhost:8124/ http://LOCALHOST:8124')).toEqual({ origins: ['http://localhost:8124'] });
    expect(
      allowedOrigins('HTTPS://A.example.org:443/x,https://a.example.org https://b.example.org, https://a.example.org/other?q#h'),
    ).toEqual({ origins: ['https://a.example.org', 'https://b.example.org'] });
    expect(allowedOrigins('http://localhost:80 http://localhost')).toEqual({ origins: ['http://localhost'] });
  });
});
