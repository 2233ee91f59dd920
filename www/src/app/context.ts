// The game controller's shared machinery: the page store, the element handles, the game's engine
// worker and what it runs, the board's drawing state, and the few helpers every app module uses
// (messages, engine calls that may fail). The app modules (app/*.ts) take this object; main.ts
// creates it once.

import type { BoardEvents, BoardRenderer, BoardState } from '../board';
import { EngineDied, type EngineClient, SearchCancelled, type SearchHandle } from '../engine';
import { abbreviate, MAX_MESSAGE_CHARS } from '../lib/echo';
import { LessonRegistry } from '../lessons/registry';
import { HelperPool } from '../parallel';
import type { PageUi } from '../play/panel';
import type { Player } from '../protocol';
import type { PageState, PageStore } from '../state';

/** The game engine's running search (the store has what it is for: `thinking`). */
export interface RunningSearch {
  handle: SearchHandle;
  purpose: 'move' | 'hint';
  side: Player;
  epoch: number;
}

export class App {
  /** The game's engine worker: started by app/startup.ts, replaced when it dies (app/lifecycle.ts). */
  engine!: EngineClient;
  /** Bumped whenever the game changes, so stale engine answers are ignored. */
  epoch = 0;
  search: RunningSearch | null = null;
  /** The board's drawing state and renderer (app/board.ts), for the game `rendererKey`. */
  board: BoardState | null = null;
  renderer: BoardRenderer | null = null;
  rendererKey = '';
  /** What the board reports (clicks, twists): app/input.ts sets them. */
  boardEvents: BoardEvents = { onCell: () => {}, onTwist: () => {}, onCancelPending: () => {} };
  /** Refused clicks so far (each one flashes its cell anew). */
  refusals = 0;
  /** Until the board first takes a person's move (the page marks that moment for the tests). */
  firstPlayable = true;
  /** Helper workers of root-parallel searches (Workers > 1); the game's engine is worker 0. */
  readonly helperPool = new HelperPool();
  /** What a lesson may wait for, trigger and outline: the app and the features register it (app/lessons.ts). */
  readonly lessons = new LessonRegistry<Element>();
  /** A move on the board while Learn from your mistakes asks for one: taken as a try (true), or
   * not (false: the board plays it as usual). Set by app/learn.ts. */
  learnTry: ((move: string) => boolean) | null = null;
  /** `movesKey` of a line the analysis board is loading as a variation (app/navigate.ts): the tree
   * keeps it a variation; any other new line the game makes is its line's continuation. */
  explicitVariation: string | null = null;

  constructor(
    /** The page's state, shared with the features. */
    readonly store: PageStore,
    /** The page's element handles (play/panel.ts `buildPage`). */
    readonly ui: PageUi,
  ) {}
}

/** The page state now. */
export function st(app: App): Readonly<PageState> {
  return app.store.get();
}

/** The running search, read through a call (TypeScript keeps no stale narrowing of it). */
export function runningSearch(app: App): RunningSearch | null {
  return app.search;
}

export function setSearch(app: App, s: RunningSearch | null): void {
  app.search = s;
  app.store.update({ thinking: s ? { purpose: s.purpose, side: s.side } : null });
}

export function showMessage(app: App, text: string, kind: 'info' | 'error' = 'info'): void {
  // Every message is a sentence or two: whatever it quotes, it never fills the page.
  app.ui.message.textContent = abbreviate(text, MAX_MESSAGE_CHARS);
  app.ui.message.className = `message ${kind}`;
}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Runs an engine call for the game; EngineDied is handled by the death hook (app/lifecycle.ts),
 * a cancelled search is no error, `handled` may take others; the rest are shown. */
export async function guarded<T>(app: App, p: Promise<T>, handled?: (e: unknown) => boolean): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof EngineDied || e instanceof SearchCancelled) return null;
    if (handled?.(e)) return null;
    showMessage(app, errText(e), 'error');
    return null;
  }
}

/** Cancels the game engine's running search (a move or a hint) and clears the hint. */
export function cancelAll(app: App): void {
  if (app.search) {
    app.search.handle.cancel();
    setSearch(app, null);
  }
  app.store.update({ hint: [] });
}
