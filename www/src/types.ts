// The page's own vocabulary, shared by the app and the features (no DOM, no imports of features):
// the players' settings and what the page offers a feature (`PageHooks`). Keeping these here, not
// in the modules that use them, is what keeps the import graph free of cycles.

import type { EngineClient } from './engine';
import type { Player, Snapshot } from './protocol';
import type { PageStore, SideSettings } from './state';

export type { SideSettings, Who } from './state';

/** What loading a game gave: `ok`, or the sentence the page shows and the engine's reason alone. */
export type LoadResult = { ok: true } | { ok: false; message: string; reason: string };

/** What the app offers the analysis, step-through, compare and arena features. */
export interface PlaygroundHooks {
  /** The page's state (the position, presets, what the game's engine does, the open view). */
  store: PageStore;
  /** The game as the page shows it (null before the first answer). */
  snapshot(): Snapshot | null;
  /** The engine's preset names. */
  presets(): string[];
  /** The playground's engine (to watch its searches). */
  engine(): EngineClient;
  /** Loads a game and moves in the play view (the Train view's "Play this net"). */
  loadGame(spec: string, moves: string[]): Promise<LoadResult>;
  /** Shows a sentence in the play view's message line. */
  showMessage(text: string, kind?: 'info' | 'error'): void;
}

/** What the app offers the share, records and embed features. */
export interface PageHooks {
  /** The page's state: subscribe to it rather than watching the page. */
  store: PageStore;
  snapshot(): Snapshot | null;
  presets(): string[];
  engine(): EngineClient;
  sides(): readonly [SideSettings, SideSettings];
  setPaused(v: boolean): void;
  busy(): boolean;
  showMessage(text: string, kind?: 'info' | 'error'): void;
  /** Loads a game and moves, checked by the engine (an error is also shown on the page). */
  loadGame(spec: string, moves: string[]): Promise<LoadResult>;
  play(move: string): Promise<void>;
  wake(): void;
  boardElement(): HTMLElement | null;
  /** The URL's engine overrides (seed) for a side's searches. */
  engineParams(side: Player): Record<string, string>;
}
