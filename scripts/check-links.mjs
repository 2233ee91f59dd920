// The link check of the test command: every relative link of the built book and of the README
// resolves, and the book loads nothing from another host.
//
//   node scripts/check-links.mjs [SITE]     (SITE: the built site, default www/dist)
//
// 1. The built book (SITE/book/**/*.html, written by `mdbook build docs` and copied by the page's
//    build): each `href` and `src` that is not an absolute URL must name a file of the site (the
//    book links to the teachers' page `../docs.html`, beside it in the site), and a `#fragment`
//    into a book page must be an `id` of that page. A `src`, or a `<link href>` (style sheets,
//    icons), on another host would be a network load: the book must work offline, so it is an error.
// 2. The Markdown the book is built from and the README (README.md, docs/**/*.md): each relative
//    link `[text](path)` must name a file or folder of the repository.
// Prints every broken link with its file, then a summary line; exits 1 when any is broken.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const site = resolve(process.argv[2] ?? join(root, 'www/dist'));
const book = join(site, 'book');
const problems = [];

/** Every file under `dir` whose name ends with `ext`, as absolute paths. */
function files(dir, ext) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith(ext))
    .map((f) => join(f.parentPath, f.name));
}

const isExternal = (url) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');
const ids = new Map();
/** The `id`s of an HTML file (cached). */
function idsOf(file) {
  if (!ids.has(file)) ids.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => m[1])));
  return ids.get(file);
}

let htmlLinks = 0;
if (!existsSync(join(book, 'index.html'))) {
  problems.push(`${relative(root, book)}/index.html: the book is not in the built site (mdbook build docs, then the page's build)`);
} else {
  // mdBook's 404.html is for a server configured to answer missing paths with it: its links hang
  // from `<base href="/">` (the site's root), which a site under a sub-path does not have.
  for (const file of files(book, '.html').filter((f) => f !== join(book, '404.html'))) {
    const html = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const m of html.matchAll(/<(\w+)\b[^>]*?\s(href|src)="([^"]*)"/g)) {
      const [, tag, attr, raw] = m;
      const url = raw.replace(/&amp;/g, '&');
      if (isExternal(url)) {
        const loads = attr === 'src' || tag.toLowerCase() === 'link';
        if (loads && !url.startsWith('data:')) problems.push(`${where}: <${tag} ${attr}="${url}"> loads from another host`);
        continue;
      }
      htmlLinks++;
      const [pathAndQuery, fragment] = url.split('#', 2);
      const path = pathAndQuery.split('?')[0];
      const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!target.startsWith(site) || !existsSync(target)) {
        problems.push(`${where}: ${attr}="${url}": no such file in the site`);
        continue;
      }
      const page = statSync(target).isDirectory() ? join(target, 'index.html') : target;
      if (fragment && page.startsWith(book) && page.endsWith('.html') && !idsOf(page).has(decodeURIComponent(fragment))) {
        problems.push(`${where}: ${attr}="${url}": no id "${fragment}" in ${relative(root, page)}`);
      }
    }
  }
}

let mdLinks = 0;
const markdown = [join(root, 'README.md'), ...files(join(root, 'docs'), '.md')];
for (const file of markdown) {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const url = m[1];
    if (isExternal(url) || url.startsWith('#')) continue;
    mdLinks++;
    const path = decodeURIComponent(url.split('#')[0]);
    // A link from the book to a page of the site beside it (../../docs.html from docs/teach/) is
    // checked in the built site above.
    if (file.startsWith(join(root, 'docs')) && /^(\.\.\/)+[\w-]+\.html$/.test(path)) continue;
    if (!existsSync(resolve(dirname(file), path))) problems.push(`${relative(root, file)}: (${url}): no such file`);
  }
}

for (const p of problems) console.log(`broken link: ${p}`);
console.log(
  `check-links: ${htmlLinks} links in the built book, ${mdLinks} in ${markdown.length} Markdown files: ${problems.length} broken`,
);
process.exit(problems.length ? 1 : 0);
