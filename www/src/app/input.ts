// The person's input on the board: clicks and Enter on cells (refused with a reason when the
// board does not take a move now), Pentago's place-then-twist, the keyboard cursor, and the Swap
// button.

import { cellName, moveCursor, type Quadrant } from '../board';
import { keyCell, moveOfCell } from '../games';
import { personToMove } from '../state';
import { redrawBoard } from './board';
import { type App, showMessage, st } from './context';
import { cancelHint } from './hint';
import { playAtReview } from './navigate';
import { reviewedPosition } from './review';
import { playPerson } from './turns';

function refuse(app: App, cell: number, why: string): void {
  if (!app.board) return;
  app.board.refused = { cell, serial: ++app.refusals };
  app.renderer?.update(app.board);
  showMessage(app, why, 'error');
}

export function onCell(app: App, cell: number): void {
  const s = st(app).snapshot;
  const board = app.board;
  if (!s || !board) return;
  const v = board.view;
  const name = cellName(cell, v.cols);
  board.cursor = cell;
  const reviewing = st(app).review !== null;
  if (st(app).restoring) return refuse(app, cell, 'Wait: the engine is restarting.');
  if (reviewing) {
    // Looking at an earlier move: any side's move is taken (it starts a variation).
    if (!reviewedPosition(app)?.shown) return refuse(app, cell, 'Wait: the position is being drawn.');
  } else {
    if (s.outcome) return refuse(app, cell, 'The game is over: start a new game or undo.');
    if (app.search?.purpose === 'move') return refuse(app, cell, 'Wait: the engine is thinking (Stop makes it move now).');
    if (!personToMove(st(app))) return refuse(app, cell, 'It is the engine’s turn.');
  }
  const move = moveOfCell(v, cell);
  if (move === null) {
    // A click that only starts a move: Pentago's placement, waiting for its twist.
    if (board.pending === cell) return onCancelPending(app);
    if (board.pending !== null) return refuse(app, cell, `First pick a twist for ${cellName(board.pending, 6)}, or press Escape.`);
    if (![...board.legal].some((m) => m.startsWith(`${name}-`))) return refuse(app, cell, `${name} is not empty.`);
    board.pending = cell;
    showMessage(app, `Now twist a quadrant (arrows by the board) to finish ${name}.`);
    redrawBoard(app);
    return;
  }
  if (!board.legal.has(move))
    return refuse(app, cell, move === name ? `${name} is not a legal move: the cell is taken.` : `${move} is not a legal move here.`);
  cancelHint(app);
  void playMove(app, move);
}

/** A move from the board: at the move looked at (a variation, or a step forward), else the
 * person's move in the live game. */
function playMove(app: App, move: string): Promise<void> {
  if (app.learnTry?.(move)) {
    if (app.board) app.board.pending = null;
    return Promise.resolve();
  }
  return st(app).review !== null ? playAtReview(app, move) : playPerson(app, move);
}

function onTwist(app: App, q: Quadrant, dir: string): void {
  const board = app.board;
  if (!board || board.pending === null) return;
  const mv = `${cellName(board.pending, 6)}-${q}-${dir}`;
  if (!board.legal.has(mv)) {
    showMessage(app, `${mv} is not legal here.`, 'error');
    return;
  }
  cancelHint(app);
  void playMove(app, mv);
}

function onCancelPending(app: App): void {
  if (!app.board || app.board.pending === null) return;
  app.board.pending = null;
  showMessage(app, '');
  redrawBoard(app);
}

/** The board's events, its keyboard and pointer, and the Swap button. */
export function bindInput(app: App): void {
  const { boardHost, swapBtn } = app.ui;
  app.boardEvents = {
    onCell: (cell) => onCell(app, cell),
    onTwist: (q, dir) => onTwist(app, q, dir),
    onCancelPending: () => onCancelPending(app),
  };
  swapBtn.addEventListener('click', () => {
    if (app.board?.legal.has('swap') && personToMove(st(app)) && !app.search) void playPerson(app, 'swap');
  });
  boardHost.addEventListener('keydown', (ev) => {
    const board = app.board;
    if (!board) return;
    switch (ev.key) {
      case 'ArrowUp':
      case 'ArrowDown':
      case 'ArrowLeft':
      case 'ArrowRight':
        board.cursor = moveCursor(board, ev.key);
        board.showCursor = true;
        redrawBoard(app);
        ev.preventDefault();
        return;
      case 'Enter':
      case ' ':
        if ((ev.target as Element).closest('[data-twist]')) return;
        board.showCursor = true;
        onCell(app, board.cursor);
        ev.preventDefault();
        return;
      case 'Escape':
        onCancelPending(app);
        return;
      default: {
        // A game's own keys (Connect Four: 1… a column).
        if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
        const cell = keyCell(board.view, ev.key);
        if (cell === null) return;
        board.cursor = cell;
        onCell(app, cell);
        ev.preventDefault();
      }
    }
  });
  boardHost.addEventListener('pointerdown', () => {
    if (app.board?.showCursor) {
      app.board.showCursor = false;
      redrawBoard(app);
    }
  });
}
