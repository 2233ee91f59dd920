// Vitest: the TypeScript unit tests of the page's pure modules, in Node (no browser, no DOM).
// Tests sit next to what they test (`src/**/*.test.ts`); vite build never sees them (nothing the
// page imports imports a test). The browser tests are in ../tests/browser (node --test).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
