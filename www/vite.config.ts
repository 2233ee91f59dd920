// Vite build of the playground page. `base: './'` makes every URL in the built site relative, so
// `dist/` works from any sub-path of any static host; the worker is an ES module (TOOLCHAIN.md).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** The trained weights files (`../models/*.mctsnet`, the nets; `../models/*.mctspat`, Hex's
 * pattern weights): the wasm embeds none; the worker fetches `models/<file>` from the site on
 * first use (src/worker.ts). Emitted into `dist/models/` by a build, served from there by the dev
 * server. */
function models(): Plugin {
  const dir = fileURLToPath(new URL('../models/', import.meta.url));
  const files = () => readdirSync(dir).filter((f) => /\.mcts(net|pat)$/.test(f));
  return {
    name: 'mcts-models',
    generateBundle() {
      for (const f of files()) this.emitFile({ type: 'asset', fileName: `models/${f}`, source: readFileSync(dir + f) });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /\/models\/([\w.-]+\.mcts(?:net|pat))$/.exec((req.url ?? '').split('?')[0] ?? '');
        if (!m?.[1] || !files().includes(m[1])) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        res.end(readFileSync(dir + m[1]));
      });
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [models()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The wasm module is emitted as a file next to the worker, never inlined as base64.
    assetsInlineLimit: 0,
    // The pages besides the playground: the teachers' docs page, the embedding example, and `embed.js` (the
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
