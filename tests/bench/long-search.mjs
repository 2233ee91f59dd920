// A second Chromium that keeps the machine busy: serves a built site (www/dist by default) and
// plays engine against engine on Hex 13×13 with RAVE at an hour per move, until it is killed.
// Load for `scripts/bench-suite-under-load.sh`; prints the URL it opened and nothing else.
//
//   node tests/bench/long-search.mjs [DIST]
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = resolve(process.argv[2] ?? join(ROOT, 'www', 'dist'));
const { startServer } = await import(join(ROOT, 'www', 'serve.mjs'));
const { launchChromium } = await import(join(ROOT, 'tests', 'browser', 'harness.mjs'));

const { url } = await startServer({ dir: dist, port: 0, prefix: '/' });
const browser = await launchChromium();
const page = await browser.newPage();
const at = `${url}?game=hex:13&p0=engine&p1=engine&preset=rave&ms=3600000`;
await page.goto(at);
console.log(`long search: ${at}`);
const stop = async () => {
  await browser.close().catch(() => {});
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await new Promise(() => {});
