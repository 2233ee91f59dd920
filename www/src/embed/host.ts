// Embed mode (`?embed=1`): minimal chrome, and the postMessage channel to the host page (the page
// that frames the playground): the events it is sent, the commands it may send.
//
// Every message, both ways, is `{ source: 'mcts-playground', version: 1, type, ... }`.
// Events to the host (posted to `window.parent`, to the `origin=` parameter's origin when given,
// else to any origin — they carry only the public game state): `loading` (posted as the page's
// script starts, before the engine loads: `<mcts-playground>` takes it as the sign that its
// address shows the playground), `ready`, `move`, `searchFinished`, `reviewFinished`, `gameOver`,
// `error`; each also carries `id` (the `id=` parameter, to tell embeds apart), `game`
// (the spec) and `moves` (from the start). `searchFinished` also carries the search's `report`,
// as `mcts search --json` prints it; `reviewFinished` (a game review finished, however it was
// started) the review's `report`, as `mcts review --json` prints it (embed/events.ts).
// Commands from the host (accepted only from `window.parent`; only from the `origin=` parameter's
// origin when it is given; only from the origins of `allowed-origins=` when that is given):
// `setPosition { game?, moves? }` and
// `startSearch { budget?: { kind: 'millis' | 'playouts', value }, preset?, play?: boolean }` and
// `review { budget?: { kind: 'millis' | 'playouts', value }, seed? }` (Review game on the main
// line: the budget per position, default 10,000 playouts; the seed, default `seed=`, else 0) and
// `showReview { report }` (show a review made elsewhere, e.g. by the notebook widget's kernel,
// for the game on the board: after any `setPosition` sent before it), checked by `commands.ts` (a malformed one gets an `error` event naming the problem).
// Without `origin=` or `allowed-origins=`, any page that frames the playground may send commands
// (they can only set a position and start a search) and events go to any origin.
// With `allowed-origins=`, events go only to those origins, and commands from any other origin
// are dropped without an answer (nothing is posted to an origin that is not allowed).
// `size { height }` (not listed above: layout, not game state) says the height in CSS pixels the
// page needs to show its board at the frame's width (`<mcts-playground>` without a height takes it).
// docs.html documents all of this for teachers.

import type { PageHooks } from '../types';
import type { Player } from '../protocol';
import { EngineError } from '../engine';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import { h } from '../lib/dom';
import { type Command, PROTOCOL, allowedOrigins, parseCommand } from './commands';
import { type SearchFallback, reviewFinishedFields, searchFinishedFields } from './events';
import { parseReviewReport } from '../review/report';
import { reviews } from '../review/marks';

export { PROTOCOL };
/** Parts of the page an embed can show besides the board and status (`show=`); `review` is the
 * game review's section (graph, mistakes, summary: the marks on the moves and the board show
 * without it). */
export const EMBED_SHOW = ['moves', 'thinking', 'controls', 'analysis', 'players', 'share', 'review'] as const;

/** Embed chrome: hides the header and side panel except the parts `show=` names. The open view
 * (`view=play|compare|arena`) shows as on the full page: the views' own rules (`overlay/viz.css`)
 * hide the others (the Python notebook widget's `view=` relies on it). */
export function applyEmbedChrome(show: string | null): void {
  document.body.classList.add('embed');
  const parts = (show ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of parts) if ((EMBED_SHOW as readonly string[]).includes(p)) document.body.classList.add(`embed-show-${p}`);
  // The board alone (no part below it): it fills the frame's height as well as its width.
  if (!parts.some((p) => (EMBED_SHOW as readonly string[]).includes(p))) document.body.classList.add('embed-board-only');
  const style = h('style');
  style.textContent = `
body.embed header, body.embed .help, body.embed #analysis, body.embed #overlay-bar, body.embed #overlay-legend, body.embed .overlay-bar, body.embed .overlay-legend { display: none !important; }
body.embed.embed-show-analysis #overlay-bar, body.embed.embed-show-analysis #overlay-legend { display: flex !important; }
body.embed.embed-show-analysis #analysis { display: block !important; }
body.embed:not(.embed-show-review) #game-review { display: none !important; }
body.embed .layout { display: block; padding: 0.25rem; max-width: none; }
body.embed .panel { display: none; }
body.embed:is(.embed-show-moves, .embed-show-thinking, .embed-show-controls, .embed-show-players, .embed-show-share) .panel { display: flex; margin-top: 0.4rem; padding: 0.4rem; }
body.embed .panel > * { display: none; }
body.embed.embed-show-moves .panel > #moves, body.embed.embed-show-moves .panel > h2 { display: block; }
body.embed.embed-show-moves .panel > #moves { max-height: 6rem; overflow: auto; }
body.embed.embed-show-thinking .panel > #thinking { display: block; }
body.embed.embed-show-controls .panel > .buttons { display: flex; }
body.embed.embed-show-players .panel > fieldset:nth-of-type(2) { display: block; }
body.embed.embed-show-share .panel > #share { display: block; }
body.embed .board-host svg { max-height: calc(100vh - 3.5rem); width: auto; max-width: 100%; }
body.embed .message:empty { display: none; }
body.embed.embed-board-only[data-view="play"] .layout { height: 100vh; box-sizing: border-box; display: flex; flex-direction: column; align-items: stretch; }
body.embed.embed-board-only .play { flex: 1; min-height: 0; gap: 0.25rem; align-self: stretch; }
body.embed.embed-board-only .board-host { flex: 1; min-height: 0; }
body.embed.embed-board-only .board-host svg { width: 100%; height: 100%; max-height: none; }
body.embed.embed-show-controls .board-host svg { max-height: calc(100vh - 10rem); }
body.embed.embed-show-moves .board-host svg, body.embed.embed-show-thinking .board-host svg { max-height: calc(100vh - 11rem); }
body.embed .status { font-size: 0.95rem; }
body.embed .embed-open { font-size: 0.8rem; float: right; }
`;
  document.head.append(style);
}

/** Where an event goes: to `target` (the `origin=` parameter's origin) unless it is `*`; else to
 * each allowed origin (the browser delivers only to the one the parent has); else to any. Never
 * to an origin outside `allowed` when that is given. */
export function eventTargets(target: string, allowed: readonly string[] | null): string[] {
  const targets = target !== '*' ? [target] : (allowed ?? ['*']);
  return targets.filter((t) => allowed === null || t === '*' || allowed.includes(t));
}

/** The `origin=` parameter's origin, `*` when there is none; null when it is not a URL with an
 * origin (`file:`, `data:`: their origin is opaque, and no message can be posted to it). */
function originTarget(origin: string | null): string | null {
  if (!origin) return '*';
  try {
    const o = new URL(origin).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/** Posts `loading` to the host page as soon as the embedded page's script runs (before the
 * engine and the game): the element's sign that the frame shows the playground. Same targets
 * and fields as every event; nothing when the page is not in a frame. */
export function announceLoading(q: URLSearchParams): void {
  if (window.parent === window) return;
  const allowed = allowedOrigins(q.get('allowed-origins'));
  if (allowed.error) return;
  const msg = { ...PROTOCOL, type: 'loading', id: q.get('id'), game: null, moves: [] };
  // A bad origin= (named once the page is up, HostChannel): events go to any origin, as there.
  for (const t of eventTargets(originTarget(q.get('origin')) ?? '*', allowed.origins)) window.parent.postMessage(msg, t);
}

/** The framed page's end of the embed protocol: posts the events to the host page (the origins
 * allowed, as the file's head says) and takes the commands it accepts from there. */
export class HostChannel {
  private readonly target: string;
  /** Origins allowed to send commands and to receive events (`allowed-origins=`); null: any. */
  private readonly allowed: string[] | null;
  constructor(
    private readonly hooks: PageHooks,
    private readonly id: string | null,
    origin: string | null,
    allowedOriginsParam: string | null = null,
  ) {
    const target = originTarget(origin);
    if (target === null) {
      hooks.showMessage(`origin=${origin} is not a URL: events go to any origin and commands are refused`, 'error');
      this.refuseAll = true;
    }
    this.target = target ?? '*';
    const allowed = allowedOrigins(allowedOriginsParam);
    this.allowed = allowed.origins;
    if (allowed.error) {
      hooks.showMessage(allowed.error, 'error');
      this.refuseAll = true;
    }
    window.addEventListener('message', (ev) => void this.onMessage(ev));
    // A link out of the frame to the full playground at the same position.
    const { status } = hooks.elements;
    const open = h('a', { class: 'embed-open', target: '_blank', rel: 'noopener', id: 'embed-open' }, 'Open full playground ↗');
    const refresh = () => {
      const u = new URL(location.href);
      for (const k of ['embed', 'show', 'id', 'origin']) u.searchParams.delete(k);
      open.href = u.href;
    };
    window.addEventListener('popstate', refresh);
    hooks.store.subscribe((st, prev) => {
      if (st.snapshot !== prev.snapshot) refresh();
    });
    refresh();
    status.before(open);
    this.reportSize();
    // A review that runs to its end (not one restored from a record): `reviewFinished`.
    hooks.store.subscribe((st, prev) => {
      const r = st.gameReview;
      if (r?.status === 'finished' && r.report && prev.gameReview?.status === 'running')
        this.post('reviewFinished', reviewFinishedFields(r.report));
    });
  }

  /** Posts `size { height }` whenever the height the page needs changes: what is above the board,
   * the board's drawing at the frame's full width, and what is below it. */
  private reportSize(): void {
    let last = 0;
    const measure = () => {
      const host = this.hooks.elements.boardHost;
      const vb = this.hooks.board()?.svg.viewBox.baseVal;
      if (!vb || vb.width <= 0 || vb.height <= 0) return;
      const r = host.getBoundingClientRect();
      if (r.width === 0) return;
      const below = document.documentElement.scrollHeight - r.bottom;
      const height = Math.ceil(r.top + window.scrollY + (r.width * vb.height) / vb.width + Math.max(0, below));
      if (height === last) return;
      last = height;
      this.post('size', { height });
    };
    const ro = new ResizeObserver(measure);
    ro.observe(document.body);
    this.hooks.store.subscribe((st, prev) => {
      if (st.snapshot?.view.spec !== prev.snapshot?.view.spec || st.view !== prev.view) requestAnimationFrame(measure);
    });
    requestAnimationFrame(measure);
  }
  private refuseAll = false;

  post(type: string, data: Record<string, unknown>): void {
    if (window.parent === window) return;
    const s = this.hooks.snapshot();
    const msg = { ...PROTOCOL, type, id: this.id, game: s?.view.spec ?? null, moves: s?.moves ?? [], ...data };
    for (const t of eventTargets(this.target, this.allowed)) window.parent.postMessage(msg, t);
  }

  private async onMessage(ev: MessageEvent): Promise<void> {
    if (ev.source !== window.parent || window.parent === window) return;
    const parsed = parseCommand(ev.data);
    if ('ignore' in parsed) return;
    if (this.refuseAll || (this.target !== '*' && ev.origin !== this.target)) return;
    if (this.allowed !== null && !this.allowed.includes(ev.origin)) return;
    if ('err' in parsed) return this.post('error', { message: parsed.err });
    const cmd: Command = parsed.ok;
    try {
      switch (cmd.type) {
        case 'setPosition': {
          const cur = this.hooks.snapshot();
          const game = cmd.game ?? cur?.view.spec ?? 'hex:7';
          const moves = Array.isArray(cmd.moves)
            ? cmd.moves
            : typeof cmd.moves === 'string'
              ? cmd.moves.split(/[\s,]+/).filter(Boolean)
              : [];
          const load = this.hooks.loadGame(game, moves);
          // A `showReview` sent after this command is for the position it loads: it waits.
          this.loading = load.then(() => undefined);
          const r = await load;
          if (!r.ok) this.post('error', { command: 'setPosition', message: r.message });
          else this.post('position', {});
          return;
        }
        case 'showReview':
          return await this.showReview(cmd);
        case 'startSearch':
          return await this.startSearch(cmd);
        case 'review':
          return this.review(cmd);
      }
    } catch (e) {
      this.post('error', { message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** The last `setPosition`'s load (a `showReview` after it waits for it). */
  private loading: Promise<void> = Promise.resolve();

  /** Shows a finished review's report for the game on the board (as a record's review is
   * restored): an `error` event when it reviews another game or other moves. */
  private async showReview(cmd: Extract<Command, { type: 'showReview' }>): Promise<void> {
    await this.loading;
    const report = parseReviewReport(cmd.report);
    const s = this.hooks.snapshot();
    if (!s || report.game !== s.view.spec || !reviews(report, s.moves))
      return this.post('error', {
        command: 'showReview',
        message: `the review is of ${report.game} with ${report.moves.length} moves, not of the game on the board (${s?.view.spec ?? 'none'} with ${s?.moves.length ?? 0} moves)`,
      });
    this.hooks.review.restore(report);
  }

  /** Reviews the game's main line (Review game) with the command's budget per position and seed;
   * `reviewFinished` follows when it ends. */
  private review(cmd: Extract<Command, { type: 'review' }>): void {
    if (!this.hooks.snapshot()) return this.post('error', { command: 'review', message: 'there is no game yet' });
    if (this.hooks.store.get().gameReview?.status === 'running')
      return this.post('error', { command: 'review', message: 'a review is running' });
    const b = cmd.budget;
    const budget = b ? { unit: b.kind === 'millis' ? ('ms' as const) : ('playouts' as const), value: b.value } : undefined;
    const pageSeed = this.hooks.engineParams(0).seed;
    this.hooks.review.start(budget, cmd.seed ?? (typeof pageSeed === 'number' ? pageSeed : undefined));
  }

  /** Searches the current position for the side to move, with that side's preset (or `preset`)
   * and budget (or `budget`); posts `searchFinished`, and plays the move when `play` is true. */
  private async startSearch(cmd: Extract<Command, { type: 'startSearch' }>): Promise<void> {
    const s = this.hooks.snapshot();
    if (!s || s.outcome || s.view.to_move === null) return this.post('error', { command: 'startSearch', message: 'the game is over' });
    if (this.hooks.busy()) return this.post('error', { command: 'startSearch', message: 'the engine is busy' });
    const side = s.view.to_move as Player;
    const set = this.hooks.sides()[side];
    const preset = cmd.preset ?? set.preset;
    if (!this.hooks.presets().includes(preset))
      return this.post('error', { command: 'startSearch', message: `unknown preset ${JSON.stringify(preset)}` });
    const budget = cmd.budget ?? { kind: set.budgetKind, value: set.budgetValue };
    const run = (p: string) =>
      this.hooks.engine().search({ slot: 'host', engine: { preset: p, params: this.hooks.engineParams(side) }, budget }).done;
    let fallback: SearchFallback | null = null;
    const out = await run(preset).catch((e: unknown) => {
      // A network preset without a usable net: search with a net-free preset, and say so.
      const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(this.hooks.presets()) : null;
      if (!fb) throw e;
      fallback = { preset: fb, message: fallbackMessage(preset, s.view.spec, fb, (e as Error).message) };
      return run(fb);
    });
    const r = out.result;
    this.post('searchFinished', searchFinishedFields(side, r, out.report, fallback));
    if (cmd.play && r.move) await this.hooks.play(r.move);
  }
}
