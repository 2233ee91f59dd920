// One language for the search's numbers, used by every view (overlay, tree labels, internals,
// charts, status line, compare, arena): a value is a *win rate in percent from the point of view
// of the player who chooses the move* ("53.3%"), visit shares are percent of the root's visits,
// counts are grouped by thousands. The engine's Q is a mean reward in [0, 1] (win 1, draw 0.5,
// loss 0) for the player who made the move into a node — that is, the player who chose it — so a
// move's Q is its win rate for the player choosing it; a root's own Q is its opponent's, and
// `rootWinRate` turns it round. Where Q is shown raw for teaching (the formulas), `rawQ` writes it
// with three places and `RAW_Q_NOTE` says what it is.

/** A win rate in [0, 1] as percent with one decimal: `0.5333` → `53.3%`; null/NaN → `–`. */
export function winRate(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const p = Math.min(100, Math.max(0, x * 100));
  return `${p.toFixed(1)}%`;
}

/** A win rate with whose it is: `53.3% for Black`. */
export function winRateFor(x: number | null | undefined, who: string): string {
  return `${winRate(x)} for ${who}`;
}

/** A win rate in percent without decimals, for the small labels on a board cell: `53%`. */
export function winRateShort(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  return `${Math.round(Math.min(100, Math.max(0, x * 100)))}%`;
}

/** The root node's win rate for the side to move, from the root's own Q (which is the mean reward
 * of the player who moved into the root, the side to move's opponent). */
export function rootWinRate(rootQ: number): number {
  return 1 - rootQ;
}

/** A proven result, for the player it is proven for. */
export type Proof = 'win' | 'loss' | 'draw';

/** The game-theoretic value of a proven result in [0, 1], as a win rate: win 1, draw ½, loss 0. */
export function provenValue(p: Proof): number {
  return p === 'win' ? 1 : p === 'loss' ? 0 : 0.5;
}

/** A move's win rate as the views show it: once MCTS-Solver has proven the move, its proven
 * value (`50.0% (draw)`: the mean of its playouts no longer counts), else its mean Q (`62.2%`). */
export function moveWinRate(q: number | null | undefined, proven: Proof | null | undefined): string {
  return proven ? `${winRate(provenValue(proven))} (${proven})` : winRate(q);
}

/** The same, short, for a board cell: `50%` for a proven draw, else the rounded mean. */
export function moveWinRateShort(q: number | null | undefined, proven: Proof | null | undefined): string {
  return winRateShort(proven ? provenValue(proven) : q);
}

/** The same for a narrow column: `50% D` (proven draw), `100% W`, `0% L`, else `62.2%`. */
export function moveWinRateCompact(q: number | null | undefined, proven: Proof | null | undefined): string {
  return proven ? `${winRateShort(provenValue(proven))} ${proven === 'win' ? 'W' : proven === 'loss' ? 'L' : 'D'}` : winRate(q);
}

/** What a proven move's figure means, for a title: `proven draw: worth 50% with perfect play (its
 * playouts' mean was 62.2%)`. */
export function provenTitle(q: number | null | undefined, proven: Proof): string {
  return `proven ${proven}: worth ${winRate(provenValue(proven))} with perfect play (its playouts’ mean was ${winRate(q)})`;
}

/** A raw Q (mean reward in [0, 1]) with three places, as the formulas use it: `0.533`. */
export function rawQ(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  return x.toFixed(3);
}

/** What a raw Q is, said next to formulas that show it. */
export const RAW_Q_NOTE = 'Q: raw mean reward in [0, 1] (win 1, draw ½, loss 0) for the player choosing the move';

/** A share (part of a whole, in [0, 1]) in percent: `12%`, `1.2%`, `<1%`, `0%`. */
export function share(x: number): string {
  if (!Number.isFinite(x) || x <= 0) return '0%';
  const p = x * 100;
  return p >= 9.95 ? `${Math.min(100, Math.round(p))}%` : p >= 0.95 ? `${p.toFixed(1)}%` : '<1%';
}

/** A count grouped by thousands: `48213` → `48,213`. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en');
}

/** A count in at most four characters: `950`, `1.2k`, `48k`, `1.3M`. */
export function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

/** How a search's iterations are called: `evaluations` when its leaves are valued by a network's
 * value head without a playout (`leaf = value`, AlphaZero), else `playouts` (a playout each,
 * with or without a network's value mixed in). */
export function iterationsWord(leaf: 'rollout' | 'value' | 'mix' | null | undefined): 'playouts' | 'evaluations' {
  return leaf === 'value' ? 'evaluations' : 'playouts';
}

/** A duration as people read it: `430 ms` under a second, else `2.4 s`. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A rate per second: `12,345/s`; none measured (e.g. a proven position, no playouts) → `–/s`. */
export function perSecond(n: number, playouts: number): string {
  return playouts > 0 && Number.isFinite(n) && n > 0 ? `${count(n)}/s` : '–/s';
}
