// The game's tree of variations (the analysis board), pure: the state's `GameTree` (the main line
// and its variations, each leaving its parent line after `at` of its moves — the shape of the
// game JSON's `variations` and of SGF's game trees) and what the page does with it: add the line
// the game is on, find the full line through a move, promote or delete a variation, and lay the
// tree out for the move list (main line, each variation after the main-line move it replaces, as
// PGN and the Lichess analysis board write them).
//
// A line is the moves from the start to a position; a move of the tree is named by the line that
// ends with it.

import type { Variation } from '../protocol';
import type { GameTree } from '../state';

/** A node of the tree: a move and the moves that follow it (the first is the line's own
 * continuation, the others variations). */
interface Node {
  move: string;
  children: Node[];
}

/** The root's children: the first moves of the game (the first is the main line's). */
function toNodes(moves: readonly string[], variations: readonly Variation[]): Node[] {
  const root: Node[] = [];
  const chain: Node[][] = [root];
  let at = root;
  for (const m of moves) {
    const n: Node = { move: m, children: [] };
    at.push(n);
    at = n.children;
    chain.push(at);
  }
  // A variation leaving after `at` moves hangs beside the line's move `at` (index: the children
  // of the node after `at` moves); one at the line's end would be a continuation: it is added
  // after the line's own (none), i.e. it becomes the continuation.
  for (const v of variations) {
    mergeInto(chain[Math.min(Math.max(0, v.at), moves.length)]!, toNodes(v.moves, v.variations));
  }
  return root;
}

/** Adds `nodes` to `siblings`; a move already there is one node (their continuations merged). */
function mergeInto(siblings: Node[], nodes: readonly Node[]): void {
  for (const n of nodes) {
    const same = siblings.find((c) => c.move === n.move);
    if (same) mergeInto(same.children, n.children);
    else siblings.push(n);
  }
}

/** The tree form of a list of first moves (the inverse of `toNodes`). */
function fromNodes(first: readonly Node[]): { moves: string[]; variations: Variation[] } {
  const moves: string[] = [];
  const variations: Variation[] = [];
  let level: readonly Node[] = first;
  while (level.length > 0) {
    const at = moves.length;
    for (const other of level.slice(1)) {
      const sub = fromNodes([other]);
      variations.push({ at, moves: sub.moves, variations: sub.variations });
    }
    moves.push(level[0]!.move);
    level = level[0]!.children;
  }
  return { moves, variations };
}

function build(spec: string, first: readonly Node[]): GameTree {
  const t = fromNodes(first);
  return { spec, moves: t.moves, variations: t.variations };
}

/** A tree of one line. */
export function singleLine(spec: string, moves: readonly string[]): GameTree {
  return { spec, moves: [...moves], variations: [] };
}

/** The tree with `line` in it: unchanged when the line is already a line of the tree (or a
 * prefix of one); a line that goes past the end of one of the tree's lines extends it; one that
 * leaves the tree somewhere becomes a variation there (after the variations already there). */
export function addLine(tree: GameTree, line: readonly string[]): GameTree {
  return insert(tree, line, false);
}

/** As `addLine`, but where `line` leaves the tree its new move becomes its parent's own
 * continuation (the line it leaves becomes a variation there): a move played after a take-back. */
export function addContinuation(tree: GameTree, line: readonly string[]): GameTree {
  return insert(tree, line, true);
}

/** `line` added to the tree; where it leaves the tree, its new move goes first among its
 * siblings (`first`) or last. */
function insert(tree: GameTree, line: readonly string[], first: boolean): GameTree {
  const root = toNodes(tree.moves, tree.variations);
  let level = root;
  let changed = false;
  for (const m of line) {
    let n = level.find((c) => c.move === m);
    if (!n) {
      n = { move: m, children: [] };
      if (first && !changed) level.unshift(n);
      else level.push(n);
      changed = true;
    }
    level = n.children;
  }
  return changed ? build(tree.spec, root) : tree;
}

/** The nodes along `line` (null when the line leaves the tree). */
function walk(root: Node[], line: readonly string[]): { node: Node; siblings: Node[] }[] | null {
  const path: { node: Node; siblings: Node[] }[] = [];
  let level = root;
  for (const m of line) {
    const n = level.find((c) => c.move === m);
    if (!n) return null;
    path.push({ node: n, siblings: level });
    level = n.children;
  }
  return path;
}

/** Whether `line` is a line of the tree (or a prefix of one). */
export function inTree(tree: GameTree, line: readonly string[]): boolean {
  return walk(toNodes(tree.moves, tree.variations), line) !== null;
}

/** `line` followed to its end by each move's own continuation (the first): the whole line of the
 * tree through the move `line` ends with (`line` itself when it leaves the tree). */
export function fullLine(tree: GameTree, line: readonly string[]): string[] {
  const path = walk(toNodes(tree.moves, tree.variations), line);
  if (!path) return [...line];
  const out = [...line];
  let level = path.length ? path[path.length - 1]!.node.children : toNodes(tree.moves, tree.variations);
  while (level.length > 0) {
    out.push(level[0]!.move);
    level = level[0]!.children;
  }
  return out;
}

/** How many moves of `line` are on the main line (the ply where it leaves it; its length when it
 * never does). */
export function mainPrefix(tree: GameTree, line: readonly string[]): number {
  let k = 0;
  while (k < line.length && k < tree.moves.length && line[k] === tree.moves[k]) k++;
  return k;
}

/** Whether `line` lies on the main line (a prefix of it). */
export function onMainLine(tree: GameTree, line: readonly string[]): boolean {
  return mainPrefix(tree, line) === line.length;
}

/** The deepest move of `line` that is not its parent's own continuation (the variation `line`
 * ends in): its index in the line, or -1 when the line is on the main line. */
function deepestBranch(path: readonly { node: Node; siblings: Node[] }[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.siblings[0] !== path[i]!.node) return i;
  return -1;
}

/** Promotes the variation `line` ends in one level: its first move becomes its parent's own
 * continuation there (Lichess's "Promote variation"), the parent's old continuation the first
 * variation. Unchanged when `line` is on the main line or leaves the tree. */
export function promote(tree: GameTree, line: readonly string[]): GameTree {
  const root = toNodes(tree.moves, tree.variations);
  const path = walk(root, line);
  if (!path) return tree;
  const i = deepestBranch(path);
  if (i < 0) return tree;
  const { node, siblings } = path[i]!;
  siblings.splice(siblings.indexOf(node), 1);
  siblings.unshift(node);
  return build(tree.spec, root);
}

/** Deletes the variation `line` ends in (from its first move on). Returns the tree and the line
 * to go to (where the variation left its parent), or null when `line` is on the main line or
 * leaves the tree (nothing to delete). */
export function deleteVariation(tree: GameTree, line: readonly string[]): { tree: GameTree; at: string[] } | null {
  const root = toNodes(tree.moves, tree.variations);
  const path = walk(root, line);
  if (!path) return null;
  const i = deepestBranch(path);
  if (i < 0) return null;
  const { node, siblings } = path[i]!;
  siblings.splice(siblings.indexOf(node), 1);
  return { tree: build(tree.spec, root), at: line.slice(0, i) };
}

/** One move as the move list shows it: the line that ends with it (its 1-based move number is
 * the line's length), and the variations that replace it (after the move, in brackets). */
export interface ListedMove {
  line: string[];
  move: string;
  variations: ListedMove[][];
}

/** The tree laid out for the move list: the main line's moves, each with the variations that
 * replace it, each variation a list of moves laid out the same way. */
export function listMoves(tree: GameTree): ListedMove[] {
  const lay = (first: readonly Node[], before: readonly string[]): ListedMove[] => {
    const out: ListedMove[] = [];
    let level = first;
    const line = [...before];
    while (level.length > 0) {
      const own = level[0]!;
      const here = [...line];
      line.push(own.move);
      out.push({ line: [...line], move: own.move, variations: level.slice(1).map((v) => lay([v], here)) });
      level = own.children;
    }
    return out;
  };
  return lay(toNodes(tree.moves, tree.variations), []);
}

/** How many moves the tree holds (every line's), to bound what a record may carry. */
export function treeSize(tree: GameTree): number {
  const count = (vs: readonly Variation[]): number => vs.reduce((n, v) => n + v.moves.length + count(v.variations), 0);
  return tree.moves.length + count(tree.variations);
}
