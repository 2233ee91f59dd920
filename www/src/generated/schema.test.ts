import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS, NET_PRESETS, PARAM_NAMES, PARAMS, PRESET_NAMES, PRESETS } from './schema';

const json = JSON.parse(readFileSync(new URL('./schema.json', import.meta.url), 'utf8'));

describe('the generated schema (www/gen-schema.mjs from `mcts schema --json`)', () => {
  it('is what gen-schema.mjs writes from schema.json now (not stale)', () => {
    // Exits 1 with the command to run when schema.ts differs from what the JSON gives.
    const script = new URL('../../gen-schema.mjs', import.meta.url);
    expect(() => execFileSync(process.execPath, [script.pathname, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('holds every parameter and preset of the JSON, in order', () => {
    expect(PARAM_NAMES).toEqual(json.parameters.map((p: { name: string }) => p.name));
    expect(PRESET_NAMES).toEqual(json.presets.map((p: { name: string }) => p.name));
    expect(NET_PRESETS).toEqual(['alphazero', 'alphago', 'puct-net']);
    expect(PARAMS.c.range).toEqual({ min: 0, max: 100, min_open: false, text: '[0, 100]' });
    expect(PARAMS.pool_k.type).toBe('integer');
    expect(PRESETS.rave.changes.value).toBe('rave');
    expect(LIMITS.MAX_REQUEST_MOVES).toBe(1000);
  });
});
