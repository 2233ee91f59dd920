// Mounts everything of issue 5 on the playground page: the analysis (overlays, tree views,
// policy internals) under the game, and the Compare and Arena views behind tabs in the header
// (`#compare`, `#arena` in the URL; `#play` or nothing for the game).

import { mountAnalysis, type PlaygroundHooks } from './analysis';
import { mountCompare } from '../compare/compare';
import { mountArena } from '../arena/arena';
import { mountStep } from '../step/step';

type View = 'play' | 'compare' | 'arena';
const VIEWS: { id: View; label: string }[] = [
  { id: 'play', label: 'Play & analyse' },
  { id: 'compare', label: 'Compare' },
  { id: 'arena', label: 'Arena' },
];

export function mountVisualisation(hooks: PlaygroundHooks): void {
  mountAnalysis(hooks);
  mountStep(hooks); // ---- step-through (issue 5) ----
  const app = document.getElementById('app')!;
  const compare = document.createElement('section');
  compare.id = 'compare';
  compare.className = 'view';
  const arena = document.createElement('section');
  arena.id = 'arena';
  arena.className = 'view';
  app.append(compare, arena);
  mountCompare(compare, hooks);
  mountArena(arena, hooks);

  const nav = document.createElement('nav');
  nav.className = 'tabs';
  nav.setAttribute('aria-label', 'Views');
  const links = VIEWS.map((v) => {
    const a = document.createElement('a');
    a.href = `#${v.id}`;
    a.id = `tab-${v.id}`;
    a.textContent = v.label;
    nav.append(a);
    return a;
  });
  document.querySelector('header')?.append(nav);
  const show = () => {
    const want = location.hash.slice(1) as View;
    const view: View = VIEWS.some((v) => v.id === want) ? want : 'play';
    document.body.dataset.view = view;
    links.forEach((a, k) => {
      if (VIEWS[k]!.id === view) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
    window.dispatchEvent(new Event('resize'));
  };
  window.addEventListener('hashchange', show);
  show();
}
