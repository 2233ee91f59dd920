// The Solve control's view: a budget in seconds, Solve (which becomes Stop) and a status line,
// drawn from the controller's state (solve-controller.ts, which runs the exact solver and writes
// the values to the page state for the board overlay `exact`, the root-move table and the review
// line).

import { EngineClient } from '../engine';
import { gameOf } from '../games';
import { h } from '../lib/dom';
import type { ExactValue } from '../protocol';
import type { PlaygroundHooks } from '../types';
import { SOLVE_BUDGET_S, SolveController, solveStatus, solverTitle } from './solve-controller';

export interface Solver {
  /** The controls (a row for the analysis section). */
  readonly element: HTMLElement;
  /** The exact values of the root moves of the position on the board (the live one, or the one
   * before the reviewed move), by move (null: no solve of it). */
  values(): ReadonlyMap<string, ExactValue | null> | null;
  /** Why the position on the board cannot be solved (null: it can). */
  unavailable(): string | null;
}

/** Builds the Solve control; `changed` is called whenever the values or the status change. */
export function mountSolver(hooks: PlaygroundHooks, changed: () => void): Solver {
  const controller = new SolveController({ store: hooks.store, newEngine: () => EngineClient.solver() });
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
  const label = h('span', { class: 'solve-label' }, 'Exact solver');
  const element = h('div', { class: 'row solve-row', id: 'solve' }, label, budget, h('span', { class: 'muted' }, 's'), btn, status);

  const statusNow = () => {
    const s = controller.state.get();
    return solveStatus(s, controller.target()?.view.kind ?? 'hex', controller.unavailable(), hooks.store.get().review);
  };

  function draw(): void {
    const s = controller.state.get();
    const kind = controller.target()?.view.kind ?? 'hex';
    const why = controller.unavailable();
    const busy = s.running !== null;
    btn.textContent = busy ? 'Stop' : 'Solve';
    btn.classList.toggle('primary', !busy);
    btn.disabled = !busy && why !== null;
    const proves = gameOf(kind).facts.draws ? 'Prove each move won, drawn or lost' : 'Prove each move won or lost';
    btn.title = !busy && why ? `Not available: ${why}` : busy ? 'Stop the solver (what is proven stays)' : proves;
    label.title = solverTitle(kind);
    budget.disabled = busy || why !== null;
    const st = statusNow();
    status.textContent = st.text;
    status.dataset.state = st.state;
    status.dataset.progress = String(s.progress);
    // Which position the status is about: the live one or the one before the reviewed move.
    status.dataset.key = s.key;
  }

  btn.addEventListener('click', () => controller.toggle(budget.value));
  controller.state.subscribe(() => {
    draw();
    changed();
  });
  // The page's position can change without the controller's state changing (a game over, the
  // review of a position with the same key): the button and the reason follow.
  hooks.store.subscribe((st, prev) => {
    if (st.snapshot !== prev.snapshot || st.review !== prev.review || st.searches !== prev.searches || st.reviewView !== prev.reviewView)
      draw();
  });
  draw();
  // A lesson starts the solver as the Solve button does, and waits for its status.
  hooks.lessons.watch(controller.state);
  hooks.lessons.state('solve.state', () => statusNow().state);
  hooks.lessons.intent('solve.run', () => {
    if (controller.state.get().running !== null) return;
    if (btn.disabled) throw new Error(btn.title || 'the solver is not available here');
    controller.toggle(budget.value);
  });

  return { element, values: () => controller.values(), unavailable: () => controller.unavailable() };
}
