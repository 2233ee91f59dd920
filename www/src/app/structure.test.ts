// The page's architecture, checked on its source: main.ts only wires the app, and features reach
// the page's chrome through the element handles the app gives them (types.ts `PageElements`),
// never by looking up another feature's elements by selector.
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

describe('page structure', () => {
  it('main.ts only wires the app: under 200 lines', () => {
    const lines = readFileSync(join(SRC, 'main.ts'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(200);
  });

  it('no module looks elements up in the document by selector (main.ts: the root; lessons/: their selectors)', () => {
    const lookups = /document\.(querySelector|querySelectorAll|getElementById|getElementsBy\w+)\(/g;
    const found: string[] = [];
    for (const f of sources(SRC)) {
      const rel = relative(SRC, f);
      // The lessons name what they outline by selectors in their JSON files (their own format).
      if (rel.startsWith('lessons/')) continue;
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(lookups)) {
        const line = text.slice(0, m.index).split('\n').length;
        if (rel === 'main.ts' && text.split('\n')[line - 1]!.includes("getElementById('app')")) continue;
        found.push(`${rel}:${line}`);
      }
    }
    expect(found).toEqual([]);
  });
});
