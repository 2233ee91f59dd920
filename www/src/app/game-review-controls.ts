// The game review's controls in the play view: playouts per position, "Review game" ("Review
// again" to continue a stopped review), and while it runs a progress bar with positions done of
// the total, the time left, and Stop. Drawn from the page state's `gameReview` and the
// controller (game-review.ts); the report's views are elsewhere.

import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import type { PlaygroundHooks } from '../types';
import { DEFAULT_REVIEW_PLAYOUTS, REVIEW_PLAYOUTS, REVIEW_SOLVE_MS, ReviewController } from './game-review';

/** `12 s`, `3 min 5 s`: a time left for the status line. */
export function formatTimeLeft(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Builds the review row (to be placed under the analysis controls) and its controller. */
export function mountReviewControls(hooks: PlaygroundHooks): { element: HTMLElement; controller: ReviewController } {
  const controller = new ReviewController({ store: hooks.store, newEngine: () => new EngineClient(), now: () => performance.now() });
  const playouts = h(
    'select',
    { id: 'review-playouts', 'aria-label': 'Playouts per position of the review' },
    ...REVIEW_PLAYOUTS.map((n) => h('option', { value: String(n) }, n.toLocaleString('en'))),
  );
  playouts.value = String(DEFAULT_REVIEW_PLAYOUTS);
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
    h('span', { class: 'muted' }, 'playouts per position'),
    run,
    bar,
    status,
    stop,
  );

  run.addEventListener('click', () => controller.start(Number(playouts.value) || DEFAULT_REVIEW_PLAYOUTS));
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
    if (s.gameReview !== prev.gameReview || s.snapshot !== prev.snapshot) draw();
  });
  draw();
  return { element, controller };
}
