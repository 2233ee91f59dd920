// Worker side of the tree views: turns the engine's flat tree snapshot (Rust
// `SearchSession::treeSnapshot`) into the message the page draws, adding the icicle layout.
//
// The layout is d3-hierarchy's `partition` with the area of each node proportional to its visit
// count N: a node's own value is N minus its shown children's N, so the part of a node not covered
// by children is the visits that went to children left out of the snapshot (or ended there).
// x0/x1 are in [0, 1] of the root's width; the row is the depth. Computed here, in the worker, so
// the page's main thread never lays out 100,000 nodes.

import { hierarchy, partition } from 'd3-hierarchy';
import type { TreeQuery, TreeSnapshot } from '../protocol';

/** The raw object from wasm (`treeSnapshot`): the snapshot before the layout is added. */
type RawSnapshot = Omit<TreeSnapshot, 'x0' | 'x1' | 'buildMs' | 'bytes'>;

/** Something with the wasm `treeSnapshot` method (a `SearchSession`). */
export interface SnapshotSource {
  treeSnapshot(minVisits: number, topK: number, depth: number, maxNodes: number): unknown;
}

/** Builds the snapshot for `q` from `s` and lays it out. */
export function buildTreeSnapshot(s: SnapshotSource, q: TreeQuery): TreeSnapshot {
  const t0 = performance.now();
  const raw = s.treeSnapshot(q.minVisits, q.topK, q.depth, q.maxNodes) as RawSnapshot;
  const n = raw.count;
  const x0 = new Float32Array(n);
  const x1 = new Float32Array(n);
  if (n > 0) {
    // Children lists from the parent array (pre-order: children follow their parent).
    const kids: number[][] = new Array(n);
    for (let i = 0; i < n; i++) kids[i] = [];
    const own = new Float64Array(n);
    for (let i = 0; i < n; i++) own[i] = raw.visits[i]!;
    for (let i = 1; i < n; i++) {
      const p = raw.parent[i]!;
      kids[p]!.push(i);
      own[p] = own[p]! - raw.visits[i]!;
    }
    const root = hierarchy<number>(0, (i) => (kids[i]!.length ? kids[i] : undefined))
      // With transpositions a shared child can carry more visits than its edge: clamp at 0.
      .sum((i) => Math.max(0, own[i]!));
    partition<number>().size([1, 1])(root);
    root.each((d) => {
      const nd = d as unknown as { x0: number; x1: number; data: number };
      x0[nd.data] = nd.x0;
      x1[nd.data] = nd.x1;
    });
  }
  const arrays = [raw.parent, raw.move, raw.visits, raw.q, raw.proven, raw.depth, raw.hidden, x0, x1];
  return {
    ...raw,
    x0,
    x1,
    buildMs: performance.now() - t0,
    bytes: arrays.reduce((a, b) => a + b.byteLength, 0),
  };
}

/** The buffers to transfer with a snapshot. */
export function transferables(t: TreeSnapshot): ArrayBuffer[] {
  return [t.parent, t.move, t.visits, t.q, t.proven, t.depth, t.hidden, t.x0, t.x1].map((a) => a.buffer as ArrayBuffer);
}
