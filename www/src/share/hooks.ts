// Teaching on the playground page: the URL holds the state (and Back undoes a move), a "Copy link"
// button, game records (import/export), image and tree exports, embed mode with its postMessage
// channel to the host page (embed/host.ts), and guided lessons. The app (main.ts, app/) calls `teach.bind(...)` with a few hooks and calls
// `onShow`, `onSearchFinished`, `engineParams` and `afterStart`; everything else lives here.

import type { CompareSettings, View } from '../state';
import type { PageHooks } from '../types';
import type { EngineParams, Player, SearchReportJson, SearchResult, Snapshot } from '../protocol';
import {
  VIEWS,
  formatCompare,
  parseCompare,
  formatMoves,
  formatOverlays,
  formatParam,
  formatReviewLink,
  formatSearches,
  formatSides,
  parseOverlays,
  parseReviewLink,
  parseSearches,
  parseSides,
  queryString,
  splitMoves,
} from './url';
import { applyLessonDefaults, mountLessonCard } from '../lessons/lessons';
import { URL_PARAMS } from '../lib/params';
import { findGame } from '../games';
import { parseTeachLevel, TEACH_LEVELS } from '../review/judge';
import { mountRecords, restoreSearches } from './records';
import { summariesOf } from '../play/searches';
import { HostChannel, EMBED_SHOW, announceLoading, applyEmbedChrome } from '../embed/host';
import { searchFinishedFields } from '../embed/events';
import { reviews } from '../review/marks';

// Runs at import, before the app's start() (app/startup.ts): a lesson's parameters become URL defaults (explicit
// parameters win), and embed mode takes its chrome off before anything is drawn.
const lessonError = applyLessonDefaults();
const initialQuery = new URLSearchParams(location.search);
export const EMBED = initialQuery.get('embed') === '1' || initialQuery.get('embed') === 'true';
if (EMBED) {
  announceLoading(initialQuery);
  applyEmbedChrome(initialQuery.get('show'));
}

class Teach {
  private hooks: PageHooks | null = null;
  /** The URL's `seed=` (0..10^15), the seed of both sides' searches; null: the engine's. */
  private seed: number | null = null;
  private started = false;
  /** Moves of the position the URL shows (to tell a new move from an undo). */
  private urlMoves: string[] = [];
  private urlSpec = '';
  /** Set while restoring from popstate: the URL already says where we are. */
  private restoringHistory = false;
  private lastOutcomeKey = '';
  lastSlot = 'p1';
  host: HostChannel | null = null;

  bind(h: Omit<PageHooks, 'engineParams'>): void {
    this.hooks = { ...h, engineParams: (side: Player) => this.engineParams(side) };
    // The URL and the embed's events follow every new snapshot.
    h.store.subscribe((st, prev) => {
      if (st.snapshot && st.snapshot !== prev.snapshot) this.onShow(st.snapshot);
      // The ply looked at is in the URL (replaced: stepping through a game adds no history).
      else if (this.started && st.snapshot && st.review !== prev.review && !this.restoringHistory)
        history.replaceState({ mcts: true }, '', this.buildUrl(st.snapshot));
    });
  }

  /** Engine parameter overrides for a side's searches (the URL's seed). */
  engineParams(_side: Player): EngineParams {
    return this.seed !== null ? { seed: this.seed } : {};
  }

  onSearchFinished(r: SearchResult, side: Player, report?: SearchReportJson): void {
    this.lastSlot = `p${side}`;
    this.host?.post('searchFinished', searchFinishedFields(side, r, report));
  }

  onShow(s: Snapshot): void {
    if (!this.started || !this.hooks) return;
    const moves = s.moves;
    const sameGame = s.view.spec === this.urlSpec;
    const grew = sameGame && moves.length === this.urlMoves.length + 1 && this.urlMoves.every((m, i) => m === moves[i]);
    const changed = !sameGame || moves.length !== this.urlMoves.length || moves.some((m, i) => m !== this.urlMoves[i]);
    if (changed && !this.restoringHistory) {
      // Every move (a person's, an engine's) is a history entry of its own, so one Back undoes
      // one move (onPopState holds the engines there).
      const url = this.buildUrl(s);
      // In an embed, history entries would join the host page's history (an iframe shares the
      // joint session history), so its Back button would undo moves: embeds only replace.
      if (grew && !EMBED) history.pushState({ mcts: true }, '', url);
      else history.replaceState({ mcts: true }, '', url);
    }
    this.urlMoves = [...moves];
    this.urlSpec = s.view.spec;
    if (grew) this.host?.post('move', { move: moves[moves.length - 1], ply: moves.length });
    const key = s.outcome ? `${s.view.spec} ${moves.join(' ')}` : '';
    if (s.outcome && key !== this.lastOutcomeKey) this.host?.post('gameOver', { winner: s.outcome.winner });
    this.lastOutcomeKey = key;
  }

  /** The URL that reproduces what the page shows now. */
  buildUrl(s: Snapshot | null = this.hooks?.snapshot() ?? null): string {
    const h = this.hooks!;
    const q = new URLSearchParams();
    const cur = new URLSearchParams(location.search);
    if (s) {
      q.set('game', s.view.spec);
      if (s.moves.length) q.set('moves', formatMoves(s.moves));
      // The root statistics of the searches behind the moves: a reload and the link keep what
      // the move list can review.
      const kept = formatSearches(summariesOf(h.store.get().searches, s.view.spec, s.moves));
      if (kept) q.set('searches', kept);
      // The position looked at on the analysis board: after `ply` moves (absent: the live one).
      const review = h.store.get().review;
      if (review !== null && review <= s.moves.length) q.set('ply', String(review - 1));
    }
    // A finished review of this main line: the link reviews the game again with its settings.
    const review = h.store.get().gameReview;
    if (s && review?.status === 'finished' && review.report?.game === s.view.spec && reviews(review.report, s.moves))
      formatReviewLink(q, review.report.settings, this.seed);
    formatSides(q, h.sides());
    if (this.seed !== null) q.set('seed', formatParam(this.seed));
    const view = h.store.get().view;
    if (view !== 'play') q.set('view', view);
    const compare = h.store.get().compare;
    if (view === 'compare' && compare) formatCompare(q, compare);
    q.set('overlays', formatOverlays(h.store.get().overlays));
    const teachLevel = h.store.get().teach;
    if (teachLevel !== 'off') q.set('teach', teachLevel);
    for (const k of ['lesson', 'embed', 'show', 'id', 'origin', 'allowed-origins']) {
      const v = cur.get(k);
      if (v !== null) q.set(k, v);
    }
    const hash = view === 'play' ? '' : `#${view}`;
    return `${location.pathname}?${queryString(q)}${hash}`;
  }

  /** Applies the parameters app/startup.ts's applyUrl does not read, loads `moves`, mounts the UI. */
  async afterStart(): Promise<void> {
    const h = this.hooks!;
    const q = new URLSearchParams(location.search);
    const errors: string[] = [];
    if (lessonError) errors.push(lessonError);
    const presets = h.presets();
    // The contract parameters applyUrl reads silently: say when one was not understood.
    const g = q.get('game');
    const p = (k: string) => q.get(k);
    const parsed = parseSides(q, presets, h.sides());
    errors.push(...parsed.errors);
    h.store.update({ sides: parsed.sides });
    const seed = p('seed');
    if (seed !== null) {
      if (/^\d{1,15}$/.test(seed)) this.seed = Number(seed);
      else errors.push(`seed=${seed}: expected a whole number 0..10^15`);
    }
    // The game and moves: the engine checks them; a bad move leaves the game at its start.
    const snap = h.snapshot();
    const moves = splitMoves(p('moves'));
    const wanted = g ?? snap?.view.spec ?? 'hex:7';
    if (g !== null && snap && !sameSpec(g, snap.view.spec)) {
      // applyUrl could not select it (unknown game, size off the list): try it as given.
      const r = await h.loadGame(g, moves);
      if (!r.ok) {
        const bad = badMove(r.reason, moves);
        if (bad) errors.push(await this.loadPrefix(g, moves, bad));
        else errors.push(`game=${g}: ${r.reason}`);
      }
    } else if (moves.length) {
      const r = await h.loadGame(wanted, moves);
      if (!r.ok) {
        const bad = badMove(r.reason, moves);
        if (bad) errors.push(await this.loadPrefix(wanted, moves, bad));
        else {
          errors.push(`moves=${moves.join(' ')}: ${r.reason}`);
          await h.loadGame(wanted, []);
        }
      }
    }
    // The searches behind the moves the link keeps (root statistics: the move list reviews them).
    const kept = p('searches');
    const loadedNow = h.snapshot();
    if (kept !== null && loadedNow) {
      const r = parseSearches(kept, loadedNow.moves);
      errors.push(...r.errors);
      await restoreSearches(h, loadedNow, r.summaries, 'link');
    }
    // The position looked at: `ply=K`, after K moves of the game (K < its moves: an earlier one).
    const ply = p('ply');
    const shownNow = h.snapshot();
    if (ply !== null && shownNow) {
      const k = /^\d{1,6}$/.test(ply) ? Number(ply) : -1;
      if (k < 0 || k > shownNow.moves.length)
        errors.push(`ply=${ply}: expected a whole number 0..${shownNow.moves.length} (the game's moves)`);
      else if (k < shownNow.moves.length) h.lookAt(k + 1);
    }
    // The open view and the compare panes.
    const view = p('view');
    if (view !== null) {
      // The store's view, set at once: the URL written below carries it as its #hash (setting
      // location.hash here would be undone by that replaceState before its hashchange fired).
      if ((VIEWS as readonly string[]).includes(view)) h.store.update({ view: view as View });
      else errors.push(`view=${view}: expected ${VIEWS.join(', ')}`);
    }
    // An embed (`<mcts-playground view=compare>`, the notebook widget) compares its own position:
    // the Compare form follows the game (`game=`, `moves=`, then each `setPosition` from the host
    // or move made) unless `cmpgame=`/`cmpmoves=` name another.
    const followGame = EMBED && q.get('cmpgame') === null && q.get('cmpmoves') === null;
    const atGame = (c: CompareSettings, s: Snapshot | null): CompareSettings =>
      s ? { ...c, game: s.view.spec, moves: s.moves.join(' ') } : c;
    const compare = h.store.get().compare;
    if (compare) {
      const r = parseCompare(q, presets, followGame ? atGame(compare, h.snapshot()) : compare);
      errors.push(...r.errors);
      h.store.update({ compare: r.compare });
    }
    if (followGame) {
      h.store.subscribe((st, prev) => {
        const c = h.store.get().compare;
        if (st.snapshot === prev.snapshot || !st.snapshot || !c) return;
        const next = atGame(c, st.snapshot);
        if (next.game !== c.game || next.moves !== c.moves) h.store.update({ compare: next });
      });
    }
    const reviewLink = parseReviewLink(q);
    errors.push(...reviewLink.errors);
    const ov = q.get('overlays');
    if (ov !== null) {
      const r = parseOverlays(ov);
      errors.push(...r.errors);
      h.store.update({ overlays: r.overlays });
    }
    const teachLevel = q.get('teach');
    if (teachLevel !== null) {
      const level = parseTeachLevel(teachLevel);
      if (level) h.store.update({ teach: level });
      else errors.push(`teach=${teachLevel}: expected ${TEACH_LEVELS.join(', ')}`);
    }
    h.store.subscribe((st, prev) => {
      // The overlays, the searches behind the moves, the teaching level, and the compare form
      // while it is open, are in the URL: keep it in step; a review's end (or its clearing)
      // changes the URL's `review=`.
      const compareChanged = st.view === 'compare' && (st.compare !== prev.compare || st.view !== prev.view);
      const reviewChanged = st.gameReview?.status !== prev.gameReview?.status;
      const inUrl = st.overlays !== prev.overlays || st.searches !== prev.searches || st.teach !== prev.teach;
      if (this.started && st.snapshot && (inUrl || compareChanged || reviewChanged))
        history.replaceState({ mcts: true }, '', this.buildUrl(st.snapshot));
    });
    for (const k of q.keys()) {
      if (!KNOWN.has(k)) errors.push(`unknown parameter '${k}' (ignored)`);
    }
    this.started = true;
    const s = h.snapshot();
    this.urlMoves = [];
    this.urlSpec = '';
    if (s) {
      this.urlMoves = [...s.moves];
      this.urlSpec = s.view.spec;
      history.replaceState({ mcts: true }, '', this.buildUrl(s));
    }
    window.addEventListener('popstate', () => void this.onPopState());
    window.addEventListener('hashchange', () => {
      const cur = h.snapshot();
      if (cur) history.replaceState({ mcts: true }, '', this.buildUrl(cur));
    });
    mountRecords(h, this);
    mountLessonCard(h.elements.header, h.lessons);
    if (EMBED) {
      this.host = new HostChannel(h, q.get('id'), q.get('origin'), q.get('allowed-origins'));
      this.host.post('ready', {});
    }
    if (errors.length) h.showMessage(`Some URL parameters were not used: ${errors.join('; ')}.`, 'error');
    document.body.dataset.urlErrors = String(errors.length);
    // `review=1`: Review game on the game loaded, with the link's budget and seed (the link's
    // `seed=` when it names no `reviewseed=`).
    if (reviewLink.review && h.snapshot()) {
      const { budget, seed } = reviewLink.review;
      h.review.start(budget ?? undefined, seed ?? this.seed ?? undefined);
    }
    document.body.dataset.teachReady = 'true';
  }

  /** Loads the legal prefix of `moves` (the moves before the bad one) and returns the sentence
   * naming the bad move, its position and what was kept. */
  private async loadPrefix(spec: string, moves: string[], bad: { index: number; why: string }): Promise<string> {
    const kept = moves.slice(0, bad.index);
    const r = await this.hooks!.loadGame(spec, kept);
    const after = moves.length - bad.index - 1;
    const head = `moves: move ${bad.index + 1} of ${moves.length}, '${moves[bad.index]}', cannot be played (${bad.why})`;
    if (!r.ok) return `${head}; the game could not be loaded either: ${r.reason}`;
    return `${head}; the ${kept.length} move${kept.length === 1 ? '' : 's'} before it ${kept.length === 1 ? 'is' : 'are'} on the board${after ? `, the ${after} after it left out` : ''}`;
  }

  private async onPopState(): Promise<void> {
    const h = this.hooks!;
    const q = new URLSearchParams(location.search);
    const spec = q.get('game') ?? h.snapshot()?.view.spec ?? 'hex:7';
    const moves = splitMoves(q.get('moves'));
    const cur = h.snapshot();
    if (cur && cur.view.spec === spec && cur.moves.join(' ') === moves.join(' ')) return;
    // Back and Forward step through the game one move at a time: an engine does not answer a
    // position reached so (it would play the move Back took back); Resume, or the person's next
    // move, lets it play again.
    const [a, b] = h.sides();
    if (a.who === 'engine' || b.who === 'engine') h.setPaused(true);
    this.restoringHistory = true;
    try {
      // The game's tree of variations stays: Back and Forward walk its lines.
      await h.loadGame(spec, moves, { keepTree: true });
    } finally {
      this.restoringHistory = false;
    }
  }
}

const KNOWN: ReadonlySet<string> = new Set(URL_PARAMS);

/** The bad move of a failed load, from the worker's `move N (text): why` (worker/game.ts `replayed`). */
export function badMove(reason: string, moves: readonly string[]): { index: number; why: string } | null {
  const m = /move (\d+) \((.*?)\): (.*)$/s.exec(reason);
  if (!m) return null;
  const index = Number(m[1]) - 1;
  if (!Number.isInteger(index) || index < 0 || index >= moves.length || moves[index] !== m[2]) return null;
  return { index, why: m[3]!.trim() };
}

/** Whether a URL's game names the spec the engine normalised (case; a game's plain name is its
 * `default_spec`: `hex` = `hex:11`, `pentago` = `pentago:official`). */
function sameSpec(asked: string, got: string): boolean {
  const a = asked.trim().toLowerCase();
  if (a === got) return true;
  const game = findGame(a);
  return !!game && (a === game.name || game.facts.aliases.includes(a)) && got === game.facts.default_spec;
}

export const teach = new Teach();
export { EMBED_SHOW };
