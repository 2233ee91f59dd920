// Reports the engine's speed in Chromium for a fixed search (the same one `scripts/` compare
// natively): Hex 7×7 from the start, 200,000 iterations, presets uct and best, run through the
// page and the worker exactly as a game does. Speed is reported, not asserted (timed assertions
// are flaky on shared machines); the test asserts the search ran to its budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, moves, waitForPly, assertClean } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

for (const preset of ['uct', 'best']) {
  test(`speed: hex:7 ${preset}, 200000 iterations in the worker (cold, then warm)`, async () => {
    const page = await h.openPage(`?game=hex:7&p0=engine&p1=person&preset=${preset}&playouts=200000`);
    await boardReady(page);
    for (const round of ['cold', 'warm']) {
      if (round === 'warm') {
        // Same search again on a fresh tree: V8 has now compiled the engine in its top tier.
        await page.click('#new-game');
        await page.waitForFunction(() => document.body.dataset.thinking === 'move');
      }
      await waitForPly(page, 1, 120000);
      const playouts = Number(await page.getAttribute('#thinking', 'data-playouts'));
      const rate = Number(await page.getAttribute('#thinking', 'data-rate'));
      const elapsed = Number(await page.getAttribute('#thinking', 'data-elapsed'));
      const engineMs = Number(await page.getAttribute('#thinking', 'data-engine-ms'));
      console.log(
        `# chromium ${round} hex:7 ${preset}: ${playouts} iterations in ${elapsed.toFixed(0)} ms (${engineMs.toFixed(0)} ms inside run) = ${rate} /s, move ${(await moves(page))[0]}`,
      );
      assert.equal(playouts, 200000);
    }
    assertClean(assert, page);
  });
}
