// Step-through: one MCTS iteration at a time, phase by phase, on the position of the
// board. A worker of its own holds a step session (the engine's `Search::step_traced` in record
// mode, see src/mcts/trace.rs); every answer is kept by its iteration number (trace + tree
// snapshot + statistics), so going back is exact and going forward again replays the stored
// steps. The same seed gives the same steps every time, which is also how an iteration that was
// never shown is reached (◀◀ after Run 100, Run 10 after going back): the session is rebuilt from
// the seed and run to exactly that iteration, so the counter always moves by 1 (◀◀ / ▶▶), 10 or
// 100 from the iteration on screen. A new position on the board, another preset or seed starts a
// fresh session, and the panel says so ("reset: position changed").
//
// Phases of an iteration: 1 selection (path highlighted in the node-link view, scores in the
// table), 2 expansion (the new node marked), 3 playout (replayed on the board as numbered ghost
// stones, one move at a time), 4 backpropagation (N and Q before → after along the path).
// Keys: → / ← phase, Shift+→ / Shift+← iteration (while the panel is in view and no field has focus).

import { EngineClient, EngineError } from '../engine';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import { labelPresetOptions } from '../play/nets';
import type { BoardView, FullStats, IterationTrace, TraceScore, TreeQuery, TreeSnapshot } from '../protocol';
import { createRenderer, initialState, playerName, type BoardRenderer } from '../board';
import { BoardOverlay } from '../overlay/board-overlay';
import { NodeLink, childLists, type Children } from '../tree/nodelink';
import type { PlaygroundHooks } from '../types';
import { positionKey, whenPresets } from '../state';
import './step.css';
import { h } from '../lib/dom';
import { RAW_Q_NOTE, rawQ, rootWinRate, winRate } from '../lib/format';

/** One stored step: the tree after `trace` (null: the fresh tree), `ran` iterations in this step. */
interface Entry {
  trace: IterationTrace | null;
  tree: TreeSnapshot;
  stats: FullStats;
  view: BoardView;
  ran: number;
}

const PHASES = ['Selection', 'Expansion', 'Playout', 'Backpropagation'] as const;
/** The step session's tree snapshots: small trees, drawn whole as far as the node-link view goes. */
const TREE: TreeQuery = { minVisits: 1, topK: 64, depth: 12, maxNodes: 5000 };

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

/** Mounts the Step-through card at the end of `host` (the "Seeing the search" section). */
export function mountStep(host: HTMLElement, hooks: PlaygroundHooks): void {
  const presetSel = h('select', { id: 'st-preset', 'aria-label': 'Step-through preset' });
  const seedIn = h('input', { id: 'st-seed', type: 'number', min: '0', step: '1', value: '1', 'aria-label': 'Seed' });
  const newBtn = h('button', { id: 'st-new', type: 'button', class: 'primary', title: 'A fresh tree on the position of the board' }, 'New');
  const backIt = h(
    'button',
    { id: 'st-back-it', type: 'button', title: 'Previous iteration (Shift+←)', 'aria-keyshortcuts': 'Shift+ArrowLeft' },
    '◀◀',
  );
  const back = h('button', { id: 'st-back', type: 'button', title: 'Previous phase (←)', 'aria-keyshortcuts': 'ArrowLeft' }, '◀ phase');
  const fwd = h('button', { id: 'st-phase', type: 'button', title: 'Next phase (→)', 'aria-keyshortcuts': 'ArrowRight' }, '▶ phase');
  const fwdIt = h(
    'button',
    { id: 'st-iter', type: 'button', title: 'Next iteration (Shift+→)', 'aria-keyshortcuts': 'Shift+ArrowRight' },
    '▶▶ iteration',
  );
  const run10 = h('button', { id: 'st-run10', type: 'button', title: '10 more iterations (the last one shown)' }, 'Run 10');
  const run100 = h('button', { id: 'st-run100', type: 'button', title: '100 more iterations (the last one shown)' }, 'Run 100');
  const status = h(
    'div',
    { id: 'st-status', class: 'st-status', 'aria-live': 'polite' },
    'Press New to start a search you can step through.',
  );
  const resetNote = h('span', { id: 'st-reset', class: 'st-reset', hidden: '' });
  const phaseList = h('ol', { id: 'st-phases', class: 'st-phases' });
  const boardHost = h('div', { id: 'st-board', class: 'st-board' });
  const nodelink = new NodeLink({ onHover: () => {}, onReroot: () => {} });
  const table = h('table', { id: 'st-table', class: 'st-table' });
  const card = h(
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
      presetSel,
      h('label', { class: 'muted' }, 'seed ', seedIn),
      newBtn,
      h('span', { class: 'st-sep' }),
      backIt,
      back,
      fwd,
      fwdIt,
      run10,
      run100,
    ),
    h('div', { class: 'st-status-row' }, resetNote, status),
    phaseList,
    h(
      'div',
      { class: 'st-grid' },
      h(
        'div',
        { class: 'st-left' },
        boardHost,
        h(
          'div',
          { class: 'muted small st-legend' },
          'Numbered stones: solid = moves down the tree (selection, expansion), dashed = the playout.',
        ),
      ),
      h('div', { class: 'st-right' }, nodelink.element, table),
    ),
  );
  host.append(card);

  let presetsFilled = false;
  function fillPresets(): void {
    const names = hooks.presets();
    // Which presets need a network, and whether the board's game has one.
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
    if (presetsFilled || names.length === 0) return;
    presetsFilled = true;
    presetSel.replaceChildren(...names.map((p) => h('option', { value: p }, p)));
    presetSel.value = names.includes('uct') ? 'uct' : names[0]!;
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
  }
  // The preset names arrive with the engine's hello: fill the chooser then.
  whenPresets(hooks.store, fillPresets);
  presetSel.addEventListener('focus', fillPresets);

  let client: EngineClient | null = null;
  /** The stored steps by iteration number (0: the fresh tree). */
  const cache = new Map<number, Entry>();
  /** The iteration on screen (-1: no session). */
  let cur = -1;
  let phase = 3;
  let busy = false;
  /** What the session searches (to rebuild it from the seed). */
  let session: { spec: string; moves: string[]; view: BoardView; preset: string; seed: number } | null = null;
  /** The iteration count of the worker's session (-1: none). */
  let workerAt = -1;
  /** Iterations run by the last Run 10 / Run 100 (0 otherwise), for the status line. */
  let lastRan = 0;
  /** Why the session was last restarted on its own ("position changed"), shown until the next step. */
  let resetWhy = '';
  /** Worker requests, one at a time. */
  let queue: Promise<void> = Promise.resolve();
  const CACHE_MAX = 300;
  let renderer: BoardRenderer | null = null;
  let rendererKey = '';
  let overlay: BoardOverlay | null = null;
  let playoutShown = 0;
  let playoutTimer = 0;
  let lastError = '';

  function engine(): EngineClient {
    if (!client || client.dead) client = new EngineClient();
    return client;
  }

  /** Runs `f` after the queued requests, with the buttons disabled meanwhile. */
  function serial(f: () => Promise<void>): Promise<void> {
    queue = queue.then(async () => {
      busy = true;
      syncButtons();
      try {
        await f();
      } catch (e) {
        lastError = e instanceof Error ? e.message : String(e);
      } finally {
        busy = false;
        render();
      }
    });
    return queue;
  }

  async function request(req: Parameters<EngineClient['step']>[0]): Promise<Entry> {
    const r = await engine().step(req);
    lastError = '';
    workerAt = r.stats.iterations;
    return { trace: r.trace, tree: r.tree, stats: r.stats, view: session!.view, ran: req.type === 'stepRun' ? req.count : 0 };
  }

  async function startSession(): Promise<void> {
    const sn = session!;
    workerAt = -1;
    const e = await request({
      type: 'stepNew',
      spec: sn.spec,
      moves: sn.moves,
      engine: { preset: sn.preset, params: { seed: String(sn.seed) } },
      tree: TREE,
    });
    cache.set(0, e);
  }

  /** A fresh session on the position of the board with the chosen preset and seed; `why` says
   * what changed when it was not the New button. */
  function newSession(why = ''): Promise<void> {
    fillPresets();
    const snap = hooks.snapshot();
    if (!snap) return Promise.resolve();
    const seed = Math.max(0, Math.floor(Number(seedIn.value) || 0));
    seedIn.value = String(seed);
    return serial(async () => {
      cache.clear();
      cur = -1;
      lastRan = 0;
      resetWhy = why;
      session = { spec: snap.view.spec, moves: [...snap.moves], view: snap.view, preset: presetSel.value, seed };
      try {
        await startSession();
      } catch (e) {
        // A network preset without a usable net: step through a net-free preset instead.
        const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(hooks.presets()) : null;
        if (!fb) throw e;
        const note = fallbackMessage(session.preset, session.spec, fb, (e as Error).message);
        presetSel.value = fb;
        session = { ...session, preset: fb };
        await startSession();
        resetWhy = note;
      }
      cur = 0;
      phase = 3;
    });
  }

  /** Shows iteration `target` at phase `atPhase`: stored, or run by the session (rebuilt from the
   * seed when the worker is past it). */
  function goTo(target: number, atPhase: number, ran = 0): Promise<void> {
    if (cur < 0 || target < 0 || !session) return Promise.resolve();
    return serial(async () => {
      resetWhy = '';
      lastRan = ran;
      let e = cache.get(target);
      if (!e) {
        if (workerAt < 0 || workerAt > target - 1) {
          await startSession();
          if (target === 0) e = cache.get(0);
        }
        if (!e) {
          e = await request({ type: 'stepRun', count: target - workerAt, tree: TREE });
          if (e.stats.iterations !== target) throw new Error(`the search stopped at iteration ${e.stats.iterations}`);
          cache.set(target, e);
          trimCache(target);
        }
      }
      cur = target;
      phase = e.trace ? atPhase : 3;
    });
  }

  /** Keeps the cache bounded: drops the stored steps farthest from `near` (never the fresh tree). */
  function trimCache(near: number): void {
    if (cache.size <= CACHE_MAX) return;
    const far = [...cache.keys()].filter((k) => k !== 0).sort((a, b) => Math.abs(b - near) - Math.abs(a - near));
    for (const k of far.slice(0, cache.size - CACHE_MAX)) cache.delete(k);
  }

  function nextIteration(count: number, atPhase: number): void {
    if (busy || cur < 0) return;
    void goTo(cur + count, atPhase, count > 1 ? count : 0);
  }

  function phaseForward(): void {
    if (busy || cur < 0) return;
    if (phase < 3 && cache.get(cur)?.trace) {
      phase++;
      resetWhy = '';
      // No expansion (a terminal leaf or the node cap): the phase is shown, then skipped over.
      return render();
    }
    nextIteration(1, 0);
  }

  function phaseBack(): void {
    if (busy || cur < 0) return;
    if (phase > 0 && cache.get(cur)?.trace) {
      phase--;
      resetWhy = '';
      return render();
    }
    if (cur > 0) void goTo(cur - 1, 3);
  }

  function iterationBack(): void {
    if (busy || cur <= 0) return;
    void goTo(cur - 1, 3);
  }

  // The session follows the board and the choosers: a new position, preset or seed starts a
  // fresh one, with the word on screen.
  let shownKey = positionKey(hooks.snapshot());
  hooks.store.subscribe((st) => {
    const key = positionKey(st.snapshot);
    if (key === shownKey) return;
    shownKey = key;
    if (session) void newSession('position changed');
  });
  presetSel.addEventListener('change', () => {
    if (session) void newSession('preset changed');
  });
  seedIn.addEventListener('change', () => {
    if (session) void newSession('seed changed');
  });

  newBtn.addEventListener('click', () => void newSession());
  fwd.addEventListener('click', phaseForward);
  back.addEventListener('click', phaseBack);
  fwdIt.addEventListener('click', () => void nextIteration(1, 3));
  backIt.addEventListener('click', iterationBack);
  run10.addEventListener('click', () => void nextIteration(10, 3));
  run100.addEventListener('click', () => void nextIteration(100, 3));
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== 'ArrowRight' && ev.key !== 'ArrowLeft') return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || cur < 0) return;
    if (hooks.store.get().view !== 'play') return;
    const t = ev.target as HTMLElement;
    if (t.closest('input, select, textarea, [contenteditable]')) return;
    // Only when the panel has focus or is the thing on screen (the board's own arrow keys move its cursor).
    if (!card.contains(t) && t !== document.body) return;
    const r = card.getBoundingClientRect();
    if (!card.contains(t) && (r.bottom < 0 || r.top > window.innerHeight)) return;
    ev.preventDefault();
    if (ev.key === 'ArrowRight') {
      if (ev.shiftKey) void nextIteration(1, 3);
      else phaseForward();
    } else if (ev.shiftKey) iterationBack();
    else phaseBack();
  });

  function syncButtons(): void {
    const has = cur >= 0;
    for (const b of [fwd, fwdIt, run10, run100]) b.disabled = busy || !has;
    back.disabled = busy || !has || cur === 0;
    backIt.disabled = busy || cur <= 0;
    newBtn.disabled = busy;
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

  function render(): void {
    syncButtons();
    window.clearInterval(playoutTimer);
    const e = cur >= 0 ? cache.get(cur) : undefined;
    card.dataset.iteration = e ? String(e.stats.iterations) : '';
    card.dataset.phase = e?.trace ? PHASES[phase]! : '';
    card.dataset.reset = resetWhy;
    resetNote.hidden = !resetWhy;
    resetNote.textContent = resetWhy ? `reset: ${resetWhy}` : '';
    if (!e) {
      status.textContent = lastError ? `Step-through: ${lastError}` : 'Press New to start a search you can step through.';
      return;
    }
    const t = e.trace;
    const doneText = `${e.stats.iterations} iteration${e.stats.iterations === 1 ? '' : 's'} in the tree, ${e.stats.nodes} nodes`;
    status.textContent = lastError
      ? `${lastError}`
      : !t
        ? `A fresh tree (${session?.preset ?? presetSel.value}, seed ${session?.seed ?? seedIn.value}). Press ▶ phase (→) to run the first iteration.`
        : `Iteration ${t.iteration}${lastRan > 1 ? ` (the last of ${lastRan} just run)` : ''} · phase ${phase + 1} of 4: ${PHASES[phase]} · ${doneText}`;
    renderPhases(t);
    renderBoard(e, t);
    renderTree(e, t);
    renderTable(t);
  }

  function renderPhases(t: IterationTrace | null): void {
    const who = (p: number) => playerName(session!.view.kind, p);
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

  function renderBoard(e: Entry, t: IterationTrace | null): void {
    const v = e.view;
    const key = `${v.spec}|${v.ply}|${v.cells.join(',')}`;
    if (!renderer || rendererKey !== key || !boardHost.contains(renderer.element)) {
      renderer = createRenderer(v.kind, v.kind === 'hex' ? v.rows : v.kind === 'pentago' ? 6 : 3, {
        onCell: () => {},
        onTwist: () => {},
        onCancelPending: () => {},
      });
      boardHost.replaceChildren(renderer.element);
      renderer.update(initialState(v));
      rendererKey = key;
      overlay = null;
    }
    const svgRoot = boardHost.querySelector('svg');
    if (!svgRoot) return;
    if (!overlay?.attached) overlay = new BoardOverlay(svgRoot as SVGSVGElement);
    const treeMoves = t ? t.path.filter((n) => n.kind !== 'root' && n.kind !== 'rollout').map((n) => n.move!) : [];
    const selMoves = t && phase === 0 ? treeMoves.slice(0, treeMoves.length - (t.expanded ? 1 : 0)) : treeMoves;
    const playout = t ? t.playout : [];
    const draw = (shown: number) => {
      playoutShown = shown;
      boardHost.dataset.playoutShown = String(shown);
      overlay!.draw(
        {
          kind: v.kind,
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
      boardHost.dataset.playoutDone = 'true';
      return draw(playout.length);
    }
    // Phase 3: the playout, move by move.
    draw(0);
    boardHost.dataset.playoutDone = 'false';
    playoutTimer = window.setInterval(() => {
      if (playoutShown >= playout.length) {
        window.clearInterval(playoutTimer);
        boardHost.dataset.playoutDone = 'true';
        return;
      }
      draw(playoutShown + 1);
    }, 110);
  }

  function renderTree(e: Entry, t: IterationTrace | null): void {
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
      nodelink.element.querySelector(`[data-node="${nodes[exp]}"]`)?.classList.add('st-expanded');
      const label = nodelink.element.querySelector(`[data-node="${nodes[exp]}"] .nl-move`);
      if (label) label.textContent = `★ ${label.textContent}`;
    }
  }

  function renderTable(t: IterationTrace | null): void {
    if (!t) {
      table.replaceChildren();
      return;
    }
    const who = (p: number) => playerName(session!.view.kind, p);
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
          root ? `(${who(session!.view.to_move ?? 0)} to move)` : who(n.mover),
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

  // Test hook: the traces and what the panel shows.
  (window as unknown as Record<string, unknown>).__step = {
    traces: () => [...cache.keys()].sort((a, b) => a - b).map((k) => cache.get(k)!.trace),
    state: () => ({ iteration: cur, phase, iterations: cache.get(cur)?.stats.iterations ?? null, playoutShown, workerAt }),
  };
}
