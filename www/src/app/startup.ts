// Start-up: the engine's hello (its presets and networks), the Players and Workers choices, the
// URL's game and sides, the first game (Tic-Tac-Toe when the chosen one cannot start), then the
// teaching features' own start (share/hooks.ts). Also what the app offers the features (hooks),
// the networks line of the Players box, and the browser tests' hooks.

import { workerChoices } from '../parallel';
import { labelPresetOptions, loadUserNet, mountNetControls, type NetsHooks } from '../play/nets';
import { option } from '../play/panel';
import { entryBytes } from '../play/searches';
import type { NetInfo, Response, Snapshot } from '../protocol';
import type { ReviewReport } from '../review/report';
import type { GameReviewState, GameTree, TeachingHold } from '../state';
import { teach } from '../share/hooks';
import { parseSides } from '../share/url';
import type { GameReviewControl, PageHooks, PlaygroundHooks, TreeViews } from '../types';
import { type App, errText, showMessage, st } from './context';
import { commitSides } from './controls';
import { loadGame, newGame, selectSpec, syncGameControls } from './game';
import { startEngine } from './lifecycle';
import { mainLineKey } from './game-review';
import { setReview } from './review';
import { maybeEngineMove, playPerson } from './turns';
import type { PresetName } from '../generated/schema';

const PREFERRED_PRESETS: readonly PresetName[] = ['best', 'grave', 'rave', 'uct'];

/** What the app offers the analysis, step-through, compare, arena and train features. */
export function playgroundHooks(app: App): PlaygroundHooks {
  return {
    store: app.store,
    elements: app.ui,
    snapshot: () => st(app).snapshot,
    presets: () => st(app).presets,
    engine: () => app.engine,
    loadGame: (spec, moves) => loadGame(app, spec, moves),
    showMessage: (text, kind) => showMessage(app, text, kind),
    board: () => app.renderer,
    lessons: app.lessons,
  };
}

/** What the app offers the URL, records, embed and lesson features (share/hooks.ts adds the URL's
 * engine parameters). */
export function pageHooks(app: App, trees: TreeViews, review: GameReviewControl): Omit<PageHooks, 'engineParams'> {
  return {
    ...playgroundHooks(app),
    trees,
    review,
    sides: () => st(app).sides,
    setPaused: (paused: boolean) => app.store.update({ paused }),
    busy: () => app.search !== null || st(app).restoring,
    loadGame: (spec, moves, opts) => loadGame(app, spec, moves, opts),
    lookAt: (n) => setReview(app, n),
    play: (m: string) => playPerson(app, m),
    wake: () => maybeEngineMove(app),
  };
}

/** The URL's game (into the Game controls) and sides (into the store); the URL feature reports
 * what it could not use. */
function applyUrl(app: App): void {
  const q = new URLSearchParams(location.search);
  const g = q.get('game');
  if (g) selectSpec(app, g);
  // The sides: p0, p1, preset, ms, playouts (and their per-side forms).
  app.store.update({ sides: parseSides(q, st(app).presets, st(app).sides).sides });
}

export async function start(app: App): Promise<void> {
  const { sides, sizeSel, workersSel, gameSel, message, version } = app.ui;
  app.engine = startEngine(app);
  sizeSel.value = '7';
  sides[0].who.value = 'person';
  sides[1].who.value = 'engine';
  try {
    const hello = await app.engine.hello();
    app.store.update((s) => ({ presets: hello.presets, nets: { ...s.nets, netPresets: hello.netPresets, shipped: hello.nets } }));
    version.textContent = `engine ${hello.version}`;
  } catch (e) {
    showMessage(app, `The engine did not start: ${errText(e)}`, 'error');
  }
  const presets = st(app).presets;
  const dflt = PREFERRED_PRESETS.find((p) => presets.includes(p)) ?? presets[0] ?? '';
  for (const p of [0, 1] as const) {
    sides[p].preset.replaceChildren(...presets.map((n) => option(n, n)));
    sides[p].preset.value = dflt;
    const engineOpt = sides[p].who.querySelector('option[value="engine"]') as HTMLOptionElement;
    if (presets.length === 0) {
      engineOpt.disabled = true;
      sides[p].who.value = 'person';
    }
  }
  workersSel.replaceChildren(...workerChoices().map((n) => option(String(n), n === 1 ? '1 (off)' : String(n))));
  workersSel.value = '1';
  commitSides(app);
  applyUrl(app);
  syncGameControls(app);
  await newGame(app);
  if (!st(app).snapshot) {
    // The chosen game could not start (e.g. not built in): fall back to Tic-Tac-Toe.
    const why = message.textContent;
    gameSel.value = 'tictactoe';
    syncGameControls(app);
    await newGame(app);
    if (why) showMessage(app, why, 'error');
  }
  if (presets.length === 0) showMessage(app, 'The search engine is not available in this build: person vs person only.', 'error');
  await teach.afterStart();
}

/** The Players box's network line, and the preset lists' labels (which presets need a net). */
export function mountNets(app: App): NetsHooks {
  const netsHooks: NetsHooks = { store: app.store, engine: () => app.engine, showMessage: (t, k) => showMessage(app, t, k) };
  const { sides } = app.ui;
  sides[1].row.after(mountNetControls(netsHooks, () => st(app).snapshot?.view.spec ?? null));
  app.store.subscribe((s, prev) => {
    if (s.nets === prev.nets && s.presets === prev.presets && s.snapshot?.view.spec === prev.snapshot?.view.spec) return;
    for (const p of [0, 1] as const) labelPresetOptions(sides[p].preset, s.nets, s.snapshot?.view.spec ?? null);
  });
  return netsHooks;
}

/** Hooks for the browser tests (the page never calls them). */
declare global {
  interface Window {
    __playground: {
      snapshot(): Snapshot | null;
      /** The page state's game review (progress, status, report). */
      gameReview(): GameReviewState | null;
      /** The page state's game tree (the main line and its variations). */
      gameTree(): GameTree | null;
      /** The teaching game's hold (the judged ply while its notice is shown). */
      teaching(): TeachingHold | null;
      debugPanic(): Promise<void>;
      killWorker(): void;
      raw(message: unknown): Promise<Response>;
      /** Loads a user's net from its bytes, as the Load network button does. */
      loadNet(bytes: number[], name?: string): Promise<NetInfo | null>;
      /** Per kept search: its move number, tree nodes and bytes (play/searches.ts `entryBytes`). */
      searchBytes(): { ply: number; nodes: number; bytes: number }[];
      /** The lesson catalogue's names no feature has registered (lessons/registry.ts). */
      lessonNamesUnregistered(): string[];
      /** Sets a finished game review for the game shown (its report: `mcts review --json`'s shape). */
      setGameReview(report: ReviewReport): void;
    };
  }
}

export function installTestHooks(app: App, netsHooks: NetsHooks): void {
  window.__playground = {
    snapshot: () => st(app).snapshot,
    gameReview: () => st(app).gameReview,
    gameTree: () => st(app).gameTree,
    teaching: () => st(app).teaching,
    loadNet: (bytes: number[], name?: string) => loadUserNet(netsHooks, new Uint8Array(bytes).buffer, name),
    debugPanic: () => app.engine.debugPanic().catch(() => {}),
    killWorker: () => app.engine.terminate('the engine worker was terminated (test hook)'),
    searchBytes: () => st(app).searches.map((e) => ({ ply: e.summary.ply, nodes: e.tree?.count ?? 0, bytes: entryBytes(e) })),
    lessonNamesUnregistered: () => app.lessons.unregistered(),
    setGameReview: (report: ReviewReport) => {
      const total = report.moves.length + 1;
      app.store.update({ gameReview: { key: mainLineKey(st(app)), done: total, total, status: 'finished', report } });
    },
    raw: (m: unknown) =>
      new Promise<Response>((ok) => {
        app.engine.onRaw = (r) => {
          app.engine.onRaw = null;
          ok(r);
        };
        app.engine.postRaw(m);
      }),
  };
}
