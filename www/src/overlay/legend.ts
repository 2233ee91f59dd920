// The legend under a board overlay: one line per mark the overlay draws, with a small drawing of
// the mark beside its meaning (the heat and its %, Q and A labels, the W / L / D rings of proven
// moves, the numbered ghost stones of the principal variation, the best-move ring of a Compare
// pane). Used by the play view's analysis and by every Compare pane, so both say the same.

import { h, svg } from '../lib/dom';
import type { OverlayKey } from '../state';

export interface LegendOptions {
  /** The overlays switched on. */
  on: ReadonlySet<OverlayKey>;
  /** The side to move at the root, as named in this game (`Black`, `X`, ...). */
  who: string;
  /** Pentago: figures are summed over the twists of each cell. */
  /** The game's note on cells that stand for several moves (`GamePage.cellNote`). */
  cellNote?: { readonly glyph: string; readonly text: string } | null;
  /** A ring marks the move each engine would play (Compare panes); the sentences say, per pane,
   * why a ringed move is not the most visited one (compare/ring.ts), listed after the legend. */
  best?: boolean | string[];
  /** The root has no AMAF figures (the preset keeps none). */
  noAmaf?: boolean;
  /** Where the priors come from (`net`, `uniform`, `tactical`), or null when the search uses
   * none (not PUCT); undefined: not said. */
  priorSource?: string | null | undefined;
  /** The exact solver's state for this position (the `exact` overlay's lines say it): solved or
   * not yet, or the reason it does not take the game (then no line), and whether the game has
   * draws (Tic-Tac-Toe, Pentago); undefined: do not mention the solver. */
  exact?: { solved: boolean; unavailable: string | null; draws?: boolean } | undefined;
}

/** A small SVG of a mark, drawn with the overlay's own classes so the colours follow the theme. */
function mark(
  kind: 'heat' | 'prior' | 'win' | 'loss' | 'draw' | 'ghost' | 'best' | 'text' | 'exact-win' | 'exact-draw' | 'exact-loss' | 'exact-open',
  text = '',
): SVGSVGElement {
  const root = svg('svg', { viewBox: '0 0 20 20', width: '18', height: '18', class: 'lg-mark viz-overlay', 'aria-hidden': 'true' });
  if (kind === 'heat' || kind === 'prior') {
    const c = svg('circle', { cx: 10, cy: 10, r: 8.5, class: 'ov-heat' }, root);
    c.style.fill = kind === 'heat' ? 'var(--ov-visits)' : 'var(--ov-prior)';
    c.style.fillOpacity = '0.6';
  } else if (kind === 'ghost') {
    svg('circle', { cx: 10, cy: 10, r: 8, class: 'ov-ghost p0' }, root);
    svg('text', { x: 10, y: 14, class: 'ov-num p0', 'font-size': '11' }, root).textContent = '1';
  } else if (kind.startsWith('exact-')) {
    const k = kind.slice(6);
    svg('circle', { cx: 10, cy: 10, r: 8, class: `ov-exact ${k}` }, root);
    svg('text', { x: 10, y: 14, class: `ov-exact-mark ${k}`, 'font-size': '11' }, root).textContent =
      k === 'win' ? '✓' : k === 'draw' ? '=' : k === 'loss' ? '✗' : '?';
  } else if (kind === 'text') {
    svg('text', { x: 10, y: 14, class: 'ov-label', 'font-size': text.length > 1 ? '8' : '11' }, root).textContent = text;
  } else {
    svg('circle', { cx: 10, cy: 10, r: 7.5, class: `ov-ring ${kind === 'best' ? 'ov-hl' : `ov-${kind}`}` }, root);
    if (kind !== 'best')
      svg('text', { x: 10, y: 13.5, class: 'ov-label', 'font-size': '9' }, root).textContent =
        kind === 'win' ? 'W' : kind === 'loss' ? 'L' : 'D';
  }
  return root;
}

/** The legend's lines for the overlays that are on (empty when none is). */
export function legendItems(o: LegendOptions): HTMLElement[] {
  const items: [SVGSVGElement, string][] = [];
  if (o.on.has('visits')) items.push([mark('heat'), 'heat and plain % = share of the root’s visits that went to the move (darker = more)']);
  if (o.on.has('prior')) {
    const src =
      o.priorSource === 'net'
        ? 'the network’s policy head'
        : o.priorSource === 'uniform'
          ? 'uniform priors, 1 / (legal moves)'
          : o.priorSource === 'tactical'
            ? 'the tactical priors (wins, then blocks, weigh more)'
            : 'the policy';
    items.push([
      mark('prior'),
      o.priorSource === null
        ? 'P = prior probability of the move — none here: only PUCT presets (puct, alphazero, alphago, puct-net) use priors'
        : `teal heat (when the visits are off) and P18% = prior P of the move from ${src}, before any search; PUCT explores in proportion to it`,
    ]);
  }
  if (o.on.has('q')) items.push([mark('text', 'Q'), `Q53% = win rate (mean value Q) of the move for ${o.who}, who chooses it`]);
  if (o.on.has('amaf'))
    items.push([
      mark('text', 'A'),
      `A48% = AMAF (all-moves-as-first) win rate for ${o.who}${o.noAmaf ? ' — none here: this preset keeps no AMAF figures' : ''}`,
    ]);
  if (o.on.has('proven')) {
    items.push([mark('win'), `W = proven win for ${o.who} (MCTS-Solver)`]);
    items.push([mark('loss'), `L = proven loss for ${o.who}`]);
    items.push([mark('draw'), 'D = proven draw']);
  }
  if (o.on.has('pv'))
    items.push([
      mark('ghost'),
      'numbered ghost stones = the principal variation, the line the search expects (1 = the move it would play), in the colour of the player making each move; the % under a number is that cell’s visit share',
    ]);
  if (o.on.has('exact') && o.exact) {
    // Nothing when the solver does not take this game (the Solve row says why).
    if (!o.exact.solved && !o.exact.unavailable)
      items.push([
        mark('exact-open'),
        o.exact.draws
          ? 'exact values (✓ win, = draw, ✗ loss): press Solve under “Seeing the search” to prove each move won, drawn or lost'
          : 'exact values (✓ win, ✗ loss): press Solve under “Seeing the search” to prove each move won or lost',
      ]);
    else if (o.exact.solved) {
      items.push([mark('exact-win'), `✓ = ${o.who} wins by playing this move, with perfect play (proven by the exact solver)`]);
      if (o.exact.draws) items.push([mark('exact-draw'), '= = a draw after this move with perfect play by both sides (proven)']);
      items.push([mark('exact-loss'), `✗ = ${o.who} loses after this move against perfect play (proven)`]);
      items.push([mark('exact-open'), '? = not proven yet (the solver’s budget ran out or it was stopped)']);
    }
  }
  if (o.best)
    items.push([
      mark('best'),
      o.best === true || o.best.length === 0
        ? 'ring = the move the engine would play: its most visited move (a proven win first)'
        : 'ring = the move the engine would play: its most visited move (a proven win first), unless its preset’s rule chooses another, as below',
    ]);
  if (o.cellNote && items.length) items.push([mark('text', o.cellNote.glyph), o.cellNote.text]);
  const out = items.map(([m, text]) => h('li', {}, m, h('span', {}, text)));
  if (Array.isArray(o.best)) for (const why of o.best) out.push(h('li', { class: 'ring-why' }, mark('best'), h('span', {}, why)));
  return out;
}

/** Fills `host` (a `<ul class="ov-legend">`) with the legend. */
export function drawLegend(host: HTMLElement, o: LegendOptions): void {
  const items = legendItems(o);
  host.replaceChildren(...(items.length ? items : [h('li', { class: 'muted' }, 'All overlays are off.')]));
}
