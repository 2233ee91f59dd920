// The worker is the only importer of the wasm packages, and within it wasm.ts alone: the page
// reaches the engine through the worker protocol (protocol.ts), never by calling the package.
// Unit tests that drive a package directly (Node, `initSync`) are left aside.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..');

describe('the wasm packages', () => {
  it('are imported by src/worker/wasm.ts alone', () => {
    const importers = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /['"](\.\.\/)+pkg(-train)?\/mcts_playground\.js['"]/.test(readFileSync(join(SRC, f), 'utf8')))
      .sort();
    expect(importers).toEqual(['worker/wasm.ts']);
  });
});
