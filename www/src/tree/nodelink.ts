// The node-link view: the top children of a chosen node to a chosen depth, laid out by
// d3-hierarchy's `tree` (root on the left), edge width by visits, each node labelled with its
// move, visit count N and mean value Q (for the player who chose the move). Click a node to
// re-root the view on it; click the root to go up one level. Small by construction (top-k per
// node, a few plies), so SVG is fine here.

import { hierarchy, tree, type HierarchyPointNode } from 'd3-hierarchy';
import type { TreeSnapshot } from '../protocol';
import { valueColour } from '../lib/colour';
import { compact as compactCount, type Proof, provenValue, rootWinRate, winRate } from '../lib/format';
import { h, svg } from '../lib/dom';

export interface NodeLinkEvents {
  onHover(node: number | null): void;
  /** Re-root on `node` (a child was clicked) or on its parent (the root was clicked). */
  onReroot(node: number): void;
}

/** Children of each node of a snapshot, in order (most visits first), in two typed arrays
 * (compressed rows: no per-node objects, so a 300,000-node snapshot makes no garbage to collect
 * beyond these two arrays). Each instance owns its arrays: the analysis keeps the lists of every
 * reviewed move's tree, so a later tree's lists must never be written into an earlier one's. */
export class Children {
  private readonly start: Int32Array;
  private readonly list: Int32Array;
  /** Scratch buffer for the fill pointers, reused from one build to the next (it is read only
   * while a constructor runs, never after). */
  private static scratch = new Int32Array(0);
  constructor(s: TreeSnapshot) {
    const n = s.count;
    this.start = new Int32Array(n + 1);
    this.list = new Int32Array(Math.max(0, n - 1));
    for (let i = 1; i < n; i++) this.start[s.parent[i]! + 1]!++;
    for (let i = 0; i < n; i++) this.start[i + 1]! += this.start[i]!;
    if (Children.scratch.length < n) Children.scratch = new Int32Array(Math.ceil(n * 1.25));
    const fill = Children.scratch.subarray(0, n);
    fill.set(this.start.subarray(0, n));
    for (let i = 1; i < n; i++) this.list[fill[s.parent[i]!]!++] = i;
  }
  count(i: number): number {
    return i + 1 < this.start.length ? this.start[i + 1]! - this.start[i]! : 0;
  }
  first(i: number): number {
    return this.list[this.start[i]!]!;
  }
  /** The first `max` children of `i`. */
  of(i: number, max = Infinity): number[] {
    const a = this.start[i]!;
    return Array.from(this.list.subarray(a, a + Math.min(this.count(i), max)));
  }
}

export function childLists(s: TreeSnapshot): Children {
  return new Children(s);
}

const PROOFS = [null, 'win', 'loss', 'draw'] as const;

/** A node's figure in one language with the rest of the page: the win rate of the player who
 * chose the move into it (its Q), or its proven value once proven (`100.0% won`); the root's,
 * which the engine keeps for the player who moved into it, turned round to the side to move
 * (`75.0%`, and `won` when the side to move has a proven win). */
export function nodeValueText(s: Pick<TreeSnapshot, 'move' | 'q' | 'proven'>, i: number): string {
  const { value, proof: p } = nodeValue(s, i);
  if (!p) return winRate(value);
  return `${winRate(value)} ${p === 'win' ? 'won' : p === 'loss' ? 'lost' : 'draw'}`;
}

/** The value `nodeValueText` writes, as a number in [0, 1] (and the proof it is from, if any), in
 * the same perspective: the player who chose the move, the side to move at the root. The trees'
 * colours are this value's, so that a node's fill and its label never disagree. */
export function nodeValue(s: Pick<TreeSnapshot, 'move' | 'q' | 'proven'>, i: number): { value: number; proof: Proof | null } {
  const root = s.move[i] === 65535;
  let p = PROOFS[s.proven[i]!] ?? null;
  if (root && p) p = p === 'win' ? 'loss' : p === 'loss' ? 'win' : 'draw';
  if (p) return { value: provenValue(p), proof: p };
  return { value: root ? rootWinRate(s.q[i]!) : s.q[i]!, proof: null };
}

/** What `NodeLink.mark` can show on a node: `expanded`, the node an MCTS iteration added in its
 * expansion phase (a ★ before its move, the class `nl-expanded` for the view's style). */
export type NodeMark = 'expanded';

export class NodeLink {
  readonly element: HTMLDivElement;
  /** The drawing, for the image exports (they clone it whole); features never look inside it:
   * they use `setHighlight`, `mark` and `nodeCount`. */
  readonly svg: SVGSVGElement;
  private nodes = new Map<number, SVGGElement>();
  private highlight = new Set<number>();

  constructor(private readonly events: NodeLinkEvents) {
    this.element = h('div');
    this.element.className = 'nodelink';
    this.svg = svg('svg', { role: 'img', 'aria-label': 'Top of the search tree (node-link)' });
    this.element.append(this.svg);
  }

  /** Draws the subtree of `root` in `s`: `topK` children per node, `depth` plies. */
  draw(s: TreeSnapshot | null, kids: Pick<Children, 'of'> | null, root: number, topK: number, depth: number): void {
    this.svg.replaceChildren();
    this.nodes.clear();
    if (!s || !kids || s.count === 0 || root >= s.count) {
      // The size of the last tree drawn must not stay behind (it would blow this text up).
      this.svg.setAttribute('viewBox', '0 0 400 40');
      this.svg.setAttribute('width', '400');
      this.svg.setAttribute('height', '40');
      svg('text', { x: 8, y: 24, class: 'nl-empty' }, this.svg).textContent = 'No tree yet.';
      return;
    }
    const d0 = s.depth[root]!;
    const h = hierarchy<number>(root, (i) => (s.depth[i]! - d0 < depth ? kids.of(i, topK) : undefined));
    const leaves = h.leaves().length;
    // Narrower than the tree (a phone): narrower columns with each label on two lines (the move,
    // then N and the win rate), and if that is still too wide the drawing scaled down to fit, to
    // at most 3/4 (beyond that it scrolls).
    const avail = this.element.clientWidth;
    const levels = h.height + 1;
    const compact = avail > 0 && levels * 150 + 40 > avail;
    const rowH = compact ? 34 : 26;
    const colW = compact ? Math.max(84, Math.floor((avail - 40) / levels)) : 150;
    const layout = tree<number>().nodeSize([rowH, colW])(h);
    let minX = Infinity;
    let maxX = -Infinity;
    layout.each((n) => {
      minX = Math.min(minX, n.x);
      maxX = Math.max(maxX, n.x);
    });
    const width = levels * colW + 40;
    const height = Math.max(rowH * 2, maxX - minX + rowH * 2);
    const scale = avail > 0 && width > avail ? Math.max(0.75, avail / width) : 1;
    this.svg.setAttribute('viewBox', `-12 ${minX - rowH} ${width} ${height}`);
    this.svg.setAttribute('width', String(Math.floor(width * scale)));
    this.svg.setAttribute('height', String(Math.ceil(height * scale)));
    this.element.dataset.compact = String(compact);
    void leaves;
    const rootVisits = Math.max(1, s.visits[root]!);
    const links = svg('g', { class: 'nl-links' }, this.svg);
    for (const l of layout.links()) {
      const t = l.target as HierarchyPointNode<number>;
      const src = l.source as HierarchyPointNode<number>;
      const w = 1 + 11 * Math.sqrt(s.visits[t.data]! / rootVisits);
      const mx = (src.y + t.y) / 2;
      svg(
        'path',
        {
          d: `M${src.y},${src.x} C${mx},${src.x} ${mx},${t.x} ${t.y},${t.x}`,
          'stroke-width': w.toFixed(2),
          class: 'nl-link',
        },
        links,
      );
    }
    const nodesG = svg('g', { class: 'nl-nodes' }, this.svg);
    layout.each((n) => {
      const i = n.data;
      const g = svg('g', { transform: `translate(${n.y},${n.x})`, class: 'nl-node', 'data-node': i, tabindex: 0, role: 'button' }, nodesG);
      const mv = s.move[i] === 65535 ? 'root' : (s.moves[s.move[i]!] ?? '?');
      svg('circle', { r: 6, fill: valueColour(nodeValue(s, i).value), class: `nl-dot proven-${s.proven[i]}` }, g);
      const label = svg('text', { x: 10, y: compact ? -2 : 4, class: 'nl-label' }, g);
      const b = svg('tspan', { class: 'nl-move' }, label);
      b.textContent = mv;
      const rest = svg('tspan', compact ? { x: 10, dy: '1.15em' } : {}, label);
      rest.textContent = `${compact ? '' : ' '}N=${compactCount(s.visits[i]!)} ${nodeValueText(s, i)}`;
      svg('title', {}, g).textContent = i === root ? `${mv}: click to go up one level` : `${mv}: click to re-root here`;
      g.addEventListener('pointerenter', () => this.events.onHover(i));
      g.addEventListener('pointerleave', () => this.events.onHover(null));
      const act = () => this.events.onReroot(i === root ? Math.max(0, s.parent[i]!) : i);
      g.addEventListener('click', act);
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          act();
        }
      });
      this.nodes.set(i, g);
    });
    this.applyHighlight();
    // In a box shorter than the tree (the step-through's), the root in view, not the tree's top.
    const box = this.element;
    if (box.scrollHeight > box.clientHeight + 1) {
      const rootY = (layout.x - (minX - rowH)) * scale;
      box.scrollTop = Math.max(0, rootY - box.clientHeight / 2);
    }
  }

  /** How many nodes the view draws now (0 before any tree). */
  nodeCount(): number {
    return this.nodes.size;
  }

  /** Marks `node` (an index of the snapshot drawn) as `kind` until the next `draw`; false when
   * the node is not drawn now. A node is marked once: marking it again changes nothing. */
  mark(node: number, kind: NodeMark): boolean {
    const g = this.nodes.get(node);
    if (!g) return false;
    const cls = `nl-${kind}`;
    if (g.classList.contains(cls)) return true;
    g.classList.add(cls);
    const move = g.querySelector('.nl-move');
    if (move && kind === 'expanded') move.textContent = `★ ${move.textContent}`;
    return true;
  }

  /** Rings the nodes `nodes` (a line: the hovered move's, the iteration's path), the others not. */
  setHighlight(nodes: Set<number>): void {
    this.highlight = nodes;
    this.applyHighlight();
  }

  private applyHighlight(): void {
    for (const [i, g] of this.nodes) g.classList.toggle('hl', this.highlight.has(i));
  }
}
