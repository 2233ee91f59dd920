// The picture of the page in the README and the book (docs/screenshot.png): the built site
// (www/dist, after `bash scripts/serve.sh --build-only`) in Chromium at 1280×800, Hex 7×7 after
// the engine's reply to d4 c5 e3, with the search behind that move on the board (visit shares,
// principal variation) and its tree.
//
//   node scripts/screenshot.mjs [OUT]     (default docs/screenshot.png)
import { join } from 'node:path';
import { ROOT, boardReady, setup, waitForPly } from '../tests/browser/harness.mjs';

const out = process.argv[2] ?? join(ROOT, 'docs', 'screenshot.png');
const h = await setup();
try {
  const page = await h.openPage('?game=hex:7&moves=d4,c5,e3&p0=person&p1=engine&preset=rave&playouts=20000&seed=1&overlays=visits,pv', {
    viewport: { width: 1280, height: 800 },
  });
  await boardReady(page);
  await waitForPly(page, 4);
  await page.waitForFunction(() => document.body.dataset.thinking === '');
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await h.close();
}
