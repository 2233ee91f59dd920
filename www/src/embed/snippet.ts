// The embed code a teacher pastes: the guide's snippets (docs.html) with this site's address filled
// in, and the `<mcts-playground>` lines for what the playground page shows ("Copy embed code").
// Pure text (no DOM), so the page, the guide and the unit tests share it.

import { EMBED_PARAMS } from '../lib/params';

/** The guide's placeholder for the playground's folder (ends with `/`). */
export const SITE_PLACEHOLDER = 'https://YOUR-SITE/PATH/';
/** The guide's placeholder for the playground's origin (a postMessage target). */
export const ORIGIN_PLACEHOLDER = 'https://YOUR-SITE';

/** The playground's folder (where `index.html` and `embed.js` are) from the URL of a page in it. */
export function siteBaseOf(href: string): string {
  const u = new URL('./', href);
  return `${u.origin}${u.pathname}`;
}

/** A guide snippet with the placeholders replaced by the site at `base` (its folder). */
export function fillSnippet(text: string, base: string): string {
  return text.replaceAll(SITE_PLACEHOLDER, base).replaceAll(ORIGIN_PLACEHOLDER, new URL(base).origin);
}

/** Text as an HTML attribute value between double quotes. */
export function attrText(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Page parameters an element does not carry: `id` names one embed of a host page, and
 * `allowed-origins` is the host's own choice (the element sets `origin` itself). */
const NOT_CARRIED: readonly string[] = ['id', 'allowed-origins'];

/** The `<script>` line and the `<mcts-playground>` element that show what the page with the URL
 * parameters `query` shows, from the site at `base`: every parameter the element passes on
 * (lib/params.ts `EMBED_PARAMS`) becomes its attribute, in the page's order, then its width (no
 * height: the element then takes the height the board needs); the element holds
 * the sentence shown when `embed.js` cannot be loaded. */
export function embedSnippet(base: string, query: URLSearchParams, width = '420px'): string {
  const attrs: string[] = [];
  for (const [k, v] of query) if (EMBED_PARAMS.includes(k) && !NOT_CARRIED.includes(k)) attrs.push(`${k}="${attrText(v)}"`);
  // No height: the element takes the height its board needs at this width.
  attrs.push(`width="${attrText(width)}"`);
  const script = `${base}embed.js`;
  return `<script src="${attrText(script)}"></script>\n<mcts-playground ${attrs.join(' ')}>The MCTS playground could not be loaded from ${attrText(script)}.</mcts-playground>`;
}
