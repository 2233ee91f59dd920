// Vite build of the playground page. `base: './'` makes every URL in the built site relative, so
// `dist/` works from any sub-path of any static host; the worker is an ES module (TOOLCHAIN.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';

/** The trained weights files (`../models/*.mctsnet`, the nets; `../models/*.mctspat`, Hex's
 * pattern weights): the wasm embeds none; the worker fetches `models/<file>` from the site on
 * first use (src/worker/models.ts). Emitted into `dist/models/` by a build, served from there by the dev
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

/** `embed.js` at the site's root: the `<mcts-playground>` element (src/embed/element.ts) as ONE
 * classic script (an IIFE, no imports), so a course page on any site loads it with a plain
 * `<script src="https://PLAYGROUND/embed.js">`: a classic script from another origin needs no
 * `Access-Control-Allow-Origin`, which many static hosts cannot send (a module script does). The
 * same file also runs when imported as a module (the notebook widget's `import()`); the element
 * then finds its own URL from a stack trace (element.ts `scriptUrl`). */
function embedScript(): Plugin {
  return {
    name: 'mcts-embed-script',
    apply: 'build',
    async generateBundle() {
      const out = await esbuild({
        entryPoints: [fileURLToPath(new URL('./src/embed/element.ts', import.meta.url))],
        bundle: true,
        format: 'iife',
        target: 'es2020',
        minify: true,
        write: false,
        legalComments: 'none',
        logLevel: 'warning',
        // A classic script has no import.meta: `scriptUrl` reads document.currentScript first.
        define: { 'import.meta.url': 'undefined' },
      });
      const js = out.outputFiles[0];
      if (!js) throw new Error('embed.js: esbuild wrote nothing');
      this.emitFile({ type: 'asset', fileName: 'embed.js', source: js.text });
    },
  };
}

/** The book (mdBook, `../docs/`): `mdbook build docs` writes it to `../target/book/`
 * (docs/book.toml), and a build copies it into `dist/book/`, so the site carries its manual and
 * the page's link to it works offline. `scripts/serve.sh` builds the book before the page; a build
 * without it says so and goes on (the browser test `book.test.mjs` then fails, naming the step).
 * mdBook copies every non-Markdown file of its source folder (`docs/`) into the book and has no
 * exclude: the nets kept in `docs/nets/` for comparison (`*.mctsnet`, docs/nets/README.md) are
 * left out of the site here; the page's nets are `models/`'s alone. */
function book(): Plugin {
  const dir = fileURLToPath(new URL('../target/book/', import.meta.url));
  return {
    name: 'mcts-book',
    apply: 'build',
    generateBundle() {
      if (!existsSync(`${dir}index.html`)) {
        this.warn('the book is not built (target/book/index.html missing): run `mdbook build docs`, or bash scripts/serve.sh --build-only');
        return;
      }
      for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!f.isFile() || f.name.endsWith('.mctsnet')) continue;
        const file = join(f.parentPath, f.name);
        const path = relative(dir, file).split(sep).join('/');
        this.emitFile({ type: 'asset', fileName: `book/${path}`, source: readFileSync(file) });
      }
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [models(), embedScript(), book()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The wasm module is emitted as a file next to the worker, never inlined as base64.
    assetsInlineLimit: 0,
    // The pages besides the playground: the teachers' docs page and the embedding example
    // (`embed.js`, the <mcts-playground> element, is built apart by `embedScript`).
    rollupOptions: {
      input: {
        main: 'index.html',
        docs: 'docs.html',
        example: 'example-embed.html',
      },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
      },
    },
  },
  // The engine worker's entry is src/worker/index.ts: its chunk keeps the name `worker`.
  worker: { format: 'es', rollupOptions: { output: { entryFileNames: 'assets/worker-[hash].js' } } },
  server: { fs: { allow: ['..'] } },
});
