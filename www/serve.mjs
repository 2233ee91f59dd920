// A tiny static file server for the built site: `node serve.mjs DIR [--port N] [--prefix /sub/path/]`.
// Binds to 127.0.0.1 only, serves `.wasm` as application/wasm, answers 404 for anything outside DIR
// or outside the prefix, and prints the URL. Used by scripts/serve.sh and by the browser tests
// (which import `startServer`). `embed.js` (the <mcts-playground> element) is sent with
// `Access-Control-Allow-Origin: *`: as a classic script (the guide's line) it needs none, but a
// course page that loads it as a module (`<script type="module">`, `import()`) does.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Starts serving `dir` under `prefix` (must start and end with '/'). `onRequest`, when given, is
 * called for every request with `{ method, path, status }` (`path` as requested, e.g.
 * `/sub/dir/models/tictactoe.mctsnet`) just before the answer is sent: so a request is recorded
 * before its client has any of the answer (the browser tests count requests this way).
 * @param {{dir: string, port?: number, prefix?: string,
 *   onRequest?: (r: {method: string, path: string, status: number}) => void}} opts port 0 = any free port
 * @returns {Promise<{server: import('node:http').Server, url: string, port: number}>}
 */
export async function startServer({ dir, port = 0, prefix = '/', onRequest = null }) {
  const root = resolve(dir);
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new Error(`prefix must start and end with '/': ${prefix}`);
  const server = createServer(async (req, res) => {
    const answer = (status, headers, body) => {
      if (onRequest) onRequest({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], status });
      res.writeHead(status, headers);
      res.end(body);
    };
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let path = decodeURIComponent(url.pathname);
      if (!path.startsWith(prefix)) {
        if (`${path}/` === prefix) {
          answer(301, { location: prefix });
          return;
        }
        answer(404, { 'content-type': 'text/plain' }, 'not found');
        return;
      }
      path = path.slice(prefix.length);
      if (path === '' || path.endsWith('/')) path += 'index.html';
      const file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        answer(403, {}, 'forbidden');
        return;
      }
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) {
        answer(404, { 'content-type': 'text/plain' }, 'not found');
        return;
      }
      const body = await readFile(file);
      answer(
        200,
        {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': body.length,
          'cache-control': 'no-cache',
          ...(basename(file) === 'embed.js' ? { 'access-control-allow-origin': '*' } : {}),
        },
        req.method === 'HEAD' ? undefined : body,
      );
    } catch (e) {
      answer(500, { 'content-type': 'text/plain' }, String(e));
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  return { server, url: `http://127.0.0.1:${actual}${prefix}`, port: actual };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = args.find((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--')) ?? 'dist';
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
  };
  let port = Number(opt('--port', process.env.PORT ?? '8080'));
  const prefix = opt('--prefix', '/');
  for (let tries = 0; ; tries++) {
    try {
      const { url } = await startServer({ dir, port, prefix });
      console.log(`MCTS playground: serving ${resolve(dir)} at ${url}`);
      console.log('Open that URL in a browser; Ctrl-C stops the server.');
      break;
    } catch (e) {
      if (e && e.code === 'EADDRINUSE' && tries < 20) {
        port += 1;
        continue;
      }
      throw e;
    }
  }
}
