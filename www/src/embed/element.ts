// `<mcts-playground>`: a custom element for pages that load our script (`embed.js`, built by Vite
// as a separate entry with a stable name). It renders an <iframe> of the playground page in embed
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
// Events from the embedded page are re-dispatched on the element as DOM CustomEvents named like
// the messages (`ready`, `move`, `searchFinished`, `gameOver`, `position`, `error`; `detail` is the
// message). Methods `setPosition(game, moves)` and `startSearch(options)` send the commands.

import { EMBED_PARAMS } from '../lib/params';
import { safeHttpUrl } from '../lib/safe-url';

const PASS = EMBED_PARAMS;
const SOURCE = 'mcts-playground';

/** The directory of the built site: this script is `embed.js` at its root (or a chunk in assets/). */
function siteBase(): URL {
  const here = new URL(import.meta.url);
  return new URL(here.pathname.includes('/assets/') ? '../' : './', here);
}

export class MctsPlayground extends HTMLElement {
  static observedAttributes = [...PASS, 'algo', 'src', 'width', 'height'];
  private frame: HTMLIFrameElement | null = null;
  private readonly onMessage = (ev: MessageEvent) => {
    if (!this.frame || ev.source !== this.frame.contentWindow) return;
    const d = ev.data as { source?: string; type?: string } | null;
    if (!d || d.source !== SOURCE || typeof d.type !== 'string') return;
    this.dispatchEvent(new CustomEvent(d.type, { detail: d }));
  };

  connectedCallback(): void {
    window.addEventListener('message', this.onMessage);
    this.render();
  }
  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
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

  private render(): void {
    const r = this.resolve();
    if ('error' in r) {
      // No frame for a refused src: the one showing a previous src goes too.
      this.frame?.remove();
      this.frame = null;
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
    if (!this.frame) {
      this.frame = document.createElement('iframe');
      this.frame.title = this.getAttribute('title') ?? 'MCTS playground';
      this.frame.style.border = '0';
      this.frame.style.width = '100%';
      this.frame.style.height = '100%';
      this.frame.loading = 'lazy';
      this.style.width ||= this.getAttribute('width') ?? '420px';
      this.style.height ||= this.getAttribute('height') ?? '460px';
      this.append(this.frame);
    }
    this.frame.src = url;
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
}

if (!customElements.get('mcts-playground')) customElements.define('mcts-playground', MctsPlayground);
