// In Chromium, light and dark: the contrast of the page's text and controls against what is
// behind them (WCAG 2.1 AA: 4.5:1 for text, 3:1 for board edges, stones and focus rings), from the
// computed colours and the WCAG relative luminance formula
// (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance, #dfn-contrast-ratio).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, assertClean, screenshot, teachReady } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** Runs in the page: contrast ratios of text and marks against their backgrounds. */
function measure() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1]
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lin = (v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  /** The opaque colour behind an element: its and its ancestors' backgrounds, composed. */
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let col = [255, 255, 255, 1];
    for (const l of layers.reverse()) col = over(l, col);
    return col;
  };
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0;
  };
  const ownText = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const text = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!visible(e) || !ownText(e) || e.closest('svg, canvas, .uplot, [disabled], option')) continue;
    const fg = parse(getComputedStyle(e).color);
    const bg = background(e);
    text.push({
      what: `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}`.slice(0, 80),
      text: e.textContent.trim().slice(0, 30),
      ratio: ratio(over(fg, bg), bg),
    });
  }
  // Board marks: stone edges and fills against the cell, the edge bands against the board.
  const cs = getComputedStyle(document.documentElement);
  const v = (name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const c = parse(getComputedStyle(probe).color);
    probe.remove();
    return c;
  };
  void cs;
  const cell = v('--cell');
  const board = v('--board');
  const bg = v('--bg');
  const panel = v('--panel');
  const muted = v('--muted');
  const hole = v('--quad-hole');
  const marks = {
    // Hex: each edge band is drawn inside an outline of --muted on the page.
    'Hex edge outline on the page': ratio(muted, bg),
    'Black edge band (on the page or its outline)': Math.max(ratio(v('--p0'), bg), ratio(v('--p0'), muted)),
    'White edge band (on the page or its outline)': Math.max(ratio(v('--p1'), bg), ratio(v('--p1'), muted)),
    // A stone shows by its fill or its edge against the cell (Hex) or hole (Pentago).
    'Black stone on a Hex cell': Math.max(ratio(v('--p0'), cell), ratio(v('--p0-edge'), cell)),
    'White stone on a Hex cell': Math.max(ratio(v('--p1'), cell), ratio(v('--p1-edge'), cell)),
    'Black stone on a Pentago hole': Math.max(ratio(v('--p0'), hole), ratio(v('--p0-edge'), hole)),
    'White stone on a Pentago hole': Math.max(ratio(v('--p1'), hole), ratio(v('--p1-edge'), hole)),
    'pending Pentago stone ring on a hole': ratio(v('--pending'), hole),
    'focus ring on the page': ratio(v('--accent'), bg),
    'focus ring on a panel': ratio(v('--accent'), panel),
  };
  void board;
  return { text, marks };
}

for (const scheme of ['light', 'dark']) {
  test(`contrast, ${scheme}: text 4.5:1, board marks and focus rings 3:1 (WCAG AA)`, async () => {
    const page = await h.openPage('?game=hex:7&moves=d4,c5&p0=person&p1=person', {
      viewport: { width: 1280, height: 800 },
      colorScheme: scheme,
    });
    await boardReady(page);
    await teachReady(page);
    const views = [['play', null]];
    for (const view of ['compare', 'arena']) views.push([view, view]);
    for (const [name, hash] of views) {
      if (hash) {
        await page.evaluate((x) => {
          location.hash = x;
        }, hash);
        await page.waitForFunction((x) => document.body.dataset.view === x, hash);
      }
      // Fill the views with what they show after a run: bars, badges, results, tables.
      if (name === 'compare') {
        await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
        await page.fill('#cmp-game', 'hex:3');
        await page.fill('#cmp-budget', '200');
        await page.click('#cmp-run');
        await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
      }
      if (name === 'arena') {
        await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
        await page.fill('#ar-game', 'hex:3');
        await page.fill('#ar-games', '2');
        await page.fill('#ar-budget', '30');
        await page.click('#ar-run');
        await page.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
      }
      const { text, marks } = await page.evaluate(measure);
      assert.ok(text.length > 15, `${name}: text measured (${text.length} elements)`);
      const low = text.filter((t) => t.ratio < 4.5).map((t) => `${t.what} "${t.text}" ${t.ratio.toFixed(2)}:1`);
      assert.deepEqual(low, [], `${scheme} ${name}: text under 4.5:1`);
      for (const [what, r] of Object.entries(marks)) assert.ok(r >= 3, `${scheme}: ${what} ${r.toFixed(2)}:1 < 3:1`);
    }
    await page.evaluate(() => {
      location.hash = 'play';
    });
    await screenshot(page, `contrast-${scheme}`);
    assertClean(assert, page);
  });
}
