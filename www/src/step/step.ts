// Step-through: one MCTS iteration at a time, phase by phase, on the position of the board.
// This file is the view: the card, its controls and keys, and the drawing of the step on screen;
// the session, its stored steps and the worker's requests are the controller's (controller.ts).
// A new position on the board, another preset or seed starts a fresh session, and the panel
// says so ("reset: position changed").
//
// Phases of an iteration: 1 selection (path highlighted in the node-link view, scores in the
// table), 2 expansion (the new node marked), 3 playout (replayed on the board as numbered ghost
// stones, one move at a time), 4 backpropagation (N and Q before → after along the path).
// Keys: → / ← phase, Shift+→ / Shift+← iteration (while the panel is in view and no field has focus).

import { initialState, type BoardRenderer } from '../board';
import { createRenderer, playerName } from '../games';
import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import { RAW_Q_NOTE, rawQ, rootWinRate, winRate } from '../lib/format';
import { BoardOverlay } from '../overlay/board-overlay';
import { labelPresetOptions } from '../play/nets';
import type { IterationTrace, TraceScore, TreeSnapshot } from '../protocol';
import { positionKey, whenPresets } from '../state';
import { childLists, NodeLink, type Children } from '../tree/nodelink';
import type { PlaygroundHooks } from '../types';
import { PHASES, StepController, type StepEntry, type StepSession, type StepState } from './controller';
import './step.css';
import type { PresetName } from '../generated/schema';

/** The preset the step-through starts with. */
const DEFAULT_PRESET: PresetName = 'uct';

const f3 = (x: number) => rawQ(x);

function scoreText(s: TraceScore | null): string {
  if (!s) return '—';
  const v = s.score === null ? '∞' : s.score.toFixed(3);
  const parts = [`${s.move}: ${v}`];
  if (s.untried) parts.push('(untried)');
  return parts.join(' ');
}

function scoreTitle(s: TraceScore | null): string {
  if (!s) return '';
  const bits = [`n = ${s.n}`, `Q = ${f3(s.q)}`];
  if (s.amaf_q !== null) bits.push(`Q_AMAF = ${f3(s.amaf_q)}`);
  if (s.beta !== null) bits.push(`β = ${f3(s.beta)}`);
  if (s.prior !== null) bits.push(`P = ${f3(s.prior)}`);
  return bits.join(', ');
}

/** The snapshot node of each path depth (-1 where the snapshot does not reach). */
function pathNodes(s: TreeSnapshot, kids: Children, trace: IterationTrace): number[] {
  const out = [0];
  let n = 0;
  for (const node of trace.path.slice(1)) {
    const next = n < 0 ? undefined : kids.of(n).find((c) => s.moves[s.move[c]!] === node.move);
    n = next ?? -1;
    out.push(n);
  }
  return out;
}

/** The four phases, each with what it did in this iteration (`t`), the current one marked. */
function renderPhases(phaseList: HTMLElement, t: IterationTrace | null, phase: number, session: StepSession): void {
  const who = (p: number) => playerName(session.view.kind, p);
  const leaf = t?.path.find((n) => n.kind === 'expanded') ?? t?.path[t.path.length - 1];
  const res = t ? (t.outcome.winner === null ? 'a draw' : `${who(t.outcome.winner)} wins`) : '';
  const texts: [string, string][] = [
    [
      'Selection',
      `From the root, go to the child with the highest score until a node still has an untried move or the game is over. ${t ? t.formula : ''}${t ? `. Here: ${t.path.length - 1 - (t.expanded ? 1 : 0) - t.path.filter((n) => n.kind === 'rollout').length} move(s) chosen by score (highlighted in the tree), then a node with untried moves.` : ''}`,
    ],
    [
      'Expansion',
      t
        ? t.expanded
          ? `Add one node to the tree for an untried move: ${t.expanded} (marked ★, N = 0 before this iteration).`
          : t.terminal_leaf
            ? 'No expansion: the selected node is the end of the game.'
            : 'No expansion (the node cap is reached); the playout starts at the selected node.'
        : 'Add one new node to the tree for an untried move.',
    ],
    [
      'Playout',
      t
        ? t.terminal_leaf
          ? `No playout: the game is already over at ${leaf?.move ?? 'the root'} (${res}).`
          : t.decided_at !== null
            ? `From the new node, play random moves until the board is full, as MoHex does, without storing them in the tree (${t.playout.length} moves, numbered on the board). The game was decided at move ${t.decided_at}: ${res}; the moves after it change no winner but count for AMAF (every cell a player owns).`
            : `From the new node, play random moves to the end of the game without storing them in the tree (${t.playout.length} moves, numbered on the board): ${res}.${t.filled ? ' The cells still empty are then dealt to the players for AMAF, which credits the filled board (as MoHex).' : ''}`
        : 'Play random moves to the end of the game, outside the tree.',
    ],
    [
      'Backpropagation',
      t
        ? `Walk back up the path: every node gets N + 1 and W + the result for the player who moved into it (1 win, ½ draw, 0 loss), so Q = W/N moves towards that result. Reward: ${who(0)} ${t.outcome.reward[0]}, ${who(1)} ${t.outcome.reward[1]}.`
        : 'Add the result to N and Q of every node on the path.',
    ],
  ];
  phaseList.replaceChildren(
    ...texts.map(([name, text], k) => {
      const li = h(
        'li',
        { class: `st-ph${t && k === phase ? ' now' : ''}${t && k < phase ? ' done' : ''}` },
        h('b', {}, name),
        ' — ',
        text,
      );
      return li;
    }),
  );
}

/** The node-link view of the tree: the path highlighted, N and Q as they were before
 * backpropagation, the new node marked ★ from expansion on. */
function renderTree(nodelink: NodeLink, e: StepEntry, t: IterationTrace | null, phase: number): void {
  let s = e.tree;
  const kids = childLists(s);
  const nodes = t ? pathNodes(s, kids, t) : [0];
  if (t && phase < 3) {
    // Before backpropagation: the path's N and Q as they were (the rest of the tree is unchanged).
    const visits = s.visits.slice();
    const q = s.q.slice();
    t.path.forEach((n, d) => {
      const i = nodes[d]!;
      if (i >= 0) {
        visits[i] = n.before.n;
        q[i] = n.before.q;
      }
    });
    s = { ...s, visits, q };
  }
  const onPath = new Map<number, number>();
  nodes.forEach((i, d) => {
    if (d > 0 && i >= 0 && nodes[d - 1]! >= 0) onPath.set(nodes[d - 1]!, i);
  });
  const show = t && phase === 0 && t.expanded ? nodes.slice(0, -1) : nodes;
  const adapter = {
    of: (i: number, max = Infinity): number[] => {
      const base = kids.of(i, max);
      const p = onPath.get(i);
      if (p !== undefined && !base.includes(p) && show.includes(p)) base.push(p);
      // Before expansion the new node is not drawn.
      return t && phase === 0 && t.expanded ? base.filter((c) => c !== nodes[nodes.length - 1]) : base;
    },
  };
  const depth = Math.max(2, Math.min(8, t?.path.length ?? 1));
  nodelink.draw(s, adapter, 0, 3, depth);
  nodelink.setHighlight(new Set(show.filter((i) => i >= 0)));
  const exp = t?.path.findIndex((n) => n.kind === 'expanded') ?? -1;
  if (t && exp > 0 && phase >= 1 && nodes[exp]! >= 0) {
    nodelink.mark(nodes[exp]!, 'expanded');
  }
}

/** The path's table: N and the win rate (before → after once backpropagated), the scores. */
function renderTable(table: HTMLElement, t: IterationTrace | null, phase: number, session: StepSession): void {
  if (!t) {
    table.replaceChildren();
    return;
  }
  const who = (p: number) => playerName(session.view.kind, p);
  const after = phase >= 3;
  const head = h(
    'tr',
    {},
    h('th', { class: 'st-depth' }, 'depth'),
    h('th', {}, 'move'),
    h('th', {}, 'by'),
    h('th', { title: 'visit count' }, after ? 'N before → after' : 'N'),
    h(
      'th',
      { title: `win rate = Q in percent, for the player who made the move (the root: the side to move, as in the tree). ${RAW_Q_NOTE}` },
      after ? 'win rate before → after' : 'win rate',
    ),
    h('th', { title: 'selection score of this move at its parent' }, 'score'),
    h('th', { title: 'the best other child at the parent' }, 'best rival'),
  );
  const rows = t.path.map((n) => {
    const nText = after ? `${n.before.n} → ${n.after.n}` : String(n.before.n);
    // One language with the tree: the win rate of the player who made the move into the node
    // (its Q); the root's Q, kept for the player who moved into it, turned round to the side
    // to move. The raw Q is in the title.
    const root = n.kind === 'root';
    const rate = (q: number) => winRate(root ? rootWinRate(q) : q);
    const qText = after ? `${rate(n.before.q)} → ${rate(n.after.q)}` : n.before.n ? rate(n.before.q) : '—';
    const qTitle = after ? `Q (raw) ${f3(n.before.q)} → ${f3(n.after.q)}` : `Q (raw) ${n.before.n ? f3(n.before.q) : '—'}`;
    const flip = (p: string | null) => (root && p === 'win' ? 'loss' : root && p === 'loss' ? 'win' : p);
    const proof = n.before.proven !== n.after.proven && after ? ` (proven ${flip(n.after.proven)})` : '';
    const hidden = phase === 0 && n.kind === 'expanded';
    const tr = h(
      'tr',
      { class: `k-${n.kind}${hidden ? ' later' : ''}` },
      h('td', { class: 'st-depth' }, String(n.depth)),
      h('td', {}, n.kind === 'expanded' && phase >= 1 ? `★ ${n.move}` : (n.move ?? 'root')),
      h(
        'td',
        {
          title: root
            ? 'the root: its win rate is the side to move’s'
            : 'the player who made this move (N and the win rate are from their view)',
        },
        root ? `(${who(session.view.to_move ?? 0)} to move)` : who(n.mover),
      ),
      h('td', {}, nText),
      h('td', { title: qTitle + (root ? ' for the player who moved into the root' : '') }, qText + proof),
      h('td', { title: scoreTitle(n.chosen) }, scoreText(n.chosen)),
      h('td', { title: scoreTitle(n.rival) }, n.rival ? scoreText(n.rival) : '—'),
    );
    return tr;
  });
  table.replaceChildren(
    h('caption', {}, phase >= 3 ? 'The path after backpropagation' : 'The path (values before this iteration)'),
    h('thead', {}, head),
    h('tbody', {}, ...rows),
  );
}

/** Mounts the Step-through card at the end of `host` (the "Seeing the search" section). */
export function mountStep(host: HTMLElement, hooks: PlaygroundHooks): void {
  const controller = new StepController({ presets: hooks.presets, newEngine: () => new EngineClient() });
  new StepView(host, hooks, controller);
}

class StepView {
  private readonly presetSel = h('select', { id: 'st-preset', 'aria-label': 'Step-through preset' });
  private readonly seedIn = h('input', { id: 'st-seed', type: 'number', min: '0', step: '1', value: '1', 'aria-label': 'Seed' });
  private readonly newBtn = h(
    'button',
    { id: 'st-new', type: 'button', class: 'primary', title: 'A fresh tree on the position of the board' },
    'New',
  );
  private readonly backIt = h(
    'button',
    { id: 'st-back-it', type: 'button', title: 'Previous iteration (Shift+←)', 'aria-keyshortcuts': 'Shift+ArrowLeft' },
    '◀◀',
  );
  private readonly back = h(
    'button',
    { id: 'st-back', type: 'button', title: 'Previous phase (←)', 'aria-keyshortcuts': 'ArrowLeft' },
    '◀ phase',
  );
  private readonly fwd = h(
    'button',
    { id: 'st-phase', type: 'button', title: 'Next phase (→)', 'aria-keyshortcuts': 'ArrowRight' },
    '▶ phase',
  );
  private readonly fwdIt = h(
    'button',
    { id: 'st-iter', type: 'button', title: 'Next iteration (Shift+→)', 'aria-keyshortcuts': 'Shift+ArrowRight' },
    '▶▶ iteration',
  );
  private readonly run10 = h('button', { id: 'st-run10', type: 'button', title: '10 more iterations (the last one shown)' }, 'Run 10');
  private readonly run100 = h('button', { id: 'st-run100', type: 'button', title: '100 more iterations (the last one shown)' }, 'Run 100');
  private readonly status = h(
    'div',
    { id: 'st-status', class: 'st-status', 'aria-live': 'polite' },
    'Press New to start a search you can step through.',
  );
  private readonly resetNote = h('span', { id: 'st-reset', class: 'st-reset', hidden: '' });
  private readonly phaseList = h('ol', { id: 'st-phases', class: 'st-phases' });
  private readonly boardHost = h('div', { id: 'st-board', class: 'st-board' });
  private readonly nodelink = new NodeLink({ onHover: () => {}, onReroot: () => {} });
  private readonly table = h('table', { id: 'st-table', class: 'st-table' });
  /** The small tree and the path table, side by side. */
  private readonly right = h('div', { class: 'st-right' }, this.nodelink.element, this.table);
  private readonly card: HTMLElement;
  /** The board has drawn the whole playout of the step on screen (its animation ended). */
  private playoutDone = false;
  private presetsFilled = false;
  private renderer: BoardRenderer | null = null;
  private rendererKey = '';
  private overlay: BoardOverlay | null = null;
  private playoutShown = 0;
  private playoutTimer = 0;

  constructor(
    host: HTMLElement,
    private readonly hooks: PlaygroundHooks,
    private readonly controller: StepController,
  ) {
    this.card = h(
      'div',
      { id: 'step', class: 'an-card st-card', tabindex: '-1', 'aria-label': 'Step-through' },
      h(
        'div',
        { class: 'tree-head' },
        h('h3', {}, 'Step-through: one iteration at a time'),
        h('span', { class: 'muted small' }, 'keys: → / ← phase · Shift+→ / Shift+← iteration'),
      ),
      h(
        'div',
        { class: 'row st-controls' },
        this.presetSel,
        h('label', { class: 'muted' }, 'seed ', this.seedIn),
        this.newBtn,
        h('span', { class: 'st-sep' }),
        this.backIt,
        this.back,
        this.fwd,
        this.fwdIt,
        this.run10,
        this.run100,
      ),
      h('div', { class: 'st-status-row' }, this.resetNote, this.status),
      this.phaseList,
      h(
        'div',
        { class: 'st-grid' },
        h(
          'div',
          { class: 'st-left' },
          this.boardHost,
          h(
            'div',
            { class: 'muted small st-legend' },
            'Numbered stones: solid = moves down the tree (selection, expansion), dashed = the playout.',
          ),
        ),
        this.right,
      ),
    );
    host.append(this.card);
    this.wire();
    this.lessons();
    // Test hook: the traces and what the panel shows.
    (window as unknown as Record<string, unknown>).__step = {
      traces: () => controller.traces(),
      state: () => {
        const s = controller.state.get();
        return {
          iteration: s.cur,
          phase: s.phase,
          iterations: s.entry?.stats.iterations ?? null,
          playoutShown: this.playoutShown,
          workerAt: s.workerAt,
        };
      },
    };
  }

  private fillPresets(): void {
    const { hooks, presetSel } = this;
    const names = hooks.presets();
    // Which presets need a network, and whether the board's game has one.
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
    if (this.presetsFilled || names.length === 0) return;
    this.presetsFilled = true;
    presetSel.replaceChildren(...names.map((p) => h('option', { value: p }, p)));
    presetSel.value = names.includes(DEFAULT_PRESET) ? DEFAULT_PRESET : names[0]!;
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
  }

  /** A fresh session on the position of the board with the chosen preset and seed; `why` says
   * what changed when it was not the New button. */
  private newSession(why = ''): void {
    this.fillPresets();
    const snap = this.hooks.snapshot();
    if (!snap) return;
    const seed = Math.max(0, Math.floor(Number(this.seedIn.value) || 0));
    this.seedIn.value = String(seed);
    void this.controller.newSession(snap, this.presetSel.value, seed, why);
  }

  private wire(): void {
    const { hooks, controller, card } = this;
    // The preset names arrive with the engine's hello: fill the chooser then.
    whenPresets(hooks.store, () => this.fillPresets());
    this.presetSel.addEventListener('focus', () => this.fillPresets());
    controller.state.subscribe((s, prev) => {
      // A request under way only greys the buttons: the step on screen (and its playout) stays.
      if (Object.keys(s).every((k) => k === 'busy' || Object.is(s[k as keyof StepState], prev[k as keyof StepState]))) this.syncButtons();
      else this.render();
    });
    // The session follows the board and the choosers: a new position, preset or seed starts a
    // fresh one, with the word on screen.
    let shownKey = positionKey(hooks.snapshot());
    hooks.store.subscribe((st) => {
      const key = positionKey(st.snapshot);
      if (key === shownKey) return;
      shownKey = key;
      if (controller.hasSession) this.newSession('position changed');
    });
    this.presetSel.addEventListener('change', () => {
      if (controller.hasSession) this.newSession('preset changed');
    });
    this.seedIn.addEventListener('change', () => {
      if (controller.hasSession) this.newSession('seed changed');
    });
    this.newBtn.addEventListener('click', () => this.newSession());
    this.fwd.addEventListener('click', () => void controller.phaseForward());
    this.back.addEventListener('click', () => void controller.phaseBack());
    this.fwdIt.addEventListener('click', () => void controller.nextIteration(1, 3));
    this.backIt.addEventListener('click', () => void controller.iterationBack());
    this.run10.addEventListener('click', () => void controller.nextIteration(10, 3));
    this.run100.addEventListener('click', () => void controller.nextIteration(100, 3));
    document.addEventListener('keydown', (ev) => {
      if (ev.key !== 'ArrowRight' && ev.key !== 'ArrowLeft') return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || controller.state.get().cur < 0) return;
      if (hooks.store.get().view !== 'play') return;
      const t = ev.target as HTMLElement;
      if (t.closest('input, select, textarea, [contenteditable]')) return;
      // Only when the panel has focus or is the thing on screen (the board's own arrow keys move its cursor).
      if (!card.contains(t) && t !== document.body) return;
      const r = card.getBoundingClientRect();
      if (!card.contains(t) && (r.bottom < 0 || r.top > window.innerHeight)) return;
      ev.preventDefault();
      if (ev.key === 'ArrowRight') {
        if (ev.shiftKey) void controller.nextIteration(1, 3);
        else void controller.phaseForward();
      } else if (ev.shiftKey) void controller.iterationBack();
      else void controller.phaseBack();
    });
  }

  /** What a lesson may wait for, trigger and outline here (lessons/catalogue.ts). */
  private lessons(): void {
    const b = this.hooks.lessons;
    const c = this.controller;
    b.watch(c.state);
    b.state('step.iteration', () => c.state.get().entry?.stats.iterations ?? null);
    b.state('step.phase', () => {
      const s = c.state.get();
      return s.entry?.trace ? PHASES[s.phase]! : '';
    });
    b.state('step.playoutDone', () => this.playoutDone);
    b.intent('step.new', (a) => {
      this.fillPresets();
      if (a.preset !== undefined) {
        const p = String(a.preset);
        if (![...this.presetSel.options].some((o) => o.value === p)) throw new Error(`the engine has no preset "${p}"`);
        this.presetSel.value = p;
      }
      if (a.seed !== undefined) this.seedIn.value = String(a.seed);
      this.newSession();
    });
    const session = () => {
      if (!c.hasSession) throw new Error('the step-through has no search yet (step.new starts one)');
    };
    b.intent('step.phase', () => {
      session();
      void c.phaseForward();
    });
    b.intent('step.run', (a) => {
      session();
      void c.nextIteration(Math.max(1, Math.floor(Number(a.iterations))), 3);
    });
    b.target('step.path', () => this.right);
    b.target('step.table', () => this.table);
    b.target('step.board', () => this.boardHost);
    b.target('step.tree', () => this.nodelink.element);
  }

  /** The playout on the board is drawn whole (or not yet): the lessons wait for it. */
  private setPlayoutDone(done: boolean): void {
    this.boardHost.dataset.playoutDone = String(done);
    if (this.playoutDone === done) return;
    this.playoutDone = done;
    this.hooks.lessons.changed();
  }

  private syncButtons(): void {
    const { busy, cur } = this.controller.state.get();
    const has = cur >= 0;
    for (const b of [this.fwd, this.fwdIt, this.run10, this.run100]) b.disabled = busy || !has;
    this.back.disabled = busy || !has || cur === 0;
    this.backIt.disabled = busy || cur <= 0;
    this.newBtn.disabled = busy;
  }

  private render(): void {
    this.syncButtons();
    window.clearInterval(this.playoutTimer);
    const { entry: e, phase, session, resetWhy, lastError, lastRan } = this.controller.state.get();
    const { card, resetNote, status } = this;
    if (session && session.preset !== this.presetSel.value && [...this.presetSel.options].some((o) => o.value === session.preset))
      this.presetSel.value = session.preset;
    card.dataset.iteration = e ? String(e.stats.iterations) : '';
    card.dataset.phase = e?.trace ? PHASES[phase]! : '';
    card.dataset.reset = resetWhy;
    resetNote.hidden = !resetWhy;
    resetNote.textContent = resetWhy ? `reset: ${resetWhy}` : '';
    if (!e || !session) {
      status.textContent = lastError ? `Step-through: ${lastError}` : 'Press New to start a search you can step through.';
      return;
    }
    const t = e.trace;
    const doneText = `${e.stats.iterations} iteration${e.stats.iterations === 1 ? '' : 's'} in the tree, ${e.stats.nodes} nodes`;
    status.textContent = lastError
      ? `${lastError}`
      : !t
        ? `A fresh tree (${session.preset}, seed ${session.seed}). Press ▶ phase (→) to run the first iteration.`
        : `Iteration ${t.iteration}${lastRan > 1 ? ` (the last of ${lastRan} just run)` : ''} · phase ${phase + 1} of 4: ${PHASES[phase]} · ${doneText}`;
    renderPhases(this.phaseList, t, phase, session);
    this.renderBoard(e, t, phase);
    renderTree(this.nodelink, e, t, phase);
    renderTable(this.table, t, phase, session);
  }

  private renderBoard(e: StepEntry, t: IterationTrace | null, phase: number): void {
    const boardHost = this.boardHost;
    const v = e.view;
    const key = `${v.spec}|${v.ply}|${v.cells.join(',')}`;
    if (!this.renderer || this.rendererKey !== key || !boardHost.contains(this.renderer.element)) {
      this.renderer = createRenderer(v, {
        onCell: () => {},
        onTwist: () => {},
        onCancelPending: () => {},
      });
      boardHost.replaceChildren(this.renderer.element);
      this.renderer.update(initialState(v));
      this.rendererKey = key;
      this.overlay = null;
    }
    if (!this.overlay?.attached || this.overlay.board !== this.renderer) {
      this.overlay?.remove();
      this.overlay = new BoardOverlay(this.renderer);
    }
    const overlay = this.overlay;
    const treeMoves = t ? t.path.filter((n) => n.kind !== 'root' && n.kind !== 'rollout').map((n) => n.move!) : [];
    const selMoves = t && phase === 0 ? treeMoves.slice(0, treeMoves.length - (t.expanded ? 1 : 0)) : treeMoves;
    const playout = t ? t.playout : [];
    const draw = (shown: number) => {
      this.playoutShown = shown;
      boardHost.dataset.playoutShown = String(shown);
      overlay.draw(
        {
          view: v,
          rows: v.rows,
          cols: v.cols,
          toMove: (v.to_move ?? 0) as 0 | 1,
          cells: new Map(),
          rootVisits: 0,
          pv: [],
          line: t ? { path: selMoves, pv: playout.slice(0, shown) } : null,
          highlight: new Set(),
          lineCap: 400,
        },
        new Set(),
      );
    };
    if (!t || phase < 2) return draw(0);
    if (phase > 2 || playout.length === 0 || window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
      this.setPlayoutDone(true);
      return draw(playout.length);
    }
    // Phase 3: the playout, move by move.
    draw(0);
    this.setPlayoutDone(false);
    this.playoutTimer = window.setInterval(() => {
      if (this.playoutShown >= playout.length) {
        window.clearInterval(this.playoutTimer);
        this.setPlayoutDone(true);
        return;
      }
      draw(this.playoutShown + 1);
    }, 110);
  }
}
