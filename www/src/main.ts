// The playground page: wires the app (app/: the game's controller) to the page and the features.
//
// The page holds no rules: the engine worker owns the game (engine.ts → worker/ → wasm) and
// answers every change with a `Snapshot`; the app draws it and decides whose turn it is. The
// page's state is one store (state.ts) shared with the features, which read it, subscribe to it
// and change it through `update`. play/panel.ts builds the page's chrome and returns its element
// handles, the one object through which the app and the features reach it.
//
// - app/context.ts: the shared machinery (store, elements, the engine worker, the running search)
// - app/lifecycle.ts: the engine worker, and its recovery when it dies
// - app/turns.ts: the turn loop (engine moves, a person's moves); app/net-fallback.ts
// - app/input.ts: clicks, keys and Swap on the board; app/hint.ts: Hint
// - app/game.ts: new game, Undo / Redo, loading a game; app/controls.ts: Players, Workers, Pause, Stop
// - app/review.ts: reviewing the search behind a move; app/board.ts: drawing from the state
// - app/teach-game.ts: the teaching game (a person's move judged at once, Take back / Keep playing)
// - app/startup.ts: start-up from the URL, the hooks the features get, the tests' hooks
// - app/lessons.ts: what the game offers a lesson (states, intents, targets: lessons/catalogue.ts)
// - app/router.ts: the views (analysis and step-through under the game; Compare, Arena, Train)
// - share/hooks.ts: URL state, records, embed mode, lessons
//
// URL parameters (all optional): `game=SPEC` (e.g. hex:11:swap, tictactoe, pentago:twist),
// `p0=person|engine`, `p1=person|engine`, `preset=NAME`, `ms=N` or `playouts=N` (the budget); the
// rest are lib/params.ts's.

import './style.css';
import { bindBoard } from './app/board';
import { App } from './app/context';
import { bindControls } from './app/controls';
import { bindGameControls, undo } from './app/game';
import { bindInput } from './app/input';
import { bindLessons } from './app/lessons';
import { bindGameReview, learnJudge } from './app/learn';
import { bindReview } from './app/navigate';
import { mountViews } from './app/router';
import { installTestHooks, mountNets, pageHooks, playgroundHooks, start } from './app/startup';
import { bindTeaching } from './app/teach-game';
import { maybeEngineMove } from './app/turns';
import { buildPage } from './play/panel';
import { teach } from './share/hooks';
import { createPageStore } from './state';

const app = new App(createPageStore(), buildPage(document.getElementById('app')!));
bindBoard(app);
bindReview(app);
app.learnTry = bindGameReview(app, learnJudge());
bindGameControls(app);
bindControls(app);
bindInput(app);
bindLessons(app);
bindTeaching(app, { reply: () => maybeEngineMove(app), takeBack: () => undo(app) });
installTestHooks(app, mountNets(app));
const views = mountViews(playgroundHooks(app));
teach.bind(pageHooks(app, views.trees, views.review));
void start(app);
