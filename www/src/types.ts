// The page's own vocabulary, shared by the app and the features (no DOM, no imports of features):
// the players' settings and what the page offers a feature (`PageHooks`). Keeping these here, not
// in the modules that use them, is what keeps the import graph free of cycles.

import type { BoardSurface } from './lib/board-surface';
import type { EngineClient } from './engine';
import type { LessonRegistry } from './lessons/registry';
import type { EngineParams, Player, Snapshot } from './protocol';
import type { PageStore, SideSettings } from './state';
import type { ReviewBudget, ReviewReport } from './review/report';

export type { SideSettings, Who } from './state';

/** The page's element handles the features use (play/panel.ts `buildPage` makes them; the app
 * passes them): features reach the page's chrome through these, never by selector. */
export interface PageElements {
  /** The page's root (`#app`): the views are appended to it. */
  app: HTMLElement;
  header: HTMLElement;
  /** The play view's layout (the board section and the side panel). */
  layout: HTMLElement;
  /** The side panel. */
  panel: HTMLElement;
  /** The heading over the move list in the side panel. */
  movesHeading: HTMLElement;
  /** The game's board. */
  boardHost: HTMLElement;
  /** The status line over the board. */
  status: HTMLElement;
}

/** The analysis's tree views, for the image exports (share/records.ts). */
export interface TreeViews {
  /** The node-link view ("Top of the tree") and the nodes it draws now. */
  nodeLink(): { svg: SVGSVGElement; nodes: number };
  /** The tree overview (icicle) and the nodes it draws now. */
  icicle(): { canvas: HTMLCanvasElement; nodes: number };
}

/** The game review's controller as the share and embed features reach it (app/game-review.ts
 * `ReviewController`). */
export interface GameReviewControl {
  /** Reviews the game on the board with a budget per position (default: the page's, 10,000
   * playouts) and a seed (default 0) (a link's `review=1`, the embed's `review` command);
   * continues a stopped review of the same settings. */
  start(budget?: ReviewBudget, seed?: number): void;
  /** Shows a finished review's report for the game on the board (a game record's `review`). */
  restore(report: ReviewReport): void;
}

/** What loading a game gave: `ok`, or the sentence the page shows and the engine's reason alone. */
export type LoadResult = { ok: true } | { ok: false; message: string; reason: string };

/** What the app offers the analysis, step-through, compare and arena features. */
export interface PlaygroundHooks {
  /** The page's state (the position, presets, what the game's engine does, the open view). */
  store: PageStore;
  /** The page's element handles. */
  elements: PageElements;
  /** The game as the page shows it (null before the first answer). */
  snapshot(): Snapshot | null;
  /** The engine's preset names. */
  presets(): string[];
  /** The playground's engine (to watch its searches). */
  engine(): EngineClient;
  /** Loads a game and moves in the play view (the Train view's "Play this net"). */
  loadGame(spec: string, moves: string[]): Promise<LoadResult>;
  /** The play view's board renderer (null before the first position is drawn; a new one when
   * the game changes): features draw on it through its overlay layer and cell geometry, never by
   * looking into its elements. */
  board(): BoardSurface | null;
  /** Shows a sentence in the play view's message line. */
  showMessage(text: string, kind?: 'info' | 'error'): void;
  /** Where the feature registers what a lesson may wait for, trigger and outline (lessons/catalogue.ts names). */
  lessons: LessonRegistry<Element>;
}

/** What the app offers the share, records and embed features. */
export interface PageHooks {
  /** The page's state: subscribe to it rather than watching the page. */
  store: PageStore;
  /** The page's element handles. */
  elements: PageElements;
  /** The analysis's tree views (the image exports). */
  trees: TreeViews;
  snapshot(): Snapshot | null;
  presets(): string[];
  engine(): EngineClient;
  sides(): readonly [SideSettings, SideSettings];
  setPaused(v: boolean): void;
  busy(): boolean;
  showMessage(text: string, kind?: 'info' | 'error'): void;
  /** Loads a game and moves, checked by the engine (an error is also shown on the page). The
   * game's tree of variations starts afresh, unless `keepTree` (a line of the same game). */
  loadGame(spec: string, moves: string[], opts?: { keepTree?: boolean }): Promise<LoadResult>;
  /** Looks at move `n` of the game (1-based: the position before it; null: the live position);
   * ignored when the game has no such move. */
  lookAt(n: number | null): void;
  play(move: string): Promise<void>;
  wake(): void;
  /** The play view's board renderer (null before the first position is drawn; a new one when
   * the game changes): features draw on it through its overlay layer and cell geometry, never by
   * looking into its elements. */
  board(): BoardSurface | null;
  /** The URL's engine overrides (seed) for a side's searches. */
  engineParams(side: Player): EngineParams;
  /** The lesson registry (the lesson card runs its steps through it). */
  lessons: LessonRegistry<Element>;
  /** The game review (Review game's controller). */
  review: GameReviewControl;
}
