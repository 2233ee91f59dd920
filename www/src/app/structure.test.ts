// The page's architecture, checked on its source: main.ts only wires the app, features reach the
// page's chrome through the element handles the app gives them (types.ts `PageElements`), never
// by looking up another feature's elements by selector, and no function is a whole feature (a
// feature is a controller and a view of functions that each do one thing).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
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

  it('no module looks elements up in the document by selector (main.ts: the root), the lessons included', () => {
    const lookups = /document\.(querySelector|querySelectorAll|getElementById|getElementsBy\w+)\(/g;
    const found: string[] = [];
    for (const f of sources(SRC)) {
      const rel = relative(SRC, f);
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(lookups)) {
        const line = text.slice(0, m.index).split('\n').length;
        if (rel === 'main.ts' && text.split('\n')[line - 1]!.includes("getElementById('app')")) continue;
        found.push(`${rel}:${line}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the lessons reach the page only through the lesson registry: no selector lookups, no data attributes (migrate.ts reads version-1 selectors as data)', () => {
    const found: string[] = [];
    for (const f of sources(join(SRC, 'lessons'))) {
      const rel = relative(SRC, f);
      if (rel === 'lessons/migrate.ts') continue;
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/querySelector(All)?\(|closest\(|\[data-|\.dataset\.(?!step\b|stepState\b|broken\b)/g))
        found.push(`${rel}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });

  it('no feature reads a board’s or the node-link view’s elements: cells, shapes and nodes come from BoardSurface and NodeLink', () => {
    // A board's cells (`[data-index]` groups, `.cell-bg` shapes), its <svg> looked up in a host,
    // the node-link view's `.nl-*` nodes and `[data-node]` groups: only board/ (the renderers)
    // and tree/ (the views) read them; features use `BoardSurface.cellGeometry`, `overlayLayer`,
    // `cellAt`, `setCellTitle` and `svg` (lib/board-surface.ts), and `NodeLink.mark`, `setHighlight` and
    // `nodeCount`.
    const reads =
      /\[data-index|\.cell-bg\b|querySelector(?:All)?(?:<[^>]*>)?\(\s*['"`]svg\b|(?:querySelector(?:All)?|closest)(?:<[^>]*>)?\([^)]*(?:\.nl-|\[data-node)/g;
    const found: string[] = [];
    for (const f of sources(SRC)) {
      const rel = relative(SRC, f);
      if (rel.startsWith('board/') || rel.startsWith('tree/')) continue;
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(reads)) found.push(`${rel}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });

  it('no function over 250 lines', () => {
    const long: string[] = [];
    for (const f of sources(SRC)) {
      const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (n: ts.Node): void => {
        if (ts.isFunctionLike(n) && 'body' in n && n.body) {
          const first = sf.getLineAndCharacterOfPosition(n.getStart()).line;
          const last = sf.getLineAndCharacterOfPosition(n.end).line;
          if (last - first + 1 > 250) long.push(`${relative(SRC, f)}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
    expect(long).toEqual([]);
  });
});
