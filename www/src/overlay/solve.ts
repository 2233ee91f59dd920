// "Truth where the search is shown": the exact Hex solver (depth-first proof-number
// search, Rust `game::hex::dfpn`) from the analysis section, on the position the board shows: the
// live position, or, while a past move is reviewed, the position before that move. A budget in
// seconds, Solve (which becomes Stop), a status line, and each root move's exact value for the
// side to move, which the board overlay `exact` (hotkey X), the root-move table and the review
// line (was the move played a winning move?) show. The values go to the page state (`exact`).
//
// The solver runs in a worker of its own (EngineClient.solver()), in slices, so the game's engine
// and the analysis keep their threads and Stop answers at once. Another position (a move, undo, a
// new game, another reviewed move, back to live) stops a running solve; the marks shown are always
// those of the position on the board. The page keeps the last results by position, so coming back
// to a position solved before shows its values again at once; solving the same position again
// after a stop or an exhausted budget continues where it stopped (the worker keeps the solver's
// table of the last position it solved).

import { EngineClient, EngineDied, type SolveHandle } from '../engine';
import { h } from '../lib/dom';
import { count } from '../lib/format';
import type { BoardView, Snapshot, SolveEnd, SolveReport } from '../protocol';
import { playerName } from '../board';
import { searchBehind } from '../play/searches';
import { movesKey, type ExactValues, type PageState } from '../state';
import type { PlaygroundHooks } from '../types';

/** The largest board the solver takes (Rust `hex_solve::MAX_SOLVE_SIZE`). */
export const SOLVE_MAX_SIZE = 8;
/** The budget field's range and default, in seconds (docs/limits.md). */
export const SOLVE_BUDGET_S = { min: 1, max: 600, initial: 10 } as const;
/** Results kept by position (a few KB each), so that going back to a solved position shows it. */
const KEEP_RESULTS = 32;

/** A position as the solver needs it: its game and moves, its picture, whether the game is over. */
export interface SolveTarget {
  spec: string;
  moves: readonly string[];
  view: BoardView;
  outcome: Snapshot['outcome'];
}

/** The position the Solve control is on: the one before the reviewed move while a past move is
 * reviewed, else the live position (null: no game yet). */
export function solveTarget(st: Pick<PageState, 'snapshot' | 'review' | 'searches'>): SolveTarget | null {
  const s = st.snapshot;
  if (!s) return null;
  if (st.review !== null) {
    const e = searchBehind(st.searches, s.view.spec, s.moves, st.review);
    if (e) return { spec: e.spec, moves: e.before, view: e.view, outcome: null };
  }
  return { spec: s.view.spec, moves: s.moves, view: s.view, outcome: s.outcome };
}

/** A target's key (the same as `positionKey` of a snapshot of that position). */
export const targetKey = (t: SolveTarget | null): string => (t ? movesKey(t.spec, t.moves) : '');

/** Why a position cannot be solved (null: it can). Takes a snapshot or a `SolveTarget`. */
export function solveUnavailable(s: Pick<SolveTarget, 'view' | 'outcome'> | null): string | null {
  if (!s) return 'no game yet';
  const v = s.view;
  if (v.kind !== 'hex') return 'the exact solver is for Hex (boards up to 8×8, without the swap rule)';
  if (v.rows > SOLVE_MAX_SIZE)
    return `Hex ${v.rows}×${v.cols} is too large for the exact solver (it takes boards up to ${SOLVE_MAX_SIZE}×${SOLVE_MAX_SIZE})`;
  if (v.spec.split(':').includes('swap')) return 'the exact solver does not handle the swap rule (choose Hex without it)';
  if (s.outcome) return 'the game is over';
  return null;
}

/** The status line of a solve's report. `end` null: still running. */
export function solveStatusText(kind: Snapshot['view']['kind'], r: SolveReport, end: SolveEnd | null, budgetS: number): string {
  const mover = playerName(kind, r.toMove);
  const other = playerName(kind, r.toMove === 0 ? 1 : 0);
  const proven = r.moves.filter((m) => m.moverWins !== null).length;
  const work = `${count(r.stats.expansions)} positions, ${(r.ms / 1000).toFixed(1)} s`;
  const root =
    r.rootWins === null
      ? null
      : r.rootWins
        ? `${mover} wins${r.winningMove ? `, e.g. ${r.winningMove}` : ''}`
        : `${other} wins (every move of ${mover} loses)`;
  const movesPart = `${proven} of ${r.moves.length} moves proven`;
  if (end === null) return `solving${r.continued ? ' (continued)' : ''}… ${root ? `proven: ${root}; ` : ''}${movesPart} — ${work}`;
  if (end === 'proven') return `proven: ${root ?? '?'} — ${work}`;
  const again = ' Solve again to continue.';
  if (end === 'stopped') return `stopped: ${root ? `proven: ${root}; ` : 'value unknown; '}${movesPart} — ${work}.${again}`;
  return root
    ? `proven: ${root}; ${movesPart} within ${budgetS} s — ${work}.${again}`
    : `unknown within ${budgetS} s: ${movesPart} — ${work}.${again}`;
}

export interface Solver {
  /** The controls (a row for the analysis section). */
  readonly element: HTMLElement;
  /** The exact values of the root moves of the position on the board (the live one, or the one
   * before the reviewed move), by move (null: no solve of it). */
  values(): ReadonlyMap<string, boolean | null> | null;
  /** Why the position on the board cannot be solved (null: it can). */
  unavailable(): string | null;
}

/** A solve's last report and how it ended (`end` null: still running). */
interface Result {
  report: SolveReport;
  end: SolveEnd | null;
  budgetS: number;
}

/** Builds the Solve control; `changed` is called whenever the values or the status change. */
export function mountSolver(hooks: PlaygroundHooks, changed: () => void): Solver {
  const budget = h('input', {
    id: 'solve-budget',
    type: 'number',
    min: String(SOLVE_BUDGET_S.min),
    max: String(SOLVE_BUDGET_S.max),
    step: '1',
    value: String(SOLVE_BUDGET_S.initial),
    'aria-label': 'Solver budget in seconds',
  });
  const btn = h('button', { id: 'solve-run', type: 'button' }, 'Solve');
  const status = h('div', { id: 'solve-status', class: 'solve-status', role: 'status', 'aria-live': 'polite' });
  const element = h(
    'div',
    { class: 'row solve-row', id: 'solve' },
    h(
      'span',
      { class: 'solve-label', title: 'Depth-first proof-number search: proves each move won or lost with perfect play' },
      'Exact solver',
    ),
    budget,
    h('span', { class: 'muted' }, 's'),
    btn,
    status,
  );

  let client: EngineClient | null = null;
  /** The running solve and the position it solves. */
  let running: { handle: SolveHandle; key: string } | null = null;
  /** The last report of each position solved (while running or after), oldest first. */
  const results = new Map<string, Result>();
  const target = () => solveTarget(hooks.store.get());
  let shownKey = targetKey(target());
  let progressCount = 0;

  const reason = () => solveUnavailable(target());
  const current = (): Result | undefined => results.get(targetKey(target()));

  function keep(key: string, r: Result): void {
    results.delete(key);
    results.set(key, r);
    while (results.size > KEEP_RESULTS) results.delete(results.keys().next().value!);
  }

  /** The page state's `exact`: the values of the position on the board, or null. */
  let published = '';
  function publish(): void {
    const key = targetKey(target());
    const r = current();
    const exact: ExactValues | null = r
      ? { key, toMove: r.report.toMove, rootWins: r.report.rootWins, moves: r.report.moves, end: r.end, budgetS: r.budgetS }
      : null;
    const sig = exact ? JSON.stringify([key, exact.rootWins, exact.end, exact.moves.map((m) => m.moverWins)]) : '';
    if (sig === published) return;
    published = sig;
    hooks.store.update({ exact });
  }

  function draw(): void {
    const t = target();
    const kind = t?.view.kind ?? 'hex';
    const why = reason();
    const busy = running !== null;
    const r = current();
    btn.textContent = busy ? 'Stop' : 'Solve';
    btn.classList.toggle('primary', !busy);
    btn.disabled = !busy && why !== null;
    btn.title = !busy && why ? `Not available: ${why}` : busy ? 'Stop the solver (what is proven stays)' : 'Prove each move won or lost';
    budget.disabled = busy || why !== null;
    let state: string;
    // While a past move is reviewed, the status is about the position before it.
    const review = hooks.store.get().review;
    const where = review === null ? '' : `Before move ${review}: `;
    if (busy && r) {
      status.textContent = where + solveStatusText(kind, r.report, null, r.budgetS);
      state = 'running';
    } else if (busy) {
      status.textContent = 'solving…';
      state = 'running';
    } else if (r) {
      status.textContent = where + solveStatusText(kind, r.report, r.end, r.budgetS);
      state = r.end ?? 'running';
    } else if (why) {
      status.textContent = `Not available: ${why}.`;
      state = 'unavailable';
    } else if (status.dataset.state === 'error') return;
    else {
      status.textContent = '';
      state = 'idle';
    }
    status.dataset.state = state;
    status.dataset.progress = String(progressCount);
    // Which position the status is about: the live one or the one before the reviewed move.
    status.dataset.key = shownKey;
  }

  function fail(text: string): void {
    status.textContent = text;
    status.dataset.state = 'error';
  }

  async function solve(): Promise<void> {
    const t = target();
    if (!t || reason() !== null) return draw();
    const secs = Number(budget.value);
    if (!Number.isFinite(secs) || secs < SOLVE_BUDGET_S.min || secs > SOLVE_BUDGET_S.max) {
      fail(`Solver budget: '${budget.value}' is not a number of seconds from ${SOLVE_BUDGET_S.min} to ${SOLVE_BUDGET_S.max}.`);
      return;
    }
    if (!client || client.dead) client = EngineClient.solver();
    const key = targetKey(t);
    progressCount = 0;
    status.dataset.state = '';
    const handle = client.solve({ spec: t.spec, moves: [...t.moves] }, secs * 1000, (r) => {
      if (running?.handle !== handle) return;
      progressCount++;
      keep(key, { report: r, end: null, budgetS: secs });
      update();
    });
    running = { handle, key };
    draw();
    try {
      const out = await handle.done;
      if (running?.handle !== handle) {
        // Stopped because the board moved to another position: what it proved is kept for it.
        keep(key, { report: out, end: out.result, budgetS: secs });
        return;
      }
      running = null;
      keep(key, { report: out, end: out.result, budgetS: secs });
    } catch (e) {
      if (running?.handle !== handle) return;
      running = null;
      results.delete(key);
      const msg = e instanceof Error ? e.message : String(e);
      publish();
      fail(e instanceof EngineDied ? `The solver’s worker stopped: ${msg}` : `Solver: ${msg}`);
      changed();
      btn.textContent = 'Solve';
      btn.classList.add('primary');
      btn.disabled = reason() !== null;
      return;
    }
    update();
  }

  /** Draws the control, tells the page state and the analysis. */
  function update(): void {
    draw();
    publish();
    changed();
  }

  btn.addEventListener('click', () => {
    if (running) running.handle.stop();
    else void solve();
  });

  // Another position on the board (a move, undo, a new game, another reviewed move, back to
  // live) stops a running solve; the marks and the status become that position's.
  hooks.store.subscribe((st, prev) => {
    if (st.snapshot === prev.snapshot && st.review === prev.review && st.searches === prev.searches) return;
    const key = targetKey(solveTarget(st));
    if (key === shownKey) return draw();
    shownKey = key;
    if (running && running.key !== key) {
      running.handle.stop();
      running = null;
    }
    progressCount = 0;
    if (status.dataset.state === 'error') status.dataset.state = '';
    update();
  });
  draw();

  return {
    element,
    values() {
      const r = current();
      return r ? new Map(r.report.moves.map((m) => [m.move, m.moverWins])) : null;
    },
    unavailable: reason,
  };
}
