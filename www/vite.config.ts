// Vite build of the playground page. `base: './'` makes every URL in the built site relative, so
// `dist/` works from any sub-path of any static host; the worker is an ES module (TOOLCHAIN.md).
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The wasm module is emitted as a file next to the worker, never inlined as base64.
    assetsInlineLimit: 0,
    // Issue 6: the teachers' docs page, the embedding example, and `embed.js` (the
    // <mcts-playground> custom element) under a stable name at the site's root.
    rollupOptions: {
      input: {
        main: 'index.html',
        docs: 'docs.html',
        example: 'example-embed.html',
        embed: 'src/embed/element.ts',
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'embed' ? 'embed.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  worker: { format: 'es' },
  server: { fs: { allow: ['..'] } },
});
