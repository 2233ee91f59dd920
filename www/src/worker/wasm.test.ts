// The worker is the only importer of the wasm packages, and within it wasm.ts alone: the page
// reaches the engine through the worker protocol (protocol.ts), never by calling the package.
// Unit tests that drive a package directly (Node, `initSync`) are left aside.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the wasm packages', () => {
  it('are imported by src/worker/wasm.ts alone', () => {
    const importers = sources(SRC)
      .filter((f) => /['"](\.\.\/)+pkg(-train)?\/mcts_playground\.js['"]/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(importers).toEqual(['worker/wasm.ts']);
  });
});
