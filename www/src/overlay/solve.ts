// "Truth where the search is shown" (issue 36): the exact Hex solver (depth-first proof-number
// search, Rust `game::hex::dfpn`) on the live position, from the analysis section. A budget in
// seconds, Solve (which becomes Stop), a status line, and each root move's exact value for the
// side to move, which the board overlay `exact` (hotkey X) and the root-move table show.
//
// The solver runs in a worker of its own (EngineClient.solver()), in slices, so the game's engine
// and the analysis keep their threads and Stop answers at once. A new position (a move, undo, a
// new game) stops a running solve and clears the marks; solving the same position again after a
// stop or an exhausted budget continues where it stopped (the worker keeps the solver's table).

import { EngineClient, EngineDied, type SolveHandle } from '../engine';
import { h } from '../lib/dom';
import { count } from '../lib/format';
import type { SolveEnd, SolveReport, Snapshot } from '../protocol';
import { playerName } from '../board';
import { positionKey } from '../state';
import type { PlaygroundHooks } from '../types';

/** The largest board the solver takes (Rust `hex_solve::MAX_SOLVE_SIZE`). */
export const SOLVE_MAX_SIZE = 8;
/** The budget field's range and default, in seconds (docs/limits.md). */
export const SOLVE_BUDGET_S = { min: 1, max: 600, initial: 10 } as const;

/** Why the live position cannot be solved (null: it can). */
export function solveUnavailable(s: Snapshot | null, reviewing: boolean): string | null {
  if (!s) return 'no game yet';
  const v = s.view;
  if (v.kind !== 'hex') return 'the exact solver is for Hex (boards up to 8×8, without the swap rule)';
  if (v.rows > SOLVE_MAX_SIZE)
    return `Hex ${v.rows}×${v.cols} is too large for the exact solver (it takes boards up to ${SOLVE_MAX_SIZE}×${SOLVE_MAX_SIZE})`;
  if (v.spec.split(':').includes('swap')) return 'the exact solver does not handle the swap rule (choose Hex without it)';
  if (s.outcome) return 'the game is over';
  if (reviewing) return 'back to the live position to solve it';
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
  /** The exact values of the live position's root moves, by move (null: no solve of it). */
  values(): ReadonlyMap<string, boolean | null> | null;
  /** Why the live position cannot be solved (null: it can). */
  unavailable(): string | null;
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
  /** The last report of the live position (while running or after). */
  let result: { key: string; report: SolveReport; end: SolveEnd | null; budgetS: number } | null = null;
  let shownKey = positionKey(hooks.snapshot());
  let progressCount = 0;

  const live = () => hooks.store.get().snapshot;
  const reason = () => solveUnavailable(live(), hooks.store.get().review !== null);

  function draw(): void {
    const s = live();
    const why = reason();
    const busy = running !== null;
    btn.textContent = busy ? 'Stop' : 'Solve';
    btn.classList.toggle('primary', !busy);
    btn.disabled = !busy && why !== null;
    btn.title = !busy && why ? `Not available: ${why}` : busy ? 'Stop the solver (what is proven stays)' : 'Prove each move won or lost';
    budget.disabled = busy || why !== null;
    let state: string;
    if (busy && result) {
      status.textContent = solveStatusText(s?.view.kind ?? 'hex', result.report, null, result.budgetS);
      state = 'running';
    } else if (busy) {
      status.textContent = 'solving…';
      state = 'running';
    } else if (result && result.key === positionKey(s)) {
      status.textContent = solveStatusText(s?.view.kind ?? 'hex', result.report, result.end, result.budgetS);
      state = result.end ?? 'running';
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
  }

  function fail(text: string): void {
    status.textContent = text;
    status.dataset.state = 'error';
  }

  async function solve(): Promise<void> {
    const s = live();
    if (!s || reason() !== null) return draw();
    const secs = Number(budget.value);
    if (!Number.isFinite(secs) || secs < SOLVE_BUDGET_S.min || secs > SOLVE_BUDGET_S.max) {
      fail(`Solver budget: '${budget.value}' is not a number of seconds from ${SOLVE_BUDGET_S.min} to ${SOLVE_BUDGET_S.max}.`);
      return;
    }
    if (!client || client.dead) client = EngineClient.solver();
    const key = positionKey(s);
    progressCount = 0;
    status.dataset.state = '';
    const handle = client.solve({ spec: s.view.spec, moves: s.moves }, secs * 1000, (r) => {
      if (running?.handle !== handle) return;
      progressCount++;
      result = { key, report: r, end: null, budgetS: secs };
      draw();
      changed();
    });
    running = { handle, key };
    draw();
    try {
      const out = await handle.done;
      if (running?.handle !== handle) return;
      running = null;
      result = { key, report: out, end: out.result, budgetS: secs };
    } catch (e) {
      if (running?.handle !== handle) return;
      running = null;
      result = null;
      const msg = e instanceof Error ? e.message : String(e);
      fail(e instanceof EngineDied ? `The solver’s worker stopped: ${msg}` : `Solver: ${msg}`);
      changed();
      btn.textContent = 'Solve';
      btn.classList.add('primary');
      btn.disabled = reason() !== null;
      return;
    }
    draw();
    changed();
  }

  btn.addEventListener('click', () => {
    if (running) running.handle.stop();
    else void solve();
  });

  // A new position stops a running solve and clears the marks.
  hooks.store.subscribe((st, prev) => {
    if (st.snapshot === prev.snapshot && st.review === prev.review) return;
    const key = positionKey(st.snapshot);
    if (key !== shownKey) {
      shownKey = key;
      running?.handle.stop();
      running = null;
      result = null;
      progressCount = 0;
      if (status.dataset.state === 'error') status.dataset.state = '';
      changed();
    }
    draw();
  });
  draw();

  return {
    element,
    values() {
      const s = live();
      if (!result || result.key !== positionKey(s)) return null;
      return new Map(result.report.moves.map((m) => [m.move, m.moverWins]));
    },
    unavailable: reason,
  };
}
