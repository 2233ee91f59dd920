// A search with a playout budget runs to exactly that budget in the worker, through the page as a
// game runs it (Hex 7×7 from the start, presets uct and best), and the engine then plays its move.
// How fast (playouts per second in Chromium against native): scripts/bench-page.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, moves, waitForPly, waitIdle, assertClean } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

for (const preset of ['uct', 'best']) {
  test(`budget: hex:7 ${preset}, 50000 playouts in the worker, run to the budget`, async () => {
    const page = await h.openPage(`?game=hex:7&p0=engine&p1=person&preset=${preset}&playouts=50000`);
    await boardReady(page);
    await waitForPly(page, 1);
    await waitIdle(page);
    // Read once the search is over: the final report.
    assert.equal(await page.getAttribute('#thinking', 'data-playouts'), '50000');
    const text = await page.textContent('#thinking');
    const played = text.match(/played ([a-g][1-7]) \(budget\)/);
    assert.ok(played, `the search ended on its budget: ${text}`);
    assert.equal((await moves(page))[0], played[1]);
    assertClean(assert, page);
  });
}
