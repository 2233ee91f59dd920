// One Compare pane's view: its form fields (preset, parameters, own budget), its board with the
// visit-share overlay (and the exact solver's marks), its readout, line, truth line, root-move
// bars and tree overview, drawn from its run (controller.ts `PaneRun`).

import { initialState, type BoardRenderer } from '../board';
import { cellOfMove, createRenderer, findGame, playerName } from '../games';
import { SERIES_COLOURS } from '../lib/colour';
import { h } from '../lib/dom';
import { count, iterationsWord, moveWinRateCompact, perSecond, provenTitle, share, winRateFor } from '../lib/format';
import { BoardOverlay, figuresByCell, type OverlayData } from '../overlay/board-overlay';
import { exactMoveValue, exactRootValue, type ExactValue, type SolveReport, type Snapshot, type TreeSnapshot } from '../protocol';
import type { OverlayKey, PaneFields, PaneKey } from '../state';
import { PARAMS as PARAMS_SCHEMA, PRESET_NAMES, PRESETS } from '../generated/schema';
import { PANE_PARAMS, type PaneParam } from '../lib/pane-params';
import { Icicle } from '../tree/icicle';
import type { PaneRun } from './controller';
import { paneTruth, seedSpread, spreadText } from './truth';

/** What a switch's blank means: the preset's value, off unless a preset turns it on (the
 * schema's preset `changes`, e.g. `on in mohex only`). */
function switchBlank(key: PaneParam): string {
  const on = PRESET_NAMES.filter((n) => PRESETS[n].changes[key] === true).join(', ');
  return `blank: the preset’s, ${on ? `on in ${on} only` : 'off in every preset'}`;
}

/** A pane's parameter fields, in the form's order (lib/pane-params.ts): each one's short label
 * and its title. Switches (booleans) are selects preset / on / off, enums a select of the
 * schema's names, numbers a number field; blank is the preset's value. */
const FIELDS: Readonly<Record<PaneParam, { label: string; title: string }>> = {
  c: { label: 'c', title: 'UCT exploration constant c (blank: the preset’s)' },
  rave_k: { label: 'k', title: 'RAVE equivalence parameter k (blank: the preset’s)' },
  lgr_p: { label: 'p', title: 'LGR: probability of playing a stored reply (blank: the preset’s)' },
  pool_k: { label: 'pool', title: 'PoolRAVE pool size (blank: the preset’s)' },
  // src/game/hex/bridges.rs, docs/save-bridge.md.
  save_bridge: {
    label: 'bridge',
    title: `Save-bridge playouts (Hex, as MoHex): a move into a bridge of the player to move is answered in the bridge’s other cell (${switchBlank('save_bridge')}; ignored in other games)`,
  },
  // docs/pattern-priors.md.
  prior: {
    label: 'prior',
    title:
      'The tree’s prior P of each move (blank: the preset’s): uniform, tactical, net (the game’s network) or patterns (Hex: MoHex’s 12-cell pattern weights, fetched on first use)',
  },
  progressive_bias: {
    label: 'pb',
    title: 'Progressive bias c_pb (MoHex: 2.47): adds c_pb·P/√(n+1) to a move’s UCT score (blank: the preset’s, 0 = off)',
  },
  // src/mcts/search/knowledge.rs, docs/hex-knowledge.md.
  knowledge: {
    label: 'know',
    title: `Hex knowledge in the tree (MoHex’s): once a node has know@ visits, its children are cut to the consider set — dead and captured cells and the moves outside the must-play region pruned (${switchBlank('knowledge')}; ignored in other games)`,
  },
  knowledge_threshold: {
    label: 'know@',
    title: `Knowledge threshold: ${PARAMS_SCHEMA.knowledge_threshold.what} (${PARAMS_SCHEMA.knowledge_threshold.units}; default ${PARAMS_SCHEMA.knowledge_threshold.default}, MoHex’s; only with know on; blank: the preset’s)`,
  },
  // Coulom 2006; src/mcts/search/expand.rs.
  expand_threshold: {
    label: 'expand',
    title: `Expansion threshold: ${PARAMS_SCHEMA.expand_threshold.what} (${PARAMS_SCHEMA.expand_threshold.units}; below it an iteration plays out from the node itself; the root always expands; default ${PARAMS_SCHEMA.expand_threshold.default}, MoHex uses 10; blank: the preset’s)`,
  },
};
/** The overlays every pane's board shows. */
export const PANE_OVERLAYS: ReadonlySet<OverlayKey> = new Set<OverlayKey>(['visits', 'proven', 'pv']);
/** The same with the exact solver's marks, once it has proven the position. */
export const PANE_OVERLAYS_EXACT: ReadonlySet<OverlayKey> = new Set<OverlayKey>([...PANE_OVERLAYS, 'exact']);

export class PaneView {
  readonly el: HTMLElement;
  readonly preset: HTMLSelectElement;
  /** The pane's engine parameters by serde name (lib/pane-params.ts): number fields and selects. */
  readonly params = new Map<PaneKey, HTMLInputElement | HTMLSelectElement>();
  readonly budget: HTMLInputElement;
  /** The fields above, folded (a `<details>` “settings”), and the count of those set in its summary. */
  readonly settings: HTMLDetailsElement;
  private readonly settingsCount: HTMLElement;
  readonly badge: HTMLElement;
  readonly readout: HTMLElement;
  readonly pv: HTMLElement;
  /** The pane's best move against the exact values (truth.ts `paneTruth`). */
  readonly truth: HTMLElement;
  /** Over several seeds (the form's seeds): when each found its move, the median and the spread. */
  readonly spread: HTMLElement;
  readonly boardHost: HTMLElement;
  readonly bars: HTMLElement;
  readonly icicle: Icicle;
  renderer: BoardRenderer | null = null;
  /** The run as this pane last drew it, and when (compare.ts paces the redraws of a running pane). */
  drawnRun: PaneRun | undefined = undefined;
  drawnAt = 0;
  private rendererKey = '';
  overlay: BoardOverlay | null = null;

  /** `onZoom`: the pane was zoomed in or out (its overlay is to be drawn again). */
  constructor(
    readonly k: number,
    onZoom: () => void,
  ) {
    this.preset = h('select', { id: `cmp-preset-${k}`, 'aria-label': `Preset of pane ${k + 1}` });
    const fields = h('div', { class: 'cmp-params' });
    for (const key of PANE_PARAMS) {
      const { label, title } = FIELDS[key];
      const schema = PARAMS_SCHEMA[key];
      const common = { id: `cmp-${key}-${k}`, title, 'aria-label': `${title}, pane ${k + 1}` };
      const field =
        schema.type === 'boolean'
          ? h(
              'select',
              common,
              h('option', { value: '' }, 'preset'),
              h('option', { value: 'true' }, 'on'),
              h('option', { value: 'false' }, 'off'),
            )
          : schema.type === 'enum'
            ? h('select', common, h('option', { value: '' }, 'preset'), ...(schema.values ?? []).map((v) => h('option', { value: v }, v)))
            : h('input', { ...common, type: 'number', step: schema.type === 'integer' ? '1' : 'any', placeholder: 'preset' });
      this.params.set(key, field);
      fields.append(h('label', { title }, `${label} `, field));
    }
    this.budget = h('input', {
      id: `cmp-budget-${k}`,
      type: 'number',
      min: '1',
      step: '1',
      placeholder: 'same',
      title: 'This pane’s own budget, in the unit above (blank: the common budget)',
      'aria-label': `Own budget of pane ${k + 1}`,
    });
    fields.append(
      h('label', { title: 'This pane’s own budget, in the unit above (blank: the common budget)' }, 'own budget ', this.budget),
    );
    // What only a researcher sets is folded behind one control; the header's badge names every
    // field set over the preset, so a changed setting shows with the settings closed.
    this.settingsCount = h('span', { class: 'cmp-settings-count muted' });
    this.settings = h(
      'details',
      { class: 'cmp-settings', id: `cmp-settings-${k}` },
      h('summary', { title: 'The preset’s own settings for this pane, and its own budget' }, 'settings', this.settingsCount),
      fields,
    );
    this.badge = h('span', { class: 'cmp-badge', id: `cmp-badge-${k}` });
    // On a board too small for its figures (Hex 11×11 in a quarter of the row), the overlay
    // labels only the most visited cells; every cell has its figures as a tooltip, and the zoom
    // gives the pane the whole row.
    const zoom = h(
      'button',
      {
        type: 'button',
        class: 'cmp-zoom',
        id: `cmp-zoom-${k}`,
        'aria-pressed': 'false',
        title: 'Zoom: this pane across the whole row, its board large enough to read every figure',
      },
      '⤢ zoom',
    );
    this.readout = h('div', { class: 'cmp-readout', id: `cmp-readout-${k}` });
    this.pv = h('div', { class: 'cmp-pv mono small', id: `cmp-pv-${k}` });
    this.truth = h('div', { class: 'cmp-truth small', id: `cmp-truth-${k}`, hidden: '' });
    this.spread = h('div', { class: 'cmp-spread small', id: `cmp-spread-${k}`, hidden: '' });
    this.boardHost = h('div', { class: 'cmp-board', id: `cmp-board-${k}` });
    this.bars = h('div', { class: 'cmp-bars', id: `cmp-bars-${k}` });
    this.icicle = new Icicle({ onHover: () => {}, onClick: () => {} }, 120);
    this.el = h(
      'div',
      { class: 'an-card cmp-pane', id: `cmp-pane-${k}`, style: `border-top: 4px solid ${SERIES_COLOURS[k]}` },
      h('div', { class: 'tree-head cmp-head' }, h('h3', {}, `Pane ${k + 1}`), this.preset, this.badge, zoom),
      this.settings,
      this.boardHost,
      this.readout,
      this.pv,
      this.truth,
      this.spread,
      h(
        'div',
        { class: 'muted small cmp-explain' },
        'root moves: share of the root’s visits (bar, 0–100%, the same scale in every pane) and win rate for the side to move',
      ),
      this.bars,
      h(
        'div',
        { class: 'muted small cmp-explain' },
        'tree overview (breadth-first; width = visits, colour = win rate for the player choosing the move)',
      ),
      this.icicle.element,
    );
    zoom.addEventListener('click', () => {
      const on = !this.el.classList.contains('zoomed');
      this.el.classList.toggle('zoomed', on);
      zoom.setAttribute('aria-pressed', String(on));
      // The overlay sizes its labels to the board as drawn: once the new layout is in.
      requestAnimationFrame(onZoom);
    });
  }

  /** The pane's fields as typed. */
  fields(): PaneFields {
    const f: PaneFields = { preset: this.preset.value, budget: this.budget.value };
    for (const [k, i] of this.params) f[k] = i.value;
    return f;
  }

  /** The parameters this pane sets over its preset, as its form shows them (`c 0.5`, `know on`:
   * a select's chosen option as written, a number as typed); empty when it runs the preset as it is. */
  overrides(): string[] {
    const out: string[] = [];
    for (const key of PANE_PARAMS) {
      const field = this.params.get(key);
      if (!field || field.value.trim() === '') continue;
      const shown = field instanceof HTMLSelectElement ? (field.selectedOptions[0]?.textContent ?? field.value) : field.value.trim();
      out.push(`${FIELDS[key].label} ${shown}`);
    }
    return out;
  }

  /** The settings' summary: how many fields are set over the preset (the badge names them). */
  markSettings(): void {
    const n = this.overrides().length + (this.budget.value.trim() ? 1 : 0);
    this.settingsCount.textContent = n ? ` (${n} set)` : '';
    this.settings.dataset.set = String(n);
  }

  /** Fills the fields (a preset not on the list is left as it was). */
  setFields(f: PaneFields): void {
    if (f.preset !== undefined && [...this.preset.options].some((o) => o.value === f.preset)) this.preset.value = f.preset;
    for (const [key, i] of this.params) i.value = f[key] ?? '';
    this.budget.value = f.budget ?? '';
  }

  /** The pane's board: the position searched, non-interactive, with the overlay on top. */
  drawBoard(s: Snapshot): void {
    const key = `${s.view.kind}:${s.view.rows}`;
    if (!this.renderer || this.rendererKey !== key) {
      this.renderer = createRenderer(s.view, { onCell: () => {}, onTwist: () => {}, onCancelPending: () => {} });
      this.rendererKey = key;
      this.overlay = null;
      this.boardHost.replaceChildren(this.renderer.element);
    }
    this.renderer.update({ ...initialState(s.view), legal: new Set(s.legal), interactive: false });
  }

  /** The overlay of the pane's search, with the exact solver's marks kept few on these small
   * boards: ✓ on every winning move (= on every drawing move of a drawn position), and the best
   * move's own mark (✗ a loss, = a draw, ? not proven) when it is not one. `solved`: the exact values, once the solve has ended with the root proven. */
  drawOverlay(run: PaneRun | undefined, solved: SolveReport | null): void {
    const s = run?.position;
    if (!s || !this.renderer) return;
    if (!this.overlay?.attached || this.overlay.board !== this.renderer) {
      this.overlay?.remove();
      this.overlay = new BoardOverlay(this.renderer);
    }
    const st = run.stats;
    if (!st || s.view.to_move === null) {
      this.overlay.draw(null, PANE_OVERLAYS);
      this.overlay.titleCells(null, '');
      return;
    }
    const best = st.best_move ? cellOfMove(s.view, st.best_move) : null;
    // The best moves (those that keep the position's value: wins, or draws in a drawn position)
    // and the pane's own best move, which shows its value whatever it is.
    const root = solved ? exactRootValue(solved) : null;
    const exactCells = solved ? new Map<number, ExactValue | null>() : null;
    // The move the root was proven with keeps its value, settled in the list or not yet.
    const via = solved ? (solved.bestMove ?? (root === 'win' ? solved.winningMove : null) ?? null) : null;
    for (const m of solved ? solved.moves : []) {
      const cell = cellOfMove(s.view, m.move);
      const v = exactMoveValue(m) ?? (m.move === via ? root : null);
      if (cell === null) continue;
      if (m.move === st.best_move) exactCells!.set(cell, v);
      else if (v === root && v !== 'loss' && !exactCells!.has(cell)) exactCells!.set(cell, v);
    }
    const data: OverlayData = {
      view: s.view,
      rows: s.view.rows,
      cols: s.view.cols,
      toMove: s.view.to_move,
      cells: figuresByCell(s.view, st.children, s.legal),
      rootVisits: st.children.reduce((a, c) => a + c.visits, 0),
      pv: st.pv,
      line: null,
      highlight: best === null ? new Set() : new Set([best]),
      exact: exactCells,
    };
    this.overlay.draw(data, exactCells ? PANE_OVERLAYS_EXACT : PANE_OVERLAYS);
    this.overlay.titleCells(data, playerName(s.view.kind, s.view.to_move));
  }

  /** The pane's line against the exact values: from how many playouts its best move was, and
   * stayed, a winning move. Said once the pane has finished (or was stopped), from the samples
   * it recorded, as soon as the root is proven (`solved`: the exact values then, null before);
   * while the solve runs (`ended` false) a verdict that needs a move not yet proven waits, said
   * as such. A move the solver never proved is unknown (?), not wrong (✗). */
  drawTruth(run: PaneRun | undefined, solved: SolveReport | null, ended: boolean): void {
    const samples = run?.samples ?? [];
    const st = run?.stats ?? null;
    const on = !!solved && !!st && !run?.running && samples.length > 0;
    this.truth.hidden = !on;
    this.truth.dataset.history = samples.map((x) => `${x.playouts}:${x.best ?? '-'}`).join(' ');
    // The best move's win rate at each sample (what the value chart draws).
    this.truth.dataset.values = samples.map((x) => x.value.toFixed(4)).join(' ');
    if (!on || !solved) {
      this.truth.dataset.state = '';
      this.truth.dataset.from = '';
      this.truth.textContent = '';
      return;
    }
    const who = playerName(run?.position?.view.kind ?? 'hex', solved.toMove);
    const t = paneTruth(samples, solved, who, ended);
    this.truth.dataset.state = t.state;
    this.truth.dataset.from = t.playouts === null ? '' : String(t.playouts);
    const mark =
      t.state === 'winning' || t.state === 'drawing'
        ? '✓ exact: '
        : t.state === 'not-winning'
          ? '✗ exact: '
          : t.state === 'pending' || t.state === 'unproven'
            ? '? exact: '
            : 'exact: ';
    this.truth.replaceChildren(h('strong', {}, mark), t.text);
  }

  /** The spread over the pane's seeds, when it runs more than one: while they run, how many have;
   * then each seed's figure (`data-found`), the median and the range, and the final best moves.
   * `solved` and `ended` as for `drawTruth`. */
  drawSpread(run: PaneRun | undefined, solved: SolveReport | null, ended: boolean): void {
    const list = run?.seedList ?? [];
    this.spread.hidden = !run || list.length < 2 || run.running;
    this.spread.dataset.seeds = (run?.seeds ?? [])
      .map((r) => `${r.seed}=${r.samples.map((x) => `${x.playouts}:${x.best ?? '-'}`).join(',')}`)
      .join(' ');
    if (this.spread.hidden || !run) {
      this.spread.dataset.state = '';
      this.spread.textContent = '';
      return;
    }
    if (run.seeds.length < list.length) {
      this.spread.dataset.state = run.state === 'running' ? 'running' : 'incomplete';
      this.spread.dataset.found = '';
      this.spread.textContent =
        run.state === 'running'
          ? `Seeds: ${run.seeds.length} of ${list.length} run (${list[0]}–${list.at(-1)}); the spread follows…`
          : `Seeds: only ${run.seeds.length} of ${list.length} ran; no spread.`;
      return;
    }
    const sp = seedSpread(
      run.seeds.map((r) => r.samples),
      solved,
      ended,
    );
    this.spread.dataset.state = sp.state;
    this.spread.dataset.found = sp.found.map((x) => (x === null ? '-' : String(x))).join(' ');
    this.spread.dataset.median = sp.median === null ? '' : String(sp.median);
    this.spread.textContent = spreadText(sp, list, run.within, solved ? exactRootValue(solved) : null);
  }

  /** The readout (best move, win rate, playouts, time, rate, nodes), the line and the bars. */
  drawStats(run: PaneRun): void {
    const st = run.stats;
    if (!st) return;
    const kind = run.position?.view.kind ?? findGame(st.game)?.name;
    if (!kind) return;
    const who = playerName(kind, st.to_move);
    this.readout.replaceChildren(
      h('div', {}, 'best ', h('strong', { class: 'cmp-best' }, st.best_move ?? '–'), ` · win rate ${winRateFor(st.value, who)}`),
      h(
        'div',
        {},
        st.iterations === 0 && st.proven
          ? `proven ${st.proven} without ${iterationsWord(st.leaf)} · ${count(st.nodes)} nodes`
          : // The time is the engine's search time, the one its rate is computed over (the pane's
            // tree is fresh for each run, so the statistics are this run's).
            `${count(st.iterations)} ${iterationsWord(st.leaf)} in ${(st.elapsed_ms / 1000).toFixed(2)} s · ${perSecond(st.iterations_per_s, st.iterations)} · ${count(st.nodes)} nodes${st.proven ? ` · proven ${st.proven}` : ''}`,
      ),
    );
    this.readout.dataset.playouts = String(st.iterations);
    this.readout.dataset.ms = String(st.elapsed_ms);
    this.readout.dataset.rate = String(st.iterations_per_s);
    this.readout.dataset.best = st.best_move ?? '';
    this.readout.dataset.value = String(st.value);
    this.pv.textContent = st.pv.length ? `line: ${st.pv.slice(0, 10).join(' ')}` : '';
    this.pv.dataset.pv = st.pv.join(' ');
    const total = Math.max(
      1,
      st.children.reduce((a, c) => a + c.visits, 0),
    );
    this.bars.replaceChildren(
      h(
        'div',
        { class: 'bar-row bar-head', 'aria-hidden': 'true' },
        h('span', {}, 'move'),
        h('span', { class: 'bar-scale' }, h('span', {}, '0%'), h('span', {}, '50%'), h('span', {}, '100%')),
        h('span', { class: 'bar-num' }, 'visits'),
        h('span', { class: 'bar-num' }, 'win'),
      ),
      ...st.children.slice(0, 8).map((c) =>
        h(
          'div',
          { class: 'bar-row', 'data-move': c.move, 'data-visits': String(c.visits), 'data-share': String(c.visits / total) },
          h('span', { class: 'bar-move' }, c.move),
          h(
            'span',
            { class: 'bar-track' },
            // One scale in every pane: the bar's length is the move's share of the root's visits.
            h('span', { class: 'bar', style: `width:${((c.visits / total) * 100).toFixed(2)}%;background:${SERIES_COLOURS[this.k]}` }),
          ),
          h('span', { class: 'bar-num' }, share(c.visits / total)),
          h(
            'span',
            { class: 'bar-num', title: c.proven ? `${c.move}: ${provenTitle(c.q, c.proven)}` : `win rate of ${c.move} for ${who}` },
            moveWinRateCompact(c.q, c.proven),
          ),
        ),
      ),
    );
  }

  /** The tree overview of the latest snapshot. */
  drawTree(t: TreeSnapshot, run: PaneRun): void {
    this.icicle.setData(t, 0);
    // For the tests: the snapshot's first level against the root's visited moves (breadth-first
    // keeps the whole first level whenever the node budget allows).
    let level1 = 0;
    for (let i = 0; i < t.count; i++) if (t.depth[i] === 1) level1++;
    this.icicle.element.dataset.level1 = String(level1);
    this.icicle.element.dataset.rootMoves = String((run.stats?.children ?? []).filter((c) => c.visits > 0).length);
  }
}
