// The game review's controls in the play view: the budget per position (playouts, or
// milliseconds), "Review game" ("Review again" to continue a stopped review), and while it runs a progress bar with positions done of
// the total, the time left, and Stop. Drawn from the page state's `gameReview` and the
// controller (game-review.ts); the report's views are elsewhere.

import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import type { PlaygroundHooks } from '../types';
import type { ReviewBudget } from '../review/report';
import { DEFAULT_REVIEW_BUDGET, REVIEW_MS, REVIEW_PLAYOUTS, REVIEW_SOLVE_MS, ReviewController, budgetOf } from './game-review';

/** The budget select's value of a budget: `10000` (playouts, as the select has always named
 * them) or `ms:250`. */
export function budgetValue(b: ReviewBudget): string {
  return b.unit === 'ms' ? `ms:${b.value}` : String(b.value);
}

/** The budget a select value names (`budgetValue`'s inverse), or null. */
export function parseBudgetValue(v: string): ReviewBudget | null {
  const m = /^(ms:)?(\d{1,9})$/.exec(v);
  if (!m || Number(m[2]) < 1) return null;
  return { unit: m[1] ? 'ms' : 'playouts', value: Number(m[2]) };
}

/** `0.25 s`, `1 s`: a time budget in the select. */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** `12 s`, `3 min 5 s`: a time left for the status line. */
export function formatTimeLeft(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Builds the review row (to be placed under the analysis controls) and its controller. */
export function mountReviewControls(hooks: PlaygroundHooks): { element: HTMLElement; controller: ReviewController } {
  const controller = new ReviewController({ store: hooks.store, newEngine: () => new EngineClient(), now: () => performance.now() });
  // One select for the budget per position, in playouts or in time (`#review-playouts`: its
  // name from when it held playouts only, kept for the tests and scripts that choose it).
  const playouts = h(
    'select',
    { id: 'review-playouts', 'aria-label': 'Budget per position of the review: playouts or time' },
    h(
      'optgroup',
      { label: 'playouts' },
      ...REVIEW_PLAYOUTS.map((n) =>
        h('option', { value: budgetValue({ unit: 'playouts', value: n }) }, `${n.toLocaleString('en')} playouts`),
      ),
    ),
    h('optgroup', { label: 'time' }, ...REVIEW_MS.map((n) => h('option', { value: budgetValue({ unit: 'ms', value: n }) }, seconds(n)))),
  );
  playouts.value = budgetValue(DEFAULT_REVIEW_BUDGET);
  const run = h('button', { id: 'review-run', type: 'button' }, 'Review game');
  run.title = `Search every position of the game with the engine's preset (and solve it exactly within ${REVIEW_SOLVE_MS / 1000} s where the solver reaches)`;
  const stop = h('button', { id: 'review-stop', type: 'button', hidden: '' }, 'Stop');
  const bar = h('progress', { id: 'review-progress', max: '1', value: '0', hidden: '' });
  const status = h('span', { id: 'review-status', class: 'muted', role: 'status', 'aria-live': 'polite' });
  const element = h(
    'div',
    { class: 'row review-row', id: 'review' },
    h('span', { class: 'solve-label' }, 'Game review'),
    playouts,
    h('span', { class: 'muted' }, 'per position'),
    run,
    bar,
    status,
    stop,
  );

  /** Shows `b` in the select (a budget the page does not offer, from a link or a command, is added
   * as an option of its own). */
  function showBudget(b: ReviewBudget): void {
    const v = budgetValue(b);
    if (![...playouts.options].some((o) => o.value === v))
      playouts.append(h('option', { value: v }, b.unit === 'ms' ? seconds(b.value) : `${b.value.toLocaleString('en')} playouts`));
    playouts.value = v;
  }
  run.addEventListener('click', () => controller.start(parseBudgetValue(playouts.value) ?? DEFAULT_REVIEW_BUDGET));
  stop.addEventListener('click', () => controller.stop());

  function draw(): void {
    const s = hooks.store.get();
    const r = s.gameReview;
    const running = r?.status === 'running';
    run.textContent = r?.status === 'stopped' ? 'Review again' : 'Review game';
    run.disabled = running || !s.snapshot;
    playouts.disabled = running;
    stop.hidden = !running;
    bar.hidden = !r || r.status === 'finished';
    bar.max = Math.max(1, r?.total ?? 1);
    bar.value = r?.done ?? 0;
    status.dataset.status = r?.status ?? 'none';
    status.dataset.done = String(r?.done ?? 0);
    status.dataset.total = String(r?.total ?? 0);
    if (!r) status.textContent = '';
    else if (running) {
      const left = controller.timeLeft();
      status.textContent = `${r.done} / ${r.total} positions${left === null ? '' : `, about ${formatTimeLeft(left)} left`}`;
    } else if (r.status === 'stopped') status.textContent = controller.error ?? `Stopped at ${r.done} / ${r.total} positions`;
    else status.textContent = `Reviewed: ${r.total} positions`;
  }
  hooks.store.subscribe((s, prev) => {
    // A review started elsewhere (a link's review=1, the embed's command) or restored from a
    // record: the select shows its budget.
    const settings = s.gameReview?.report?.settings ?? controller.settings();
    if (s.gameReview !== prev.gameReview && settings) showBudget(budgetOf(settings));
    if (s.gameReview !== prev.gameReview || s.snapshot !== prev.snapshot) draw();
  });
  draw();
  return { element, controller };
}
