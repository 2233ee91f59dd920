// THIRD_PARTY_NOTICES of a release artifact (scripts/release.sh): the name, version and license of
// everything another project wrote that the artifact carries, with the license texts (their
// copyright lines included), grouped so that one text is printed once for all who share it.
//
//   node scripts/third-party-notices.mjs site   # the static site and the npm package (www/dist)
//   node scripts/third-party-notices.mjs wheel  # the Python wheel (its extension + the site inside)
//
// What is counted:
//   - Rust crates compiled into the page's WebAssembly: `cargo tree --target wasm32-unknown-unknown
//     -e normal,no-proc-macro` of the engine crate, with and without the feature `train` (the page
//     ships both packages: pkg/ and the Train panel's pkg-train/); procedural macros and build
//     scripts run at build time only and are left out;
//   - Rust crates compiled into the wheel's extension (`python/`, the host target), same edges;
//   - npm packages bundled into the site: the production `dependencies` of www/package.json and
//     theirs, transitively (type-only `@types/*` packages left out: nothing of them is emitted).
// The license of each comes from its manifest (Cargo.toml `license`, package.json `license`), the
// texts from its files named LICENSE*, LICENCE*, COPYING*, NOTICE* (for a crate under "MIT OR
// Apache-2.0" the MIT text, the one that carries the copyright line, is the license we take).
//
// Every license expression is checked against the permissive licenses below: an artifact may be
// released only if each package has one alternative made of them. Anything else — or a package
// without a license — stops the script with the package named (exit status 1).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** SPDX identifiers that allow redistribution in a binary with the notice kept (MPL-2.0 too: its
 * copyleft is per file of the source, which we do not modify). */
const ALLOWED = new Set([
  'MIT',
  'MIT-0',
  'Apache-2.0',
  'Apache-2.0 WITH LLVM-exception',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'ISC',
  'Zlib',
  '0BSD',
  'Unicode-3.0',
  'Unicode-DFS-2016',
  'CC0-1.0',
  'Unlicense',
  'BSL-1.0',
  'MPL-2.0',
]);

/** The alternative of `expr` (an SPDX expression; old "A/B" means "A OR B") we take: the first
 * whose every term is allowed, MIT first when it is offered; null when none is. */
export function chosenLicense(expr) {
  // "(MIT OR Apache-2.0) AND Unicode-3.0": the parenthesised choice, and every term after it.
  const grouped = /^\((.*)\)\s+AND\s+(.*)$/.exec(expr.trim());
  if (grouped) {
    const inner = chosenLicense(grouped[1]);
    const tail = grouped[2].split(/\s+AND\s+/).map((t) => t.trim());
    return inner && tail.every((t) => ALLOWED.has(t)) ? [inner, ...tail].join(' AND ') : null;
  }
  const alternatives = expr
    .replace(/[()]/g, '')
    .split(/\s+OR\s+|\//)
    .map((a) => a.split(/\s+AND\s+/).map((t) => t.trim()));
  const ok = alternatives.filter((terms) => terms.every((t) => ALLOWED.has(t)));
  const pick = ok.find((terms) => terms.includes('MIT')) ?? ok[0];
  return pick ? pick.join(' AND ') : null;
}

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 << 20 });

/** The crates (`name version`) `cargo tree` lists for `args` in `cwd`, without the workspace's own. */
function crates(cwd, args) {
  const out = run('cargo', ['tree', '--quiet', '-e', 'normal,no-proc-macro', '--prefix', 'none', '-f', '{p}', ...args], cwd);
  const seen = new Set();
  for (const line of out.split('\n')) {
    const m = /^(\S+) v(\S+)( \(\/.*\))?/.exec(line);
    if (m && !m[3]) seen.add(`${m[1]} ${m[2]}`);
  }
  return seen;
}

/** name version → { license, dir } from `cargo metadata` of the crate in `cwd`. */
function cargoPackages(cwd) {
  const meta = JSON.parse(run('cargo', ['metadata', '--format-version', '1', '--all-features', '--quiet'], cwd));
  return new Map(
    meta.packages.map((p) => [
      `${p.name} ${p.version}`,
      {
        license: p.license ?? '',
        dir: dirname(p.manifest_path),
        authors: p.authors ?? [],
        source: p.repository ?? `https://crates.io/crates/${p.name}/${p.version}`,
      },
    ]),
  );
}

/** The bundled npm packages: the production dependencies of www/, transitively. */
function npmPackages() {
  const nm = join(ROOT, 'www', 'node_modules');
  const out = new Map();
  const visit = (name) => {
    if (name.startsWith('@types/')) return;
    const dir = join(nm, name);
    if (!existsSync(join(dir, 'package.json'))) return;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const key = `${pkg.name} ${pkg.version}`;
    if (out.has(key)) return;
    const author = typeof pkg.author === 'string' ? pkg.author : (pkg.author?.name ?? '');
    out.set(key, {
      license: pkg.license ?? '',
      dir,
      authors: author ? [author] : [],
      source: `https://www.npmjs.com/package/${pkg.name}/v/${pkg.version}`,
    });
    for (const d of Object.keys(pkg.dependencies ?? {})) visit(d);
  };
  const www = JSON.parse(readFileSync(join(ROOT, 'www', 'package.json'), 'utf8'));
  for (const d of Object.keys(www.dependencies ?? {})) visit(d);
  return out;
}

/** The license texts of a package: its MIT file when MIT alone is the license taken, else every file. */
function licenseTexts(dir, chosen) {
  const files = readdirSync(dir)
    .filter((f) => /^(licen[cs]e|copying|notice)/i.test(f))
    .sort();
  const mit = files.filter((f) => /mit/i.test(f));
  const pick = chosen === 'MIT' && mit.length > 0 ? mit : files;
  return pick.map((f) => readFileSync(join(dir, f), 'utf8').trim());
}

/** The permission notice of the MIT license (https://opensource.org/license/mit). */
const MIT_TEXT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN
AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE
USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/** The notice of a package that ships no license file: its manifest's license, its authors and
 * where it is published; under MIT, the MIT permission notice with the authors as holders. */
function noFileText(key, license, authors, source) {
  const who = authors.length > 0 ? authors.join(', ') : `the authors of ${key.split(' ')[0]}`;
  const head = `(${key} ships no license file; its manifest says ${license}; published at ${source})`;
  return license.startsWith('MIT') ? `${head}\n\nCopyright (c) ${who}\n\n${MIT_TEXT}` : `${head}\n\nCopyright (c) ${who}`;
}

/** One section: the packages of `table` (key → {license, dir}), each with its license taken. */
function section(title, table, problems) {
  const groups = new Map(); // text → packages
  const lines = [];
  for (const key of [...table.keys()].sort()) {
    const { license, dir, authors, source } = table.get(key);
    const chosen = license ? chosenLicense(license) : null;
    if (!chosen)
      problems.push(`${key}: license "${license || 'none given'}" is not one we may redistribute (allowed: ${[...ALLOWED].join(', ')})`);
    lines.push(`  ${key.padEnd(42)} ${license}${chosen && chosen !== license ? `  (used under ${chosen})` : ''}`);
    const texts = licenseTexts(dir, chosen ?? '');
    let text = texts.length > 0 ? texts.join('\n\n----\n\n') : noFileText(key, chosen ?? license, authors, source);
    // MPL-2.0 (file-level copyleft): we ship its files unmodified; the source form is where it is published.
    if (/MPL-2\.0/.test(chosen ?? '')) text = `${text}\n\n(MPL-2.0: ${key} is used unmodified; its source code form: ${source})`;
    groups.set(text, [...(groups.get(text) ?? []), key]);
  }
  const out = [`## ${title} (${table.size})`, '', ...lines, ''];
  for (const [text, keys] of groups) out.push(`### ${keys.join(', ')}`, '', text, '');
  return out.join('\n');
}

const which = process.argv[2];
if (which !== 'site' && which !== 'wheel') {
  console.error('usage: node scripts/third-party-notices.mjs site|wheel');
  process.exit(2);
}
const rootMeta = cargoPackages(ROOT);
const pick = (keys, meta) => new Map([...keys].map((k) => [k, meta.get(k)]));
const wasmKeys = new Set([
  ...crates(ROOT, ['--target', 'wasm32-unknown-unknown']),
  ...crates(ROOT, ['--target', 'wasm32-unknown-unknown', '--features', 'train']),
]);
const problems = [];
const parts = [
  '# Third-party notices',
  '',
  which === 'site'
    ? 'The MCTS playground site (the page, its WebAssembly engine and the <mcts-playground> element) carries the works below. The playground itself is under the MIT license (LICENSE).'
    : 'The mcts-playground Python package carries the works below: the crates compiled into its extension module, and the playground site (its WebAssembly engine and the npm packages bundled into it) in mcts_playground/page/ for the notebook widget. The playground itself is under the MIT license (LICENSE).',
  '',
];
if (which === 'wheel') {
  const py = join(ROOT, 'python');
  parts.push(
    section('Rust crates compiled into the extension module (mcts_playground/_core)', pick(crates(py, []), cargoPackages(py)), problems),
  );
}
parts.push(
  section(
    'Rust crates compiled into the WebAssembly engine (pkg/, and pkg-train/ for the Train panel)',
    pick(wasmKeys, rootMeta),
    problems,
  ),
);
parts.push(section('npm packages bundled into the page scripts', npmPackages(), problems));
parts.push(
  '## Code generated by the build tools',
  '',
  "The page's scripts contain small runtime helpers emitted by Vite (MIT, Copyright (c) 2019-present, VoidZero Inc. and Vite contributors: its module preload helper) and esbuild (MIT, Copyright (c) 2020 Evan Wallace), and the JavaScript glue emitted by wasm-bindgen (MIT OR Apache-2.0, listed above).",
  '',
);
// The book (book/, built by mdBook from docs/): mdBook's theme and the assets it bundles into every
// book. The fonts' license texts ship beside them (book/fonts/*-LICENSE.txt); mdBook's own MPL-2.0
// text is taken from the crate's source that `cargo install mdbook` fetched, when it is there.
if (existsSync(join(ROOT, 'www', 'dist', 'book', 'index.html'))) {
  const registry = join(process.env.CARGO_HOME ?? join(process.env.HOME ?? '', '.cargo'), 'registry', 'src');
  const mdbookLicense = existsSync(registry)
    ? readdirSync(registry)
        .flatMap((d) =>
          readdirSync(join(registry, d))
            .filter((c) => /^mdbook-\d/.test(c))
            .map((c) => join(registry, d, c, 'LICENSE')),
        )
        .find((f) => existsSync(f))
    : undefined;
  parts.push(
    '## The book (book/, built by mdBook)',
    '',
    '- mdBook (MPL-2.0; its theme: templates, book.js, CSS; used unmodified, source at https://github.com/rust-lang/mdBook)',
    '- highlight.js (BSD-3-Clause, Copyright (c) 2006, Ivan Sagalaev), as bundled by mdBook',
    '- Font Awesome 4.7 by Dave Gandy (font: SIL Open Font License 1.1; CSS: MIT)',
    '- Open Sans (Apache-2.0; text in book/fonts/OPEN-SANS-LICENSE.txt) and Source Code Pro (SIL Open Font License 1.1; text in book/fonts/SOURCE-CODE-PRO-LICENSE.txt)',
    '- clipboard.js (MIT, Copyright (c) Zeno Rocha), elasticlunr.js (MIT, Copyright (c) 2017 Wei Song and Oliver Nightingale), mark.js (MIT, Copyright (c) Julian Kühnel)',
    '',
    ...(mdbookLicense ? ['### mdBook', '', readFileSync(mdbookLicense, 'utf8').trim(), ''] : []),
  );
}
if (problems.length > 0) {
  console.error(`third-party-notices: ${problems.length} package(s) with a license we may not redistribute:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
process.stdout.write(parts.join('\n'));
