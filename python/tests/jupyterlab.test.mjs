// In Chromium: JupyterLab (from python/.venv) opens a notebook, a cell creates the widget, the
// page's board renders in it, a move made on the board reaches the kernel (a second cell prints
// the widget's `moves`), and a search the kernel asks of the page comes back as its report, equal
// to `mcts_playground.search`'s (`mcts search --json`) for the same seed and iterations. Run by scripts/test-python.sh after pytest; needs `jupyter lab` in
// python/.venv (JUPYTER names another executable) and the package installed there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, WAIT_MS, launchChromium, SCREENSHOTS } from '../../tests/browser/harness.mjs';

const JUPYTER = process.env.JUPYTER ?? join(ROOT, 'python', '.venv', 'bin', 'jupyter');
const TOKEN = 'mcts-playground-test';

/** A free port on 127.0.0.1. */
const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

let lab;
let dir;
let browser;
let base;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcts-lab-'));
  const cell = (src) => ({ cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: src });
  const nb = {
    cells: [
      cell(
        'import mcts_playground as mp\nw = mp.Playground(game="hex:5", moves=["c3"], preset="uct", p0="person", p1="person", seed=1)\nw',
      ),
      cell('print("MOVES", " ".join(w.moves))'),
      cell('w.start_search(playouts=300)'),
      cell(
        [
          'strip = lambda r: {k: v for k, v in r.items() if k not in ("elapsed_ms", "iterations_per_s")}',
          'mine = mp.search(w.state, "uct", iterations=300, seed=1, overrides={"memory_cap_mib": 512})',
          'print("REPORT", None if w.report is None else (sorted(w.report) == sorted(mine), strip(w.report) == strip(mine), w.report["iterations"]))',
        ].join('\n'),
      ),
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(join(dir, 'widget.ipynb'), JSON.stringify(nb));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  lab = spawn(
    JUPYTER,
    [
      'lab',
      '--no-browser',
      '--ip=127.0.0.1',
      `--port=${port}`,
      `--IdentityProvider.token=${TOKEN}`,
      '--allow-root',
      `--ServerApp.root_dir=${dir}`,
      '--ServerApp.port_retries=0',
      '--LabApp.news_url=',
      '--LabApp.extension_manager=readonly',
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Ready when the server says where it listens.
  await new Promise((ok, fail) => {
    let log = '';
    lab.stderr.on('data', (d) => {
      log += d;
      if (log.includes(`127.0.0.1:${port}`) && /Jupyter Server .* is running|http:\/\/127\.0\.0\.1/.test(log)) ok();
    });
    lab.once('exit', (code) => fail(new Error(`jupyter lab exited (${code}): ${log.slice(-2000)}`)));
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  lab?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a widget in JupyterLab shows the board and a move made on it reaches the kernel', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(WAIT_MS);
  await page.goto(`${base}/lab/tree/widget.ipynb?token=${TOKEN}`);
  await page.waitForSelector('.jp-Notebook .jp-Cell');
  const cells = page.locator('.jp-Notebook .jp-Cell');
  /** Runs cell `i` (Shift+Enter in its editor) until its prompt shows it ran or runs: a cell run
   * before the kernel's session is connected is not sent. */
  const run = async (i) => {
    const prompt = cells.nth(i).locator('.jp-InputPrompt');
    for (let tries = 0; ; tries++) {
      await cells.nth(i).locator('.jp-InputArea-editor').click();
      await page.keyboard.press('Shift+Enter');
      const ran = await page
        .waitForFunction((el) => /\[(\*|\d+)\]/.test(el.textContent), await prompt.elementHandle(), { timeout: 15_000 })
        .then(
          () => true,
          () => false,
        );
      if (ran) return;
      assert.ok(tries < 8, `cell ${i + 1} never ran`);
    }
  };
  await run(0);
  // The board of the page, in the frame the widget made.
  const frame = await (
    await page.waitForSelector('mcts-playground iframe', { timeout: 60_000 }).catch(async (e) => {
      // What the notebook shows instead (an error in the cell's output), for the failure message.
      await page.screenshot({ path: join(SCREENSHOTS, 'python-jupyterlab-failed.png') });
      const outputs = await page.locator('.jp-OutputArea-output').allInnerTexts();
      throw new Error(`no widget frame: ${e.message}; outputs: ${JSON.stringify(outputs).slice(0, 2000)}`);
    })
  ).contentFrame();
  await frame.waitForFunction(() => {
    const s = window.__playground?.snapshot();
    return s?.moves.join(' ') === 'c3' && document.body.dataset.thinking === '' && document.querySelector('[data-cell="a1"]') !== null;
  });
  await frame.click('[data-cell="a1"]');
  await frame.waitForFunction(() => window.__playground.snapshot()?.moves.join(' ') === 'c3 a1');
  await page.screenshot({ path: join(SCREENSHOTS, 'python-jupyterlab.png') });
  // The move reached the kernel: the second cell prints the widget's moves.
  await run(1);
  const out = cells.nth(1).locator('.jp-OutputArea-output');
  await out.waitFor();
  assert.equal((await out.innerText()).trim(), 'MOVES c3 a1');
  // The kernel asks the page's engine for a search; its report reaches the kernel as `w.report`:
  // the keys and values (times aside) of mcts_playground.search on the same position, preset,
  // seed and iterations (with the page's memory cap, 512 MiB).
  /** Runs cell `i` again and waits until it has finished (its prompt shows a new number). */
  const rerun = async (i) => {
    const prompt = await cells.nth(i).locator('.jp-InputPrompt').elementHandle();
    const before = await prompt.textContent();
    await cells.nth(i).locator('.jp-InputArea-editor').click();
    await page.keyboard.press('Shift+Enter');
    await page.waitForFunction(([el, b]) => /\[\d+\]/.test(el.textContent) && el.textContent !== b, [prompt, before]);
  };
  await rerun(2);
  const report = cells.nth(3).locator('.jp-OutputArea-output');
  // The page searches and posts its searchFinished; the kernel takes the comm message when it is
  // idle between cells, so the cell that reads `w.report` runs until the report is there.
  for (let tries = 0; ; tries++) {
    await rerun(3);
    const text = (await report.innerText()).trim();
    if (text !== 'REPORT None') {
      assert.equal(text, 'REPORT (True, True, 300)', 'the same keys and values as mcts_playground.search');
      break;
    }
    assert.ok(tries < 100, 'the report never reached the kernel');
  }
  await page.screenshot({ path: join(SCREENSHOTS, 'python-jupyterlab-report.png') });
});
