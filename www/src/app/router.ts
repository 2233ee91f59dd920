// The page's view router: mounts the search views, the analysis (overlays, tree views, policy
// internals) and the step-through under the game, and the Compare, Arena and Train views behind
// tabs in the header (`#compare`, `#arena`, `#train` in the URL; `#play` or nothing for the
// game): the open view is the store's `view`.

import { mountAnalysis } from '../overlay/analysis';
import type { GameReviewControl, PlaygroundHooks, TreeViews } from '../types';
import { mountCompare } from '../compare/compare';
import { mountArena } from '../arena/arena';
import { mountStep } from '../step/step';
import { mountReviewControls } from './game-review-controls';
import { h } from '../lib/dom';
import type { View } from '../state';

const TABS: { id: View; label: string }[] = [
  { id: 'play', label: 'Play & analyse' },
  { id: 'compare', label: 'Compare' },
  { id: 'arena', label: 'Arena' },
  { id: 'train', label: 'Train' },
];

/** Mounts every view; returns the analysis's tree views (for the image exports) and the game
 * review's controller (for a link's `review=1`, a record's review and the embed). */
export function mountViews(hooks: PlaygroundHooks): { trees: TreeViews; review: GameReviewControl } {
  const analysis = mountAnalysis(hooks);
  // The game review's row: under the exact solver's row of the analysis controls.
  const review = mountReviewControls(hooks);
  const solveRow = analysis.section.querySelector('#solve');
  if (solveRow) solveRow.after(review.element);
  else analysis.section.prepend(review.element);
  // The step-through: a card at the end of the analysis section.
  mountStep(analysis.section, hooks);
  const { app, header } = hooks.elements;
  const compare = h('section', { id: 'compare', class: 'view' });
  const arena = h('section', { id: 'arena', class: 'view' });
  const train = h('section', { id: 'train', class: 'view' });
  app.append(compare, arena, train);
  mountCompare(compare, hooks);
  mountArena(arena, hooks);
  // The Train view's code is loaded the first time the view opens (the training package itself
  // only when its Start is pressed), so the page's first load does not carry it.
  let trainMounted = false;
  const mountTrainOnce = () => {
    if (trainMounted) return;
    trainMounted = true;
    import('../train/train').then(
      (m) => m.mountTrain(train, hooks),
      (e: unknown) => train.replaceChildren(h('p', { class: 'message error' }, `The Train view could not be loaded: ${String(e)}`)),
    );
  };

  const links = TABS.map((v) => h('a', { href: `#${v.id}`, id: `tab-${v.id}` }, v.label));
  // The manual (the mdBook of docs/, which the build puts in the site at book/): a link, not a view.
  const book = h(
    'a',
    { href: './book/index.html', id: 'book-link', target: '_blank', title: 'The manual: every view, the engine, the CLI, Python' },
    'Book ↗',
  );
  const nav = h('nav', { class: 'tabs', 'aria-label': 'Views' }, ...links, book);
  header.append(nav);
  // The URL's #hash chooses the view (controller); the tabs show it (view).
  const fromHash = () => {
    const want = location.hash.slice(1) as View;
    hooks.store.update({ view: TABS.some((v) => v.id === want) ? want : 'play' });
  };
  const drawTabs = (view: View) => {
    links.forEach((a, k) => {
      if (TABS[k]!.id === view) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
    // The views' charts and canvases size themselves to their (now visible) hosts.
    window.dispatchEvent(new Event('resize'));
  };
  hooks.store.subscribe((st, prev) => {
    if (st.view !== prev.view) drawTabs(st.view);
    if (st.view === 'train') mountTrainOnce();
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
  // A lesson opens a view as its tab does (through the URL's #hash).
  hooks.lessons.state('view', () => hooks.store.get().view);
  hooks.lessons.intent('view.open', (a) => {
    const want = String(a.view) as View;
    if (location.hash !== `#${want}`) location.hash = `#${want}`;
    else hooks.store.update({ view: want });
  });
  drawTabs(hooks.store.get().view);
  if (hooks.store.get().view === 'train') mountTrainOnce();
  return { trees: analysis.trees, review: review.controller };
}
