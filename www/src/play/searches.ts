// The search behind every move: what the views drew of the search that chose a move, kept after
// the move is played so that the move list can show it again (review), and the root statistics
// that a game's JSON record carries.
//
// An entry is taken when an engine plays a move (app/turns.ts asks the worker for the final statistics
// and a tree snapshot before the move is played) or when a person plays a move in a position the
// analysis had searched (overlay/analysis.ts). It keeps:
// - `summary`: the root statistics (move, N, Q as the mover's win rate, best rival, preset,
//   playouts) — small, kept for every move of the game;
// - `view` and `legal`: the position before the move (to draw the board in review);
// - `stats` and `tree`: the engine's full statistics (`FullStats`) and the tree snapshot at the
//   archive's resolution (`ARCHIVE_TREE`), i.e. exactly what the overlays, the tree views and the
//   policy internals draw. Only the newest `KEEP_SEARCHES` entries keep them; older entries drop
//   them (`stats`/`tree` null) and the views say the search is gone.
//
// Pure functions over plain data (no DOM, no engine): the store holds the log, features read it.

import type { FullStats, Player, TreeQuery } from '../protocol';
import type { MoveFigures, MoveSearch, RootSummary, SearchLog } from '../state';

// The log's types are the page state's (state.ts), so that the state needs no feature module.
export type { MoveFigures, MoveSearch, RootSummary, SearchLog };

/** How many moves keep their full search (statistics and tree snapshot). */
export const KEEP_SEARCHES = 200;
/** How many entries are kept at all (summaries and positions, a few KB each). */
export const KEEP_SUMMARIES = 2000;

/** The tree snapshot kept per move: nodes with at least 1/1500 of the playouts (what an icicle
 * about 500 px wide can show as distinct bars, three rows of pixels per node at most), at most
 * 4,000 nodes: at most 4,000 × 28 bytes = 112 KB of typed arrays. */
export function archiveQuery(playouts: number): TreeQuery {
  return { minVisits: Math.max(1, Math.floor(playouts / 1500)), topK: 512, depth: 40, maxNodes: 4000 };
}

function figures(c: FullStats['children'][number]): MoveFigures {
  return { move: c.move, visits: c.visits, win_rate: Number(c.q.toFixed(4)), proven: c.proven };
}

/** The root summary of `stats` for `move` played as move number `ply`. */
export function rootSummary(stats: FullStats, move: string, ply: number, preset: string, source: RootSummary['source']): RootSummary {
  const chosen = stats.children.find((c) => c.move === move) ?? null;
  const rival = stats.children.filter((c) => c.move !== move).sort((a, b) => b.visits - a.visits)[0] ?? null;
  // The root's N (reused visits included): not `iterations`, which counts every iteration the
  // tree ever ran, in subtrees dropped since too.
  const rootN = stats.root_visits ?? stats.children.reduce((a, c) => a + c.visits, 0);
  return {
    ply,
    move,
    player: stats.to_move as Player,
    source,
    preset,
    playouts: rootN,
    ...(stats.search ? { search_playouts: stats.search.playouts } : {}),
    ...(stats.leaf ? { leaf: stats.leaf } : {}),
    chosen: chosen ? figures(chosen) : null,
    best_rival: rival ? figures(rival) : null,
    proven: stats.proven,
  };
}

/** Whether `e` is the search behind move number `ply` (1-based) of the game `spec` + `moves`. */
export function isBehind(e: MoveSearch, spec: string, moves: readonly string[], ply: number): boolean {
  if (e.spec !== spec || e.before.length !== ply - 1 || moves[ply - 1] !== e.summary.move) return false;
  for (let i = 0; i < e.before.length; i++) if (e.before[i] !== moves[i]) return false;
  return true;
}

/** The search behind move number `ply` of the game, the newest if several (undefined: none). */
export function searchBehind(log: SearchLog, spec: string, moves: readonly string[], ply: number): MoveSearch | undefined {
  for (let i = log.length - 1; i >= 0; i--) if (isBehind(log[i]!, spec, moves, ply)) return log[i];
  return undefined;
}

/** The log with `e` added (replacing an entry for the same move of the same line), then trimmed:
 * only the newest `KEEP_SEARCHES` entries keep their statistics and tree, only the newest
 * `KEEP_SUMMARIES` are kept at all. */
export function addSearch(log: SearchLog, e: MoveSearch): SearchLog {
  const out = log.filter((x) => !isBehind(x, e.spec, [...e.before, e.summary.move], e.before.length + 1));
  out.push(e);
  const start = Math.max(0, out.length - KEEP_SUMMARIES);
  const kept = out.slice(start);
  const heavyFrom = kept.length - KEEP_SEARCHES;
  return kept.map((x, i) => (i < heavyFrom && (x.stats || x.tree) ? { ...x, stats: null, tree: null } : x));
}

/** The root summaries of the game's moves, in move order (moves without a search are absent). */
export function summariesOf(log: SearchLog, spec: string, moves: readonly string[]): RootSummary[] {
  const out: RootSummary[] = [];
  for (let ply = 1; ply <= moves.length; ply++) {
    const e = searchBehind(log, spec, moves, ply);
    if (e) out.push(e.summary);
  }
  return out;
}

/** Bytes one entry holds, as measured by its JSON length (strings, numbers) plus the typed
 * arrays' bytes: the figure the docs quote for what keeping a move's search costs. */
export function entryBytes(e: MoveSearch): number {
  const { tree, ...rest } = e;
  let n = JSON.stringify(rest).length;
  if (tree) n += tree.bytes + JSON.stringify(tree.moves).length;
  return n;
}

/** What a kept search ran: "48,213 playouts", "48,213 playouts (root N 60,120 with the tree
 * kept from earlier moves)", "proven without new playouts (root N 76 from the tree kept)". */
export function searchedText(s: Pick<RootSummary, 'playouts' | 'search_playouts' | 'proven' | 'leaf'>): string {
  const n = (x: number) => x.toLocaleString('en');
  const word = s.leaf === 'value' ? 'evaluations' : 'playouts';
  if (s.search_playouts === undefined) return `${n(s.playouts)} ${word}`;
  if (s.search_playouts === 0)
    return `${s.proven ? 'proven' : 'stopped'} without new ${word} (root N ${n(s.playouts)} from the tree kept from earlier moves)`;
  return `${n(s.search_playouts)} ${word}${s.playouts > s.search_playouts ? ` (root N ${n(s.playouts)} with the tree kept from earlier moves)` : ''}`;
}

/** The label of a kept search: "Search behind move 12 (c4), 48,213 playouts, rave". */
export function behindLabel(s: RootSummary): string {
  return `Search behind move ${s.ply} (${s.move}), ${searchedText(s)}, ${s.preset}`;
}
