// Guided lessons: each a position and configuration (URL parameters), a paper, and numbered steps
// — what to do (a button that does it), what to look at (highlighted on the page), one question
// with its answer folded away. `?lesson=ID` opens one; the lesson's parameters are defaults that
// explicit URL parameters override. The card sits above the views, so it stays visible in the
// compare view.
//
// Lessons are data: one JSON file each in ./data/ (format.ts, version 2; documented in docs.html,
// "Writing a lesson"), read at build time, so a teacher adds a lesson by adding a file. A step's
// button runs its actions through the page's lesson registry (registry.ts, runner.ts: the features'
// named states, intents and element handles), never through the page's markup. `start` is
// "Start here": MCTS in five steps on the step-through.

import { h } from '../lib/dom';
import { safeHref } from '../lib/safe-url';
import type { LessonRegistry } from './registry';
import { loadLessons, type Lesson, type LessonStep, revealsVerdict } from './format';
import { runActions } from './runner';
import './lessons.css';

export type { Lesson } from './format';

const loaded = loadLessons(import.meta.glob('./data/*.json', { eager: true, import: 'default' }));

/** Every lesson, in menu order. */
export const LESSONS: Lesson[] = loaded.lessons;
/** Lesson files that could not be read (named on the page when a lesson is opened). */
export const LESSON_ERRORS: string[] = loaded.errors;

/** Called at import: merges the lesson's parameters into the URL as defaults. Returns an error
 * sentence for an unknown lesson. */
export function applyLessonDefaults(): string | null {
  const q = new URLSearchParams(location.search);
  const id = q.get('lesson');
  if (id === null) return null;
  const lesson = LESSONS.find((l) => l.id === id);
  if (!lesson) return `lesson=${id}: no such lesson (there are ${LESSONS.map((l) => l.id).join(', ')})`;
  let changed = false;
  for (const [k, v] of Object.entries(lesson.params)) {
    if (!q.has(k)) {
      q.set(k, v);
      changed = true;
    }
  }
  const view = q.get('view');
  const hash = view && view !== 'play' ? `#${view}` : location.hash;
  if (changed) history.replaceState(null, '', `${location.pathname}?${q.toString()}${hash}`);
  else if (hash !== location.hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  return null;
}

const LOOK = 'lesson-look';

/** Outlines what the current step points at: its target's elements, found through the lesson
 * registry (the features' element handles), again whenever a view redraws them. */
class Outline {
  private target: LessonStep['target'] = null;
  private frame = 0;
  private readonly marked = new Set<Element>();

  constructor(private readonly registry: LessonRegistry<Element>) {
    new MutationObserver(() => {
      if (!this.target || this.frame) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.mark();
      });
    }).observe(document.documentElement, { subtree: true, childList: true });
  }

  private mark(): Element[] {
    const els = this.target ? this.registry.find(this.target) : [];
    for (const el of els) {
      if (!el.classList.contains(LOOK)) el.classList.add(LOOK);
      this.marked.add(el);
    }
    return els;
  }

  /** Outlines step `s`'s target (and nothing else); returns its first element. */
  show(s: LessonStep | null): Element | null {
    for (const el of this.marked) el.classList.remove(LOOK);
    this.marked.clear();
    this.target = s?.target ?? null;
    return this.mark()[0] ?? null;
  }
}

/** The part of the viewport the lesson dock leaves free at the top (the dock sits at the bottom
 * on a narrow screen; beside the page on a wide one, where it covers nothing the step points at). */
function freeHeight(dock: HTMLElement): number {
  if (dock.hidden) return window.innerHeight;
  const r = dock.getBoundingClientRect();
  // Docked beside the content (a wide screen): the whole height is free.
  return r.left > window.innerWidth / 2 ? window.innerHeight : Math.max(120, r.top);
}

/** Scrolls the page (vertically only: a wide table must not scroll it sideways) so that `el` is on
 * screen above the lesson dock, and keeps it there for a few frames while the views finish drawing
 * what the step changed (their layout can still move it). */
function bringIntoView(el: Element, dock: HTMLElement): void {
  let frames = 0;
  let still = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  // The reader takes over as soon as they scroll or type.
  for (const t of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
    window.addEventListener(t, stop, { once: true, passive: true });
  const tick = () => {
    if (stopped || !el.isConnected) return;
    const r = el.getBoundingClientRect();
    const free = freeHeight(dock);
    const inView = r.top >= 0 && r.top < free - Math.min(r.height, free / 3);
    if (inView) still++;
    else {
      still = 0;
      window.scrollTo({ top: window.scrollY + r.top - Math.max(8, (free - r.height) / 3), behavior: 'auto' });
    }
    if (still < 15 && ++frames < 600) requestAnimationFrame(tick);
  };
  tick();
}

/** A step's question, and its answer behind "Show answer" (`id`: the block's id). */
function questionOf(step: LessonStep, id?: string): HTMLElement {
  return h(
    'div',
    { class: 'lesson-q-block', ...(id ? { id } : {}) },
    h('p', { class: 'lesson-question' }, h('strong', {}, 'Question: '), step.question),
    h(
      'details',
      { class: 'lesson-q' },
      h('summary', {}, 'Show answer'),
      h('p', { class: 'lesson-answer' }, h('strong', {}, 'Answer: '), step.answer),
    ),
  );
}

/** The paper: a link when its URL is http(s) or relative (`lib/safe-url.ts`), else its
 * citation as text (the card names the refused URL). */
function paperLink(lesson: Lesson): HTMLElement {
  const href = safeHref(lesson.paper.url, location.href);
  const text = `Paper: ${lesson.paper.cite}`;
  if (href === null) return h('span', { class: 'lesson-paper', id: 'lesson-paper' }, text);
  return h('a', { href, class: 'lesson-paper', id: 'lesson-paper', target: '_blank', rel: 'noopener' }, text);
}

/** The card of a lesson that could not be opened: what was asked, and why (the files that did not
 * read, by name and sentence), never a blank card. */
function errorCard(id: string): HTMLElement {
  const why = LESSON_ERRORS.length
    ? `Lesson files not read: ${LESSON_ERRORS.join('; ')}`
    : `There is no lesson "${id}" (there are ${LESSONS.map((l) => l.id).join(', ')}).`;
  return h(
    'section',
    { id: 'lesson', class: 'lesson-card', 'aria-label': 'Lesson not opened', 'data-lesson': id, 'data-error': 'true' },
    h('div', { class: 'lesson-head' }, h('h2', {}, `The lesson “${id}” could not be opened`)),
    h('p', { class: 'lesson-errors', id: 'lesson-problems' }, why),
    h('p', { class: 'lesson-intro' }, 'The Lessons menu at the top lists the lessons that can be opened.'),
  );
}

/** Mounts the lesson menu in `header`, and the card of the lesson the URL asks for under it; the
 * lesson's steps act on the page through `registry`. */
export function mountLessonCard(header: HTMLElement, registry: LessonRegistry<Element>): void {
  const id = new URLSearchParams(location.search).get('lesson');
  const lesson = LESSONS.find((l) => l.id === id);
  const outline = new Outline(registry);
  // "Start here" and a lesson menu in the header, and the lesson card under it.
  const start = LESSONS.find((l) => l.id === 'start');
  if (start) header.append(h('a', { id: 'start-here', class: 'start-here', href: '?lesson=start' }, 'Start here'));
  const menu = h('select', { id: 'lesson-menu', 'aria-label': 'Guided lessons' });
  menu.append(new Option('Lessons…', ''), ...LESSONS.map((l) => new Option(l.title, l.id)));
  menu.value = lesson?.id ?? '';
  menu.addEventListener('change', () => {
    // Resolved against the page's address (`location.pathname` could start with `//`, which a
    // link would read as another host).
    const to = menu.value ? safeHref(`?lesson=${encodeURIComponent(menu.value)}`, location.href) : null;
    if (to) location.href = to;
  });
  header.append(menu);
  if (id !== null && !lesson) header.after(errorCard(id));
  if (!lesson) return;
  const card = h(
    'section',
    { id: 'lesson', class: 'lesson-card', 'aria-label': `Lesson: ${lesson.title}`, 'data-lesson': lesson.id },
    h('div', { class: 'lesson-head' }, h('h2', {}, lesson.id === 'start' ? lesson.title : `Lesson: ${lesson.title}`), paperLink(lesson)),
    ...lesson.intro.map((t) => h('p', { class: 'lesson-intro' }, t)),
  );
  if (lesson.migratedFrom === 1)
    card.append(
      h(
        'p',
        { class: 'lesson-intro muted', id: 'lesson-migrated' },
        `This lesson file is format version 1 (CSS selectors), converted when the page loaded it; “npm run migrate-lessons” converts the file for good (docs: Writing a lesson).`,
      ),
    );
  if (lesson.problems.length)
    card.append(h('p', { class: 'lesson-errors', id: 'lesson-problems' }, `This lesson has problems: ${lesson.problems.join('; ')}`));
  if (LESSON_ERRORS.length) card.append(h('p', { class: 'lesson-errors' }, `Lesson files not read: ${LESSON_ERRORS.join('; ')}`));
  const list = h('ol', { class: 'lesson-steps', id: 'lesson-steps' });
  const status = h('p', { class: 'lesson-status', id: 'lesson-status', 'aria-live': 'polite' });
  const buttons: HTMLButtonElement[] = [];
  /** Each step's text under its title, and its "Look at" (shown once the step has run). */
  const bodies: HTMLElement[] = [];
  const wheres: HTMLElement[] = [];
  // Steps open one at a time: a step's text shows once the step before it has run (its title
  // before, so the way ahead is known); what to look at once the step itself has run; an answer
  // when its "Show answer" is pressed. "Show all steps" opens every step (a teacher preparing).
  const items = lesson.steps.map((step, k) => {
    const n = k + 1;
    const btn = step.actions.length
      ? h('button', { type: 'button', class: 'primary lesson-do', id: `lesson-do-${n}` }, step.button ?? 'Do it')
      : h('button', { type: 'button', class: 'lesson-do', id: `lesson-do-${n}` }, step.button ?? 'Show me');
    // A step that names what the page does not have says so; its button stays off when an action
    // could only fail.
    if (!step.runnable) {
      btn.disabled = true;
      btn.dataset.broken = 'true';
    }
    buttons.push(btn);
    const where = h('p', { class: 'lesson-where', hidden: '' }, h('strong', {}, 'Look at: '), step.lookText);
    wheres.push(where);
    const body = h(
      'div',
      { class: 'lesson-step-body' },
      h('p', { class: 'lesson-what' }, h('strong', {}, 'Do: '), step.do, ' ', btn),
      ...step.problems.map((p) => h('p', { class: 'lesson-errors lesson-step-error' }, p)),
      where,
      questionOf(step),
    );
    bodies.push(body);
    const li = h(
      'li',
      { class: k > 0 ? 'lesson-step locked' : 'lesson-step', 'data-step': String(n), id: `lesson-step-${n}` },
      h('h3', {}, `Step ${n}: ${step.title}`),
      body,
    );
    btn.addEventListener('click', () => void run(n, step, btn));
    return li;
  });
  list.append(...items);
  /** Opens step `n`'s text (and every step before it). */
  const open = (n: number) => {
    for (const li of items.slice(0, n)) li.classList.remove('locked');
  };
  const showAll = h('button', { type: 'button', class: 'lesson-show-all', id: 'lesson-show-all' }, 'Show all steps');
  showAll.addEventListener('click', () => {
    open(items.length);
    for (const w of wheres) w.hidden = false;
    showAll.hidden = true;
  });
  if (items.length < 2) showAll.hidden = true;
  // The exact solver's verdict in Compare (its line, the panes' ✓/✗): hidden while the lesson
  // has a step still to ask for it (lessons/format.ts `revealsVerdict`), or until "Reveal".
  const asks = lesson.steps.some(revealsVerdict);
  const reveal = h(
    'button',
    { type: 'button', class: 'lesson-reveal', id: 'lesson-reveal', hidden: '' },
    'Reveal the exact solver’s verdict',
  );
  let verdictShown = !asks;
  const drawVerdict = () => {
    for (const el of registry.find('compare.view')) el.classList.toggle('lesson-verdict-hidden', !verdictShown);
    reveal.hidden = verdictShown;
  };
  const showVerdict = () => {
    verdictShown = true;
    drawVerdict();
  };
  reveal.addEventListener('click', showVerdict);
  // The Compare view registers its target when it mounts: drawn again on any change until then.
  if (asks) {
    const stop = registry.subscribe(() => {
      if (registry.find('compare.view').length) {
        stop();
        drawVerdict();
      }
    });
    drawVerdict();
  }
  card.append(h('div', { class: 'lesson-tools' }, showAll, reveal));
  // The next lesson in the menu's order, offered at the last step.
  const next = LESSONS[LESSONS.indexOf(lesson) + 1] ?? null;
  const nextLink = (id: string): HTMLElement | null => {
    const href = next ? safeHref(`?lesson=${encodeURIComponent(next.id)}`, location.href) : null;
    return next && href
      ? h('a', { id, class: 'lesson-next', href, 'data-lesson': next.id }, `Next lesson: ${next.title} ▸`)
      : h('span', { id, class: 'lesson-next muted' }, 'This is the last lesson; the Lessons menu at the top lists them all.');
  };
  bodies[bodies.length - 1]?.append(h('p', {}, nextLink('lesson-next')!));
  card.append(list, status);

  // The dock: once a step has run, its "look at", its question and the way on stay on screen
  // beside what the step outlined (at the bottom of a narrow screen, at the right of a wide one),
  // so the card need not be scrolled back to, thousands of pixels above on a phone.
  const dock = h('aside', { id: 'lesson-dock', class: 'lesson-dock', 'aria-label': `Lesson step: ${lesson.title}`, hidden: '' });
  document.body.append(dock);
  function showDock(n: number, step: LessonStep): void {
    const last = n === lesson!.steps.length;
    const toCard = h('button', { type: 'button', class: 'lesson-dock-card', id: 'lesson-dock-card' }, '▴ All steps');
    toCard.addEventListener('click', () => card.scrollIntoView({ block: 'start' }));
    const close = h(
      'button',
      { type: 'button', class: 'lesson-dock-close', id: 'lesson-dock-close', 'aria-label': 'Close the step box' },
      '×',
    );
    close.addEventListener('click', () => hideDock());
    let onward: HTMLElement;
    if (last) onward = nextLink('lesson-dock-next')!;
    else {
      const b = h('button', { type: 'button', class: 'primary', id: 'lesson-dock-next' }, `Step ${n + 1}: ${lesson!.steps[n]!.title} ▸`);
      b.addEventListener('click', () => buttons[n]?.click());
      onward = b;
    }
    // On a phone the dock is kept low (its texts cut at three lines, whole on a tap), so that it
    // leaves the board and what the step outlined on screen above it.
    const where = h('p', { class: 'lesson-where', title: step.lookText }, h('strong', {}, 'Look at: '), step.lookText, ' (outlined)');
    where.addEventListener('click', () => where.classList.toggle('whole'));
    dock.replaceChildren(
      h('div', { class: 'lesson-dock-head' }, h('strong', {}, `Step ${n} of ${lesson!.steps.length}: ${step.title}`), toCard, close),
      where,
      questionOf(step, 'lesson-dock-q'),
      h('div', { class: 'lesson-dock-row' }, onward),
    );
    dock.dataset.step = String(n);
    dock.hidden = false;
    document.body.classList.add('lesson-docked');
    // At the bottom of a narrow screen: room under the page so that its end can scroll above it.
    const beside = window.matchMedia('(min-width: 1100px)').matches;
    document.body.style.paddingBottom = beside ? '' : `${dock.getBoundingClientRect().height + 8}px`;
  }
  function hideDock(): void {
    dock.hidden = true;
    document.body.classList.remove('lesson-docked');
    document.body.style.paddingBottom = '';
  }
  let running = false;
  async function run(n: number, step: LessonStep, btn: HTMLButtonElement): Promise<void> {
    if (running) return;
    running = true;
    card.dataset.step = String(n);
    card.dataset.stepState = 'running';
    items.forEach((li, k) => {
      li.classList.toggle('now', k === n - 1);
    });
    for (const b of buttons) b.disabled = true;
    status.textContent = `Step ${n}: ${step.do}`;
    open(n);
    // The step asks for the solver's verdict: shown from now on.
    if (revealsVerdict(step)) showVerdict();
    try {
      await runActions(step.actions, registry);
      items[n - 1]!.classList.add('done');
      wheres[n - 1]!.hidden = false;
      open(n + 1);
      status.textContent = `Step ${n} done. Look at ${step.lookText} (outlined on the page).`;
      showDock(n, step);
      // Outline (and scroll to) once the page has laid out what the step changed.
      await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      const el = outline.show(step);
      if (el) bringIntoView(el, dock);
      card.dataset.stepState = el ? 'done' : 'missing';
      if (!el) status.textContent = `Step ${n} done, but what it points at (${step.look}) is not on the page.`;
    } catch (e) {
      card.dataset.stepState = 'failed';
      status.textContent = `Step ${n} could not finish: ${e instanceof Error ? e.message : String(e)}.`;
    } finally {
      running = false;
      for (const b of buttons) b.disabled = b.dataset.broken === 'true';
      // Keyboard users go on from the button, unless the step moved the focus on purpose.
      if (document.activeElement === document.body || document.activeElement === btn) btn.focus({ preventScroll: true });
    }
  }
  header.after(card);
  openAtCard(card);
}

/** A lesson opens at its card: the view it opens is named in the URL's #hash (`#compare`), which
 * the browser follows by scrolling to that view's section, thousands of pixels below the card on
 * a phone. Once the page has loaded (the browser's own scroll to the #hash done), the card is
 * brought back to the top of the screen, unless the reader has scrolled or typed already. */
function openAtCard(card: HTMLElement): void {
  let touched = false;
  const mine = () => {
    touched = true;
  };
  for (const t of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
    window.addEventListener(t, mine, { once: true, passive: true });
  const go = () =>
    requestAnimationFrame(() => {
      if (touched || !card.isConnected) return;
      const top = card.getBoundingClientRect().top;
      if (top >= 0 && top <= window.innerHeight / 4) return;
      // The page's head too when it is short (the tabs, the lesson menu), else the card at the top.
      const at = window.scrollY + top;
      window.scrollTo({ top: at <= window.innerHeight / 4 ? 0 : at - 8, behavior: 'auto' });
    });
  if (document.readyState === 'complete') go();
  else window.addEventListener('load', go, { once: true });
}
