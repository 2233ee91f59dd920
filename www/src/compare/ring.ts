// Why a Compare pane rings the move it rings. The ring is the move the pane's engine would play
// (Rust `Search::best_move`): a proven win first, never a proven loss while another move exists,
// otherwise by the preset's final-move rule — most visits (robust child, the default), highest Q
// (max child) or highest Q − A/√n (secure child, Chaslot et al. 2008; the solver preset's, as
// Winands, Björnsson & Saito 2008). When that is not the most visited move, the legend says why.

import type { FullStats } from '../protocol';

type RingStats = Pick<FullStats, 'best_move' | 'children' | 'final_move'>;

const RULES: Record<'max' | 'secure', string> = {
  max: 'its preset plays the max child, the highest win rate Q',
  secure: 'its preset plays the secure child, the highest lower bound Q − A/√n (A = 1)',
};

/** Why the ringed move of `st` is not its most visited one, as a sentence for the legend (null
 * when it is the most visited, or there is nothing to say). */
export function ringReason(st: RingStats, pane: string): string | null {
  const best = st.children.find((c) => c.move === st.best_move);
  const top = st.children.reduce<RingStats['children'][number] | null>((a, c) => (a === null || c.visits > a.visits ? c : a), null);
  if (!best || !top || top.move === best.move || top.visits === best.visits) return null;
  const head = `${pane} rings ${best.move}, not its most visited move ${top.move}`;
  if (best.proven === 'win') return `${head}: ${best.move} is a proven win, played before any other move.`;
  if (top.proven === 'loss') return `${head}: ${top.move} is a proven loss, never played while another move exists.`;
  const rule = st.final_move === 'max' || st.final_move === 'secure' ? RULES[st.final_move] : null;
  if (!rule) return `${head}.`;
  const equal = best.proven !== null && best.proven === top.proven;
  return `${head}: ${equal ? `both are proven ${best.proven}s, and among moves proven equal ` : ''}${rule}${best.proven && !equal ? `; ${best.move} is a proven ${best.proven}` : ''}.`;
}
