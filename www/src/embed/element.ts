// `<mcts-playground>`: a custom element for pages that load our script (`embed.js`, built by Vite
// as a separate entry with a stable name). It renders an <iframe> of the playground page in embed
// mode, its URL built from the element's attributes — the same names as the URL parameters
// (`game`, `moves`, `p0`, `p1`, `preset`, `ms`, `playouts`, `seed`, `view`, `lesson`, `show`, ...;
// `algo` is an alias of `preset`). The page is found next to the script (relative paths, so it
// works from any sub-path), or at the `src` attribute.
//
// Events from the embedded page are re-dispatched on the element as DOM CustomEvents named like
// the messages (`ready`, `move`, `searchFinished`, `gameOver`, `position`, `error`; `detail` is the
// message). Methods `setPosition(game, moves)` and `startSearch(options)` send the commands.

import { EMBED_PARAMS } from '../share/params';

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

  /** The iframe's URL from the attributes. */
  get url(): string {
    const u = new URL(this.getAttribute('src') ?? 'index.html', siteBase());
    u.searchParams.set('embed', '1');
    for (const k of PASS) {
      const v = this.getAttribute(k);
      if (v !== null) u.searchParams.set(k, v);
    }
    const algo = this.getAttribute('algo');
    if (algo !== null && !this.hasAttribute('preset')) u.searchParams.set('preset', algo);
    u.searchParams.set('origin', location.origin);
    return u.href;
  }

  private render(): void {
    const url = this.url;
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
    const origin = new URL(this.url).origin;
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
