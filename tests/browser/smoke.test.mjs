import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './harness.mjs';

test('smoke', async () => {
  const h = await setup();
  try {
    const page = await h.openPage();
    await page.waitForFunction(() => document.getElementById('app').textContent.includes('legal'));
    console.log(await page.textContent('#app'));
    assert.deepEqual(page.problems, { consoleErrors: [], failed: [], foreign: [], pageErrors: [] });
  } finally { await h.close(); }
});
