// The Solve control's controller ("Truth where the search is shown"): the exact solver on the
// position the board shows — the live position, or, while a past move is reviewed, the position
// before that move. Hex (up to 8×8, no swap rule) goes to the proof-number solver, whose values
// are win or loss; Tic-Tac-Toe and Pentago endgames (at most 16 empty cells) to the alpha-beta
// endgame solver, whose values are win, draw or loss. Each root move gets its exact value for
// the side to move, which the board overlay `exact` (hotkey X), the root-move table and the review
// line show; they go to the page state (`exact`).
//
// The solver runs in a worker of its own (EngineClient.solver()), in slices, so the game's engine
// and the analysis keep their threads and Stop answers at once. Another position (a move, undo, a
// new game, another reviewed move, back to live) stops a running solve; the values shown are
// always those of the position on the board. The last results are kept by position, so coming
// back to a position solved before shows its values again at once; solving the same position
// again after a stop or an exhausted budget continues where it stopped (the worker keeps the
// solver's table of the last position it solved). The state is a store of its own
// (`SolveState`); the view (solve.ts) draws it. No DOM: unit-tested in Node with a fake engine.

import { EngineDied, type EngineClient, type SolveHandle } from '../engine';
import { gameOf, playerName } from '../games';
import { count } from '../lib/format';
import { createStore, type Store } from '../lib/store';
import { searchBehind } from '../play/searches';
import {
  exactMoveValue,
  exactRootValue,
  type BoardView,
  type ExactValue,
  type Snapshot,
  type SolveEnd,
  type SolveReport,
} from '../protocol';
import { movesKey, type ExactValues, type PageState, type PageStore } from '../state';

/** The budget field's range and default, in seconds (docs/limits.md). */
export const SOLVE_BUDGET_S = { min: 1, max: 600, initial: 10 } as const;
/** Results kept by position (a few KB each), so that going back to a solved position shows it. */
const KEEP_RESULTS = 32;

/** A position as the solver needs it: its game and moves, its picture, whether the game is over. */
export interface SolveTarget {
  spec: string;
  moves: readonly string[];
  view: BoardView;
  outcome: Snapshot['outcome'];
}

/** The position the Solve control is on: the one before the reviewed move while a past move is
 * reviewed, else the live position (null: no game yet). */
export function solveTarget(st: Pick<PageState, 'snapshot' | 'review' | 'searches' | 'reviewView'>): SolveTarget | null {
  const s = st.snapshot;
  if (!s) return null;
  if (st.review !== null) {
    const e = searchBehind(st.searches, s.view.spec, s.moves, st.review);
    if (e) return { spec: e.spec, moves: e.before, view: e.view, outcome: null };
    // Any other move looked at: its position once the worker has drawn it (null meanwhile).
    const before = s.moves.slice(0, st.review - 1);
    const rv = st.reviewView;
    if (rv?.key === movesKey(s.view.spec, before)) return { spec: s.view.spec, moves: before, view: rv.view, outcome: null };
    return null;
  }
  return { spec: s.view.spec, moves: s.moves, view: s.view, outcome: s.outcome };
}

/** A target's key (the same as `positionKey` of a snapshot of that position). */
export const targetKey = (t: SolveTarget | null): string => (t ? movesKey(t.spec, t.moves) : '');

/** Why a position cannot be solved (null: it can). Takes a snapshot or a `SolveTarget`. */
export function solveUnavailable(s: Pick<SolveTarget, 'view' | 'outcome'> | null): string | null {
  if (!s) return 'no game yet';
  const v = s.view;
  // What the game's exact solver takes: the engine's registry (Rust `registry::SolverFacts`).
  const { title, solver } = gameOf(v.kind).facts;
  if (!solver) return `${title} has no exact solver`;
  const side = Math.max(v.rows, v.cols);
  if (solver.max_side !== null && side > solver.max_side)
    return `${title} ${v.rows}×${v.cols} is too large for the exact solver (it takes boards up to ${solver.max_side}×${solver.max_side})`;
  if (!solver.swap && v.spec.split(':').includes('swap'))
    return `the exact solver does not handle the swap rule (choose ${title} without it)`;
  const empty = v.cells.filter((c) => c < 0).length;
  if (solver.max_empty !== null && empty > solver.max_empty)
    return `${title} with ${empty} empty cells is too large for the exact solver (it takes positions with at most ${solver.max_empty} empty cells: ${v.cells.length - solver.max_empty} or more stones placed)`;
  if (s.outcome) return 'the game is over';
  return null;
}

/** What the solver does, for the control's title: Hex's proof-number search proves wins and
 * losses; the endgame solver's alpha-beta also draws. */
export function solverTitle(kind: BoardView['kind']): string {
  return gameOf(kind).facts.solver?.kind === 'proof-number'
    ? 'Depth-first proof-number search: proves each move won or lost with perfect play'
    : 'Alpha-beta search over win, draw and loss: proves each move won, drawn or lost with perfect play';
}

/** The status line of a solve's report. `end` null: still running. */
export function solveStatusText(kind: BoardView['kind'], r: SolveReport, end: SolveEnd | null, budgetS: number): string {
  const mover = playerName(kind, r.toMove);
  const other = playerName(kind, r.toMove === 0 ? 1 : 0);
  const proven = r.moves.filter((m) => exactMoveValue(m) !== null).length;
  const work = `${count(r.stats.expansions)} ${r.stats.expansions === 1 ? 'position' : 'positions'}, ${(r.ms / 1000).toFixed(1)} s`;
  const v = exactRootValue(r);
  const best = r.bestMove ?? r.winningMove;
  const root =
    v === null
      ? null
      : v === 'win'
        ? `${mover} wins${r.winningMove ? `, e.g. ${r.winningMove}` : ''}`
        : v === 'draw'
          ? `a draw with perfect play${best ? `, e.g. ${best}` : ''}`
          : `${other} wins (every move of ${mover} loses)`;
  const movesPart = `${proven} of ${r.moves.length} moves proven`;
  if (end === null) return `solving${r.continued ? ' (continued)' : ''}… ${root ? `proven: ${root}; ` : ''}${movesPart} — ${work}`;
  if (end === 'proven') return `proven: ${root ?? '?'} — ${work}`;
  const again = ' Solve again to continue.';
  if (end === 'stopped') return `stopped: ${root ? `proven: ${root}; ` : 'value unknown; '}${movesPart} — ${work}.${again}`;
  return root
    ? `proven: ${root}; ${movesPart} within ${budgetS} s — ${work}.${again}`
    : `unknown within ${budgetS} s: ${movesPart} — ${work}.${again}`;
}

/** Every root move's exact value for the side to move, by move. */
export function valuesByMove(r: SolveReport): Map<string, ExactValue | null> {
  return new Map(r.moves.map((m) => [m.move, exactMoveValue(m)]));
}

/** The ranks of the values, for the best of several (a Pentago cell's twists). */
const RANK: Record<ExactValue, number> = { loss: 0, draw: 1, win: 2 };

/** The value of a board cell that stands for several moves (Pentago: the twists from that cell):
 * the best proven value when it is a win or when every move is proven, else null (not proven:
 * an unproven twist might do better). */
export function bestOfMoves(values: readonly (ExactValue | null)[]): ExactValue | null {
  let best: ExactValue | null = null;
  let open = false;
  for (const v of values) {
    if (v === null) open = true;
    else if (best === null || RANK[v] > RANK[best]) best = v;
  }
  return best === 'win' || !open ? best : null;
}

/** A solve's last report and how it ended (`end` null: still running). */
export interface SolveResult {
  report: SolveReport;
  end: SolveEnd | null;
  budgetS: number;
}

/** The controller's state. */
export interface SolveState {
  /** The key of the position on the board (`targetKey`). */
  key: string;
  /** The key of the position being solved (null: no solve running). */
  running: string | null;
  /** The result of the position on the board, while running or after (null: none). */
  result: SolveResult | null;
  /** Progress reports of the running solve so far (mirrored on the status for the tests). */
  progress: number;
  /** A sentence about the last Solve that failed (a bad budget, a position the engine refused,
   * a dead worker), until the position changes or Solve is pressed again. */
  error: string | null;
}

/** The status line and its state (`running`, `proven`, `unknown`, `stopped`, `unavailable`,
 * `error`, `idle`) for the view. `review`: the reviewed move, if any. */
export function solveStatus(
  s: SolveState,
  kind: BoardView['kind'],
  why: string | null,
  review: number | null,
): { text: string; state: string } {
  const where = review === null ? '' : `Before move ${review}: `;
  const r = s.result;
  if (s.error !== null && s.running === null) return { text: s.error, state: 'error' };
  if (s.running !== null && r) return { text: where + solveStatusText(kind, r.report, null, r.budgetS), state: 'running' };
  if (s.running !== null) return { text: 'solving…', state: 'running' };
  if (r) return { text: where + solveStatusText(kind, r.report, r.end, r.budgetS), state: r.end ?? 'running' };
  if (why) return { text: `Not available: ${why}.`, state: 'unavailable' };
  return { text: '', state: 'idle' };
}

/** What the controller needs of the solver's worker. */
export type SolveEngine = Pick<EngineClient, 'solve' | 'dead'>;

export interface SolveDeps {
  /** The page's state: the position, the review, the searches kept; `exact` is written. */
  store: PageStore;
  /** A new solver worker (EngineClient.solver()). */
  newEngine(): SolveEngine;
}

export class SolveController {
  readonly state: Store<SolveState>;
  private client: SolveEngine | null = null;
  private handle: SolveHandle | null = null;
  /** The last result of each position solved (while running or after), oldest first. */
  private readonly results = new Map<string, SolveResult>();
  private published = '';

  constructor(private readonly deps: SolveDeps) {
    const key = targetKey(this.target());
    this.state = createStore<SolveState>({ key, running: null, result: null, progress: 0, error: null });
    // Another position on the board (a move, undo, a new game, another reviewed move, back to
    // live) stops a running solve; the values and the status become that position's.
    deps.store.subscribe((st, prev) => {
      if (st.snapshot === prev.snapshot && st.review === prev.review && st.searches === prev.searches && st.reviewView === prev.reviewView)
        return;
      const k = targetKey(solveTarget(st));
      if (k === this.state.get().key) return;
      if (this.handle && this.state.get().running !== k) {
        this.handle.stop();
        this.handle = null;
      }
      this.state.update({ key: k, running: null, result: this.results.get(k) ?? null, progress: 0, error: null });
      this.publish();
    });
  }

  /** The position the control is on. */
  target(): SolveTarget | null {
    return solveTarget(this.deps.store.get());
  }

  /** Why that position cannot be solved (null: it can). */
  unavailable(): string | null {
    return solveUnavailable(this.target());
  }

  /** The exact values of the root moves of the position on the board, by move (null: no solve
   * of it). */
  values(): ReadonlyMap<string, ExactValue | null> | null {
    const r = this.state.get().result;
    return r ? valuesByMove(r.report) : null;
  }

  /** Solve when idle, Stop when running (the control's one button). */
  toggle(budgetText: string): void {
    if (this.state.get().running !== null) this.stop();
    else void this.solve(budgetText);
  }

  /** Stops the running solve (what it proved stays). */
  stop(): void {
    this.handle?.stop();
  }

  /** Solves the position on the board and each of its moves for at most `budgetText` seconds
   * (the budget field's text); settles when the solve ends. */
  async solve(budgetText: string): Promise<void> {
    const t = this.target();
    if (!t || solveUnavailable(t) !== null || this.state.get().running !== null) return;
    const secs = Number(budgetText);
    if (budgetText.trim() === '' || !Number.isFinite(secs) || secs < SOLVE_BUDGET_S.min || secs > SOLVE_BUDGET_S.max) {
      this.state.update({
        error: `Solver budget: '${budgetText}' is not a number of seconds from ${SOLVE_BUDGET_S.min} to ${SOLVE_BUDGET_S.max}.`,
      });
      return;
    }
    if (!this.client || this.client.dead) this.client = this.deps.newEngine();
    const key = targetKey(t);
    const handle = this.client.solve({ spec: t.spec, moves: [...t.moves] }, secs * 1000, (r) => {
      if (this.handle !== handle) return;
      this.keep(key, { report: r, end: null, budgetS: secs });
      this.state.update((s) => ({ progress: s.progress + 1 }));
    });
    this.handle = handle;
    this.state.update({ running: key, progress: 0, error: null });
    try {
      const out = await handle.done;
      // Stopped because the board moved to another position: what it proved is kept for it.
      const mine = this.handle === handle;
      this.keep(key, { report: out, end: out.result, budgetS: secs });
      if (!mine) return;
      this.handle = null;
      this.state.update({ running: null });
    } catch (e) {
      if (this.handle !== handle) return;
      this.handle = null;
      this.results.delete(key);
      const msg = e instanceof Error ? e.message : String(e);
      this.state.update({
        running: null,
        result: null,
        error: e instanceof EngineDied ? `The solver’s worker stopped: ${msg}` : `Solver: ${msg}`,
      });
      this.publish();
    }
  }

  /** Keeps a result for its position; the position on the board's is its state's. */
  private keep(key: string, r: SolveResult): void {
    this.results.delete(key);
    this.results.set(key, r);
    while (this.results.size > KEEP_RESULTS) this.results.delete(this.results.keys().next().value!);
    if (key === this.state.get().key) {
      this.state.update({ result: r });
      this.publish();
    }
  }

  /** The page state's `exact`: the values of the position on the board, or null. */
  private publish(): void {
    const { key, result: r } = this.state.get();
    const exact: ExactValues | null = r
      ? {
          key,
          toMove: r.report.toMove,
          rootWins: r.report.rootWins,
          rootValue: exactRootValue(r.report),
          moves: r.report.moves,
          end: r.end,
          budgetS: r.budgetS,
        }
      : null;
    const sig = exact ? JSON.stringify([key, exact.rootValue, exact.end, exact.moves.map(exactMoveValue)]) : '';
    if (sig === this.published) return;
    this.published = sig;
    this.deps.store.update({ exact });
  }
}
