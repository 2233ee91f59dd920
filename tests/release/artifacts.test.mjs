// The release artifacts of scripts/release.sh (dist/), each tried as its user would, in a clean
// temporary place, never from the checkout:
//   1. the site archive, unpacked under a deep sub-path and served by a plain static server
//      (Python's http.server: no special header, no rewriting): the page loads, a person plays a
//      move and the engine answers;
//   2. the npm package, installed from its .tgz into an empty project and served by a plain server
//      on one port, a course page on ANOTHER port (another origin) with one <script src> of its
//      embed.js and one <mcts-playground>: the board appears, a move is played and the engine
//      answers; the worker and the wasm came from the package's server;
//   3. the wheel, installed with pip into a fresh virtual environment: `import mcts_playground`
//      runs a search, and the widget's page is inside the installed package and served.
// Each carries LICENSE and THIRD_PARTY_NOTICES. The time from the empty page / fresh environment to
// the first search is printed (measured, never asserted).
//
//   bash scripts/release.sh --no-build && node --test --test-concurrency=1 tests/release/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boardReady, launchChromium, moves, ROOT, SCREENSHOTS, WAIT_MS, waitForPly, waitPersonTurn } from '../browser/harness.mjs';

const DIST = join(ROOT, 'dist');
/** The version: the engine crate's (Cargo.toml), as scripts/release.sh reads it. */
const VERSION = /\[package\][^[]*?\nversion = "([^"]+)"/.exec(readFileSync(join(ROOT, 'Cargo.toml'), 'utf8'))?.[1];

/** The artifact of dist/ whose name matches `re` (scripts/release.sh must have run). */
function artifact(re) {
  const names = existsSync(DIST) ? readdirSync(DIST).filter((f) => re.test(f)) : [];
  assert.equal(names.length, 1, `one artifact ${re} in dist/ (found: ${names.join(', ') || 'none'}): run bash scripts/release.sh first`);
  return join(DIST, names[0]);
}

const temps = [];
const servers = [];
let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
function tempDir(name) {
  const d = mkdtempSync(join(tmpdir(), `mcts-release-${name}-`));
  temps.push(d);
  return d;
}

/** A plain static server of `dir` (Python's http.server on 127.0.0.1, a free port): no headers of
 * ours. Resolves when it says it is serving; `requests` holds the paths it answered. */
function plainServer(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const requests = [];
    const server = { requests, close: () => child.kill() };
    servers.push(server);
    let out = '';
    child.stdout.on('data', (b) => {
      out += b;
      const m = /port (\d+)/.exec(out);
      if (m && !server.url) {
        server.url = `http://127.0.0.1:${m[1]}/`;
        resolve(server);
      }
    });
    // Its request log: `127.0.0.1 - - [date] "GET /path HTTP/1.1" 200 -`.
    child.stderr.on('data', (b) => {
      for (const m of String(b).matchAll(/"GET (\S+) HTTP\/1\.\d" (\d+)/g)) requests.push({ path: m[1], status: Number(m[2]) });
    });
    child.on('error', reject);
    child.on('exit', (code) => server.url || reject(new Error(`python3 -m http.server exited (${code}): ${out}`)));
  });
}

/** A fresh browser page that records console errors, page errors and failed requests. */
async function openPage(viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.problems = [];
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => page.problems.push(`page error: ${e}`));
  page.on('requestfailed', (r) => page.problems.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && page.problems.push(`${r.url()} HTTP ${r.status()}`));
  return page;
}

/** A Python 3.11 or later, as scripts/test-python.sh picks it (the wheel is abi3 for 3.11+). */
function python311() {
  for (const c of ['python3.13', 'python3.12', 'python3.11', 'python3']) {
    try {
      execFileSync(c, ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'], { stdio: 'ignore' });
      return c;
    } catch {}
  }
  assert.fail('no Python 3.11 or later on this machine: the wheel cannot be tried');
}

const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1);

test('the site archive works unpacked under a deep sub-path of a plain static server', async () => {
  const archive = artifact(new RegExp(`^mcts-playground-site-${VERSION}\\.tar\\.gz$`));
  const root = tempDir('site');
  const deep = join(root, 'some', 'deep', 'path');
  mkdirSync(deep, { recursive: true });
  execFileSync('tar', ['-xzf', archive, '-C', deep]);
  const site = join(deep, `mcts-playground-site-${VERSION}`);
  for (const f of ['index.html', 'embed.js', 'docs.html', 'LICENSE', 'THIRD_PARTY_NOTICES'])
    assert.ok(existsSync(join(site, f)), `${f} in the archive's folder`);
  assert.ok(readdirSync(join(site, 'models')).length > 0, 'the nets and patterns (models/) are in the archive');

  const server = await plainServer(root);
  const base = `${server.url}some/deep/path/mcts-playground-site-${VERSION}/`;
  const page = await openPage();
  const t0 = performance.now();
  await page.goto(`${base}?game=hex:5&p0=person&p1=engine&preset=uct&playouts=1000&seed=1`);
  await boardReady(page);
  await waitPersonTurn(page, 0);
  await page.click('[data-cell="c3"]');
  await waitForPly(page, 2);
  console.log(`site: empty tab to the engine's first reply ${seconds(t0)} s`);
  const played = await moves(page);
  assert.equal(played[0], 'c3');
  assert.match(played[1], /^[a-e][1-5]$/, "the engine's reply is a cell of the 5×5 board");
  await page.screenshot({ path: join(SCREENSHOTS, 'release-site.png') });
  assert.deepEqual(page.problems, [], 'no console error, no failed request');
  // Everything came from the sub-path (relative URLs), nothing from the server's root.
  const outside = server.requests.filter((r) => !r.path.startsWith(`/some/deep/path/mcts-playground-site-${VERSION}/`));
  assert.deepEqual(outside, [], 'no request outside the sub-path');
  const paths = server.requests.map((r) => r.path);
  assert.ok(
    paths.some((p) => /\/assets\/worker-[\w-]+\.js$/.test(p)),
    'the worker came from the sub-path',
  );
  assert.ok(
    paths.some((p) => /\/assets\/mcts_playground_bg-[\w-]+\.wasm$/.test(p)),
    'the engine came from the sub-path',
  );
  await page.context().close();
});

test('the npm package: one script tag and one element in a course page on another origin play against the engine', async () => {
  const tgz = artifact(new RegExp(`^mcts-playground-${VERSION}\\.tgz$`));
  // The package installed as npm installs it, into an empty project (no registry needed: a local
  // tarball without dependencies).
  const project = tempDir('npm');
  writeFileSync(join(project, 'package.json'), '{ "name": "course-site", "private": true }\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tgz], { cwd: project });
  const pkgDir = join(project, 'node_modules', 'mcts-playground');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  assert.equal(pkg.version, VERSION, 'the package has the crate version');
  assert.equal(pkg.license, 'MIT');
  for (const f of [pkg.browser, 'index.html', 'LICENSE', 'THIRD_PARTY_NOTICES', 'README.md'])
    assert.ok(existsSync(join(pkgDir, f)), `${f} in the package`);

  // The package's server (port A, like a CDN's /npm/NAME@VERSION/) and the course page's (port B).
  const cdn = await plainServer(join(project, 'node_modules'));
  const courseDir = tempDir('course');
  const course = await plainServer(courseDir);
  const script = `${cdn.url}mcts-playground/${pkg.browser}`;
  writeFileSync(
    join(courseDir, 'week3.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Week 3</title></head>
<body style="font-family: sans-serif; margin: 1rem"><h1>Week 3: Monte Carlo tree search</h1>
<script>window.__events = [];
document.addEventListener('DOMContentLoaded', () => {
  for (const t of ['loading', 'ready', 'move', 'error'])
    document.querySelector('mcts-playground').addEventListener(t, (e) => window.__events.push({ type: t, ...e.detail }));
});</script>
<script src="${script}"></script>
<mcts-playground game="hex:5" p0="person" p1="engine" preset="rave" playouts="1000" seed="1"></mcts-playground>
</body></html>`,
  );
  assert.notEqual(new URL(course.url).origin, new URL(cdn.url).origin, 'the course page is on another origin');
  const page = await openPage({ width: 900, height: 800 });
  const t0 = performance.now();
  await page.goto(`${course.url}week3.html`);
  await page.waitForFunction(() => window.__events.some((e) => e.type === 'ready'));
  const frame = page
    .frames()
    .find((f) => f.url().startsWith(`${cdn.url}mcts-playground/index.html?`) && new URL(f.url()).searchParams.get('embed') === '1');
  assert.ok(
    frame,
    `the element framed the package's index.html (frames: ${page
      .frames()
      .map((f) => f.url())
      .join(', ')})`,
  );
  await boardReady(frame);
  await waitPersonTurn(frame, 0);
  await frame.click('[data-cell="c3"]');
  await page.waitForFunction(() => window.__events.filter((e) => e.type === 'move').length >= 2);
  console.log(`npm package: empty course page to the engine's first reply ${seconds(t0)} s`);
  const moves = await page.evaluate(() => window.__events.filter((e) => e.type === 'move').map((e) => e.move));
  assert.equal(moves[0], 'c3');
  assert.match(moves[1], /^[a-e][1-5]$/, "the engine's reply is a cell of the 5×5 board");
  // Single-threaded, no special header: the frame is not cross-origin isolated, and its worker
  // and engine came from the package's server.
  assert.equal(await frame.evaluate(() => globalThis.crossOriginIsolated), false);
  const paths = cdn.requests.map((r) => r.path);
  assert.ok(
    paths.some((p) => /^\/mcts-playground\/assets\/worker-[\w-]+\.js$/.test(p)),
    "the worker came from the package's server",
  );
  assert.ok(
    paths.some((p) => /^\/mcts-playground\/assets\/mcts_playground_bg-[\w-]+\.wasm$/.test(p)),
    "the engine came from the package's server",
  );
  assert.deepEqual(page.problems, [], 'no console error, no failed request');
  await page.screenshot({ path: join(SCREENSHOTS, 'release-npm-course-page.png') });
  await page.context().close();
});

test('the wheel in a fresh virtual environment: import mcts_playground runs a search, the widget page is inside', () => {
  const wheel = artifact(new RegExp(`^mcts_playground-${VERSION}-.*\\.whl$`));
  const dir = tempDir('wheel');
  const venv = join(dir, 'venv');
  const t0 = performance.now();
  execFileSync(python311(), ['-m', 'venv', venv]);
  const python = join(venv, 'bin', 'python');
  // As a teacher installs it (docs/releases.md): the wheel with the widget's extra.
  execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `${wheel}[widget]`], {
    cwd: dir,
    stdio: 'inherit',
  });
  const code = `
import json, pathlib, urllib.request
import mcts_playground as mp
from mcts_playground import widget
report = mp.search(mp.Game("hex:5"), preset="uct", iterations=2000, seed=1)
page = widget.page_dir()
here = pathlib.Path(mp.__file__).parent
with urllib.request.urlopen(widget.page_url() + "index.html") as r:
    served = r.status
print(json.dumps({"version": mp.__version__, "file": mp.__file__, "best": report["best_move"], "iterations": report["iterations"],
  "page": str(page), "index": (page / "index.html").is_file(), "embed": (page / "embed.js").is_file(), "served": served,
  "license": (here / "LICENSE").is_file(), "notices": (here / "THIRD_PARTY_NOTICES").read_text()[:200]}))
`;
  const env = { ...process.env };
  delete env.MCTS_PLAYGROUND_PAGE;
  delete env.PYTHONPATH;
  const t1 = performance.now();
  const out = JSON.parse(execFileSync(python, ['-c', code], { cwd: dir, env, encoding: 'utf8' }));
  console.log(
    `wheel: fresh virtual environment to the first search ${seconds(t0)} s (of which python -c, import to report: ${seconds(t1)} s)`,
  );
  assert.equal(out.version, VERSION, 'the package has the crate version');
  assert.ok(out.file.startsWith(venv), `imported from the fresh environment (${out.file})`);
  assert.equal(out.iterations, 2000);
  assert.match(out.best, /^[a-e][1-5]$/, 'the search gave a move of the 5×5 board');
  assert.ok(out.page.startsWith(venv), 'the widget page is the installed package one');
  assert.equal(out.index, true);
  assert.equal(out.embed, true);
  assert.equal(out.served, 200, 'the widget serves its page');
  assert.equal(out.license, true, 'LICENSE in the package');
  assert.match(out.notices, /^# Third-party notices/);
});
