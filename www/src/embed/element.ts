// `<mcts-playground>`: a custom element for pages that load our script (`embed.js` at the built
// site's root, a classic script built by vite.config.ts's `embedScript` as one self-contained
// file, so `<script src="https://PLAYGROUND/embed.js">` works from any site without CORS headers;
// loaded as a module, `<script type="module">` or `import()`, it works too where the playground's
// host sends `Access-Control-Allow-Origin`). It renders an <iframe> of the playground page in embed
// mode, its URL built from the element's attributes — the same names as the URL parameters
// (`game`, `moves`, `p0`, `p1`, `preset`, `ms`, `playouts`, `seed`, `view`, `lesson`, `show`, ...;
// `algo` is an alias of `preset`). The page is found next to the script (relative paths, so it
// works from any sub-path), or at the `src` attribute. `src` must be an http(s) or relative URL
// (resolved against the script's directory, checked by `lib/safe-url.ts`): any other scheme
// (`javascript:`, `data:`, `blob:`, ... in any spelling) would run the attribute's author's script
// in the host page or the frame, so it is refused: no frame (a previous one is removed), an
// `error` event on the element (`detail`: `{ type: 'error', attribute: 'src', value, message }`)
// and the message on the console.
//
// The element never leaves a blank gap: until the embedded page says it is there (its first
// message, `loading`, posted as its script starts) a line says the playground is loading; when the
// frame has loaded something that never says so (a wrong address, a 404 page, another site) the
// line says what to check, and an `error` event (`attribute: 'src'`) carries the same sentence.
// Children of the element (the guide's snippet puts a sentence there) show only when this script
// never ran (a wrong address in the script tag): they are replaced by the frame.
//
// Its size: the `width` and `height` attributes (CSS lengths; 420px wide by default). Without a
// height (or `height="auto"`) the element takes the height its board needs at that width, as the
// embedded page reports it (`size`), so no blank band is left under the board.
//
// Events from the embedded page are re-dispatched on the element as DOM CustomEvents named like
// the messages (`loading`, `ready`, `move`, `searchFinished`, `reviewFinished`, `gameOver`,
// `position`, `size`, `error`; `detail` is the message). Methods `setPosition(game, moves)`,
// `startSearch(options)`, `review(options)` and `showReview(report)` send the commands.

import { EMBED_PARAMS } from '../lib/params';
import { safeHttpUrl } from '../lib/safe-url';

const PASS = EMBED_PARAMS;
const SOURCE = 'mcts-playground';

/** How long after the frame's `load` event the element waits for the embedded page's first
 * message before it says the address shows no playground (the page posts it as its script
 * starts, before its `load` event: the wait is only slack for a busy machine). */
export const NO_ANSWER_MS = 8000;

/** The URL this script was loaded from: `document.currentScript` while a classic script runs;
 * `import.meta.url` in the module build (a page that bundles this file); else (the classic file
 * loaded as a module) the script's own URL from a stack trace, then the last script element that
 * names `embed.js`. */
function scriptUrl(): string {
  const cur = document.currentScript;
  if (cur instanceof HTMLScriptElement && cur.src) return cur.src;
  const meta: string | undefined = import.meta.url;
  if (meta) return meta;
  const fromStack = /(https?:\/\/[^\s()'"]+?\.m?js)(?::\d+)*(?:\)|\s|$)/m.exec(new Error().stack ?? '')?.[1];
  if (fromStack) return fromStack;
  const named = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].filter((e) => /\/embed\.js(?:[?#]|$)/.test(e.src));
  return named[named.length - 1]?.src ?? document.baseURI;
}
const SCRIPT_URL = scriptUrl();

/** The directory of the built site: this script is `embed.js` at its root (or a chunk in assets/). */
function siteBase(): URL {
  const here = new URL(SCRIPT_URL);
  return new URL(here.pathname.includes('/assets/') ? '../' : './', here);
}

export class MctsPlayground extends HTMLElement {
  static observedAttributes = [...PASS, 'algo', 'src', 'width', 'height'];
  private frame: HTMLIFrameElement | null = null;
  /** The line shown over the frame until the embedded page answers (loading, or what is wrong). */
  private note: HTMLElement | null = null;
  /** Whether the frame's page has posted a message of ours since its `src` was set. */
  private answered = false;
  private noAnswerTimer: ReturnType<typeof setTimeout> | undefined;
  /** Without a height (no `height` attribute, or `height="auto"`, and no CSS height on the element)
   * the element takes the height the embedded page needs at its width (its `size` event). */
  private autoHeight = false;
  private readonly onMessage = (ev: MessageEvent) => {
    if (!this.frame || ev.source !== this.frame.contentWindow) return;
    const d = ev.data as { source?: string; type?: string } | null;
    if (!d || d.source !== SOURCE || typeof d.type !== 'string') return;
    this.setAnswered();
    const height = (d as { height?: unknown }).height;
    if (d.type === 'size' && this.autoHeight && typeof height === 'number' && height > 0 && height < 10_000)
      this.style.height = `${height}px`;
    this.dispatchEvent(new CustomEvent(d.type, { detail: d }));
  };

  /** Removes what the page put inside the element (the guide's sentence for a script that did
   * not load) once the frame is there: the parser may add it after the element was upgraded. */
  private readonly children$ = new MutationObserver(() => this.dropForeignChildren());
  private dropForeignChildren(): void {
    if (!this.frame) return;
    for (const c of [...this.childNodes]) if (c !== this.frame && c !== this.note) c.remove();
  }

  connectedCallback(): void {
    window.addEventListener('message', this.onMessage);
    this.children$.observe(this, { childList: true });
    this.render();
  }
  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    this.children$.disconnect();
    clearTimeout(this.noAnswerTimer);
  }
  attributeChangedCallback(): void {
    if (this.isConnected) this.render();
  }

  /** The iframe's URL from the attributes, or what is wrong with the `src` attribute. */
  private resolve(): { url: string } | { error: string } {
    const src = this.getAttribute('src');
    const u = safeHttpUrl(src ?? 'index.html', siteBase());
    if (!(u instanceof URL)) return { error: `<mcts-playground>: the src attribute is refused: ${u.error}; no frame is shown` };
    u.searchParams.set('embed', '1');
    for (const k of PASS) {
      const v = this.getAttribute(k);
      if (v !== null) u.searchParams.set(k, v);
    }
    const algo = this.getAttribute('algo');
    if (algo !== null && !this.hasAttribute('preset')) u.searchParams.set('preset', algo);
    u.searchParams.set('origin', location.origin);
    return { url: u.href };
  }

  /** The iframe's URL from the attributes; null when the `src` attribute is refused. */
  get url(): string | null {
    const r = this.resolve();
    return 'url' in r ? r.url : null;
  }

  /** The `src` value last refused (reported once until it changes). */
  private refused: string | null = null;

  /** Shows `text` over the frame (`state`: `loading` or `failed`), or hides the line (null). */
  private say(text: string | null, state: 'loading' | 'failed' | '' = ''): void {
    this.dataset.state = text === null ? 'ready' : state;
    if (text === null) {
      if (this.note) this.note.style.display = 'none';
      return;
    }
    if (!this.note) {
      this.note = document.createElement('div');
      this.note.className = 'mcts-playground-note';
      this.note.setAttribute('role', 'status');
      Object.assign(this.note.style, {
        position: 'absolute',
        inset: '0',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '1rem',
        boxSizing: 'border-box',
        textAlign: 'center',
        font: '14px/1.4 system-ui, sans-serif',
        color: '#333',
        background: '#f6f6f6',
        border: '1px solid #ccc',
        borderRadius: '6px',
        overflowWrap: 'anywhere',
      });
      this.append(this.note);
    }
    this.note.style.display = 'flex';
    this.note.textContent = text;
    this.note.style.color = state === 'failed' ? '#8a1c1c' : '#333';
  }

  private setAnswered(): void {
    if (this.answered) return;
    this.answered = true;
    clearTimeout(this.noAnswerTimer);
    this.say(null);
  }

  /** The frame loaded a document: if it is the playground, its first message is on its way (it
   * is posted before the `load` event); none within `NO_ANSWER_MS`: the address shows something
   * else, and the element says so. */
  private readonly onFrameLoad = () => {
    clearTimeout(this.noAnswerTimer);
    if (this.answered) return;
    const url = this.frame?.src ?? '';
    this.noAnswerTimer = setTimeout(() => {
      if (this.answered || !this.frame || this.frame.src !== url) return;
      const page = url.split('?')[0] ?? url;
      const message = `The MCTS playground did not load from ${page}: check the address in the script tag (or the src attribute); it must point at the folder where the playground's index.html and embed.js are.`;
      this.say(message, 'failed');
      console.error(`<mcts-playground>: ${message}`);
      this.dispatchEvent(
        new CustomEvent('error', { detail: { source: SOURCE, version: 1, type: 'error', attribute: 'src', value: url, message } }),
      );
    }, NO_ANSWER_MS);
  };

  private render(): void {
    const r = this.resolve();
    if ('error' in r) {
      // No frame for a refused src: the one showing a previous src goes too.
      this.frame?.remove();
      this.frame = null;
      this.note?.remove();
      this.note = null;
      clearTimeout(this.noAnswerTimer);
      const value = this.getAttribute('src') ?? '';
      if (this.refused === value) return;
      this.refused = value;
      console.error(r.error);
      this.dispatchEvent(
        new CustomEvent('error', { detail: { source: SOURCE, version: 1, type: 'error', attribute: 'src', value, message: r.error } }),
      );
      return;
    }
    this.refused = null;
    const url = r.url;
    if (this.frame?.src === url) return;
    this.style.display ||= 'inline-block';
    // The loading/failure line covers the frame: the element is its containing block (a page's
    // own positioning of the element is kept).
    if (getComputedStyle(this).position === 'static') this.style.position = 'relative';
    if (!this.frame) {
      this.note = null;
      this.frame = document.createElement('iframe');
      this.frame.title = this.getAttribute('title') ?? 'MCTS playground';
      this.frame.style.border = '0';
      this.frame.style.width = '100%';
      this.frame.style.height = '100%';
      this.frame.style.display = 'block';
      this.frame.loading = 'lazy';
      this.frame.addEventListener('load', this.onFrameLoad);
      this.style.width ||= this.getAttribute('width') ?? '420px';
      const height = this.getAttribute('height');
      this.autoHeight = !this.style.height && (height === null || height === 'auto');
      this.style.height ||= this.autoHeight ? '460px' : (height ?? '460px');
      // The address before the frame is in the page: no about:blank document loads first (its
      // `load` event would start the wait for an answer before the playground was asked for).
      this.frame.src = url;
      this.append(this.frame);
      // What the element holds (the guide's sentence for a script that did not load) gives way
      // to the frame.
      this.dropForeignChildren();
    }
    this.answered = false;
    clearTimeout(this.noAnswerTimer);
    this.say(`Loading the MCTS playground from ${new URL(url).host}…`, 'loading');
    if (this.frame.src !== url) this.frame.src = url;
  }

  private send(type: string, data: Record<string, unknown>): void {
    const url = this.url;
    if (url === null) return;
    const origin = new URL(url).origin;
    this.frame?.contentWindow?.postMessage({ source: SOURCE, version: 1, type, ...data }, origin);
  }

  /** Loads a position: game spec and moves from the start. */
  setPosition(game: string, moves: string[] | string = []): void {
    this.send('setPosition', { game, moves });
  }
  /** Searches the position for the side to move; `play: true` also plays the best move. */
  startSearch(options: { budget?: { kind: 'millis' | 'playouts'; value: number }; preset?: string; play?: boolean } = {}): void {
    this.send('startSearch', options);
  }
  /** Reviews the game (Review game) with a budget per position and a seed; `reviewFinished`
   * carries the report. */
  review(options: { budget?: { kind: 'millis' | 'playouts'; value: number }; seed?: number } = {}): void {
    this.send('review', options);
  }
  /** Shows a finished review (`mcts review --json`'s report) of the game on the board. */
  showReview(report: unknown): void {
    this.send('showReview', { report });
  }
}

if (!customElements.get('mcts-playground')) customElements.define('mcts-playground', MctsPlayground);
