// The page's one rule for URLs built from data (an element's attribute, a lesson file, a record, a
// URL parameter): only `http:` and `https:` URLs, or relative URLs, may become a link's `href`, a
// frame's `src` or a navigation. The text is resolved against `base` by the URL parser
// (`new URL(raw, base)`) and the RESOLVED URL's scheme is checked, so every spelling the parser
// accepts is judged as the browser would read it: `JaVaScRiPt:`, leading spaces or control
// characters (`\x01javascript:`), tabs and newlines inside the scheme (`java\tscript:`). Anything
// else (`javascript:`, `data:`, `blob:`, `vbscript:`, `filesystem:`, `file:`, `about:`, text that
// is not a URL) is refused with a sentence naming the problem. No DOM here (unit-tested in Node).

/** The schemes a URL built from data may have. */
export const SAFE_PROTOCOLS: readonly string[] = ['http:', 'https:'];

/** `raw` resolved against `base` when it is an http(s) or relative URL; else what is wrong with it
 * (a sentence that quotes `raw`, at most 80 characters of it, as JSON). */
export function safeHttpUrl(raw: string, base: string | URL): URL | { error: string } {
  const shown = JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return { error: `${shown} is not a URL` };
  }
  if (!SAFE_PROTOCOLS.includes(url.protocol)) {
    return { error: `${shown} has the scheme ${url.protocol} (only http:, https: and relative URLs are allowed)` };
  }
  return url;
}

/** The `href` for a link built from data: `safeHttpUrl(raw, base)`'s URL as text, or null (make
 * no link) when it is refused. */
export function safeHref(raw: string, base: string | URL): string | null {
  const r = safeHttpUrl(raw, base);
  return r instanceof URL ? r.href : null;
}
