// The page's colour scales, in one place: the value scale (Q in [0, 1], red bad … blue good) used
// by the board overlays, the icicle and the node-link tree; the visit heat of the overlays; the
// proven-node colours; and the series colours of the Compare panes and the Arena (A, B, ...).

import { interpolateRdYlBu } from 'd3-scale-chromatic';

/** Where a value in [0, 1] sits on the scale. Values in MCTS crowd around 0.5, so the scale is
 * stretched: 0.25 and below is the bad end (0), 0.75 and above the good end (1). */
export function valuePosition(q: number): number {
  return Math.min(1, Math.max(0, 0.5 + (q - 0.5) * 2));
}

/** Value colour for Q in [0, 1] (good for the player concerned = blue, bad = red), as `rgb(r, g, b)`. */
export function valueColour(q: number): string {
  return interpolateRdYlBu(valuePosition(q));
}

/** The value scale sampled at `steps + 1` evenly spaced values of Q (index k is Q = k / steps),
 * for canvas drawing without a colour computation per node. */
export function valuePalette(steps = 64): string[] {
  return Array.from({ length: steps + 1 }, (_, k) => valueColour(k / steps));
}

/** The visit heat's fill (a CSS variable: light and dark themes differ). */
export const VISIT_FILL = 'var(--ov-visits)';

/** The prior-P heat of the board overlay (CSS variable, light and dark themes); its opacity is
 * `visitOpacity(P, max P)`, the visit heat's scale. */
export const PRIOR_FILL = 'var(--ov-prior)';

/** The visit heat's opacity for a cell with `visits` of the most-visited cell's `maxVisits`:
 * 0.12 … 0.9 on a square-root scale (so that rarely visited moves still show). */
export function visitOpacity(visits: number, maxVisits: number): number {
  if (visits <= 0 || maxVisits <= 0) return 0;
  return 0.12 + 0.78 * Math.sqrt(Math.min(1, visits / maxVisits));
}

/** Proven nodes by the snapshot's code (0 unknown, 1 win, 2 loss, 3 draw): filled marks that
 * keep 3:1 or more against the light and the dark panel alike (win 3.7 / 4.2, loss 4.9 / 3.2; purple, apart from the red–blue value scale), so a
 * legend's swatch shows the same filled mark in both schemes. */
export const PROVEN_COLOUR = ['', '#1a9850', '#ae3ec9', '#9e9e9e'] as const;

/** Series colours: Compare pane k, Arena configuration A (0) and B (1). */
export const SERIES_COLOURS = ['#2f6fdf', '#d9480f', '#2b8a3e', '#9c36b5'] as const;

/** Colours of the best moves' lines in the Compare chart. */
export const MOVE_COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'] as const;

/** `#rrggbb` with an alpha, as `rgba(r,g,b,a)`. */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((x) => Number.parseInt(x, 16));
  return `rgba(${r},${g},${b},${alpha})`;
}
