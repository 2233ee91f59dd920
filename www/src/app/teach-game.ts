// The teaching game (KaTrain's teaching mode): while a person plays the engine with Teaching on,
// each of the person's moves is judged at once by the review's core (review/judge.ts, on a worker
// of its own) while the game's engine waits (the store's `teaching` hold, which maybeEngineMove
// respects); a move at or above the chosen class (or a proven result made worse) gets a notice at
// the board with Take back (Undo: the board back to the person's turn) and Keep playing (the engine
// replies); any other move lets the engine reply at once. Person against person is not judged:
// nobody waits for the verdict there (the other person may already have replied), and taking a
// move back would take the opponent's reply with it; Review game serves both after the game.

import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import type { Snapshot } from '../protocol';
import { MoveJudge, noticeText, pointsOut, TEACH_LEVEL_WORDS, TEACH_LEVELS, type TeachLevel, teachSettings } from '../review/judge';
import { positionKey } from '../state';
import { type App, errText, showMessage, st } from './context';
import { reviewPreset } from './game-review';

/** What the teaching game needs from the turn loop and the game controls (passed in, so this
 * module imports neither: app/turns.ts calls `holdForTeaching`). */
export interface TeachingActions {
  /** Lets the engine reply (app/turns.ts `maybeEngineMove`). */
  reply(): void;
  /** Takes the person's move back (app/game.ts `undo`: against the engine, back to the person's turn). */
  takeBack(): Promise<void>;
}

interface Teaching {
  judge: MoveJudge;
  actions: TeachingActions;
  /** Judgements asked for so far (the page mirrors it for the tests). */
  judgements: number;
}

const teachings = new WeakMap<App, Teaching>();

/** Whether the move from `before` to `next` is a person's move against the engine. */
function againstEngine(app: App, before: Snapshot): boolean {
  const mover = before.view.to_move;
  if (mover === null) return false;
  const sides = st(app).sides;
  return sides[mover].who === 'person' && sides[mover === 0 ? 1 : 0].who === 'engine';
}

/** Called by the turn loop after a person's move (`before` → `next`): with Teaching on and the
 * engine to reply, holds the engine, judges the move, and returns true (then the verdict decides:
 * a notice, or `reply` at once); false when the engine may reply now. */
export function holdForTeaching(app: App, before: Snapshot, next: Snapshot, reply: () => void): boolean {
  const t = teachings.get(app);
  const s = st(app);
  if (!t || s.teach === 'off' || next.moves.length === 0 || !againstEngine(app, before)) return false;
  const key = positionKey(next);
  const move = next.moves[next.moves.length - 1]!;
  const game = { spec: next.view.spec, moves: next.moves.slice(0, -1), settings: teachSettings(reviewPreset(s)) };
  app.store.update({ teaching: { key, status: 'judging' } });
  t.judgements++;
  document.body.dataset.judgements = String(t.judgements);
  void (async () => {
    let ply = null;
    try {
      ply = await t.judge.judge(game, move);
    } catch (e) {
      if (st(app).teaching?.key === key) showMessage(app, `Teaching could not judge ${move}: ${errText(e)}`, 'error');
    }
    const hold = st(app).teaching;
    // Stale: the game moved on (undo, a new game) and the hold went with it.
    if (!hold || hold.key !== key) return;
    if (ply && pointsOut(ply, st(app).teach)) {
      app.store.update({ teaching: { key, status: 'notice', ply } });
      return;
    }
    app.store.update({ teaching: null });
    reply();
  })();
  return true;
}

/** The Teaching control (in the Players box), the notice at the board, and the hold's upkeep. */
export function bindTeaching(app: App, actions: TeachingActions): void {
  const t: Teaching = { judge: new MoveJudge(() => new EngineClient()), actions, judgements: 0 };
  teachings.set(app, t);
  document.body.dataset.judgements = '0';

  const select = h(
    'select',
    { id: 'teach-level', 'aria-describedby': 'teach-help' },
    ...TEACH_LEVELS.map((l) => h('option', { value: l }, TEACH_LEVEL_WORDS[l])),
  );
  const row = h(
    'div',
    { class: 'side teach-row' },
    h('label', { for: 'teach-level' }, 'Teaching'),
    select,
    h(
      'span',
      { class: 'muted small', id: 'teach-help' },
      'Against the engine: each of your moves is judged at once (the game review’s classes) and one at or above the chosen class is pointed out, with the choice to take it back.',
    ),
  );
  app.ui.sides[1].row.parentElement?.append(row);
  select.addEventListener('change', () => app.store.update({ teach: select.value as TeachLevel }));

  const headline = h('strong', { id: 'teach-headline' });
  const detail = h('span', { id: 'teach-detail' });
  const takeBack = h('button', { id: 'teach-take-back', type: 'button', class: 'primary' }, 'Take back');
  const keep = h('button', { id: 'teach-keep', type: 'button' }, 'Keep playing');
  const notice = h(
    'div',
    { id: 'teach-notice', class: 'teach-notice', role: 'alert', hidden: '' },
    h('p', {}, headline, ' ', detail),
    h('div', { class: 'row' }, takeBack, keep),
  );
  app.ui.boardHost.after(notice);

  takeBack.addEventListener('click', () => {
    if (st(app).teaching?.status !== 'notice') return;
    // Undo clears the hold (the position changes) and leaves the person to move.
    void t.actions.takeBack();
  });
  keep.addEventListener('click', () => {
    if (st(app).teaching?.status !== 'notice') return;
    app.store.update({ teaching: null });
    t.actions.reply();
  });

  app.store.subscribe((s, prev) => {
    if (s.teach !== prev.teach) {
      select.value = s.teach;
      if (s.teach === 'off') {
        // Off: no worker kept; a move held for judging is let through.
        t.judge.stop();
        if (s.teaching) {
          app.store.update({ teaching: null });
          t.actions.reply();
          return;
        }
      }
    }
    // A new position (undo, a new game, a loaded game) ends the hold and any judgement of it.
    if (s.teaching && s.snapshot !== prev.snapshot && positionKey(s.snapshot) !== s.teaching.key) {
      t.judge.cancel();
      app.store.update({ teaching: null });
      return;
    }
    if (s.teaching !== prev.teaching || s.teach !== prev.teach) drawNotice();
  });

  function drawNotice(): void {
    const hold = st(app).teaching;
    document.body.dataset.teaching = hold?.status ?? 'none';
    document.body.dataset.judgeWorker = t.judge.alive ? 'alive' : 'none';
    if (hold?.status !== 'notice') {
      const hadFocus = notice.contains(document.activeElement);
      notice.hidden = true;
      if (hadFocus) app.ui.boardHost.focus();
      return;
    }
    const n = noticeText(hold.ply);
    headline.textContent = `${n.move} — ${n.headline}.`;
    detail.textContent = [n.drop, n.best].filter(Boolean).join(' ');
    notice.dataset.class = hold.ply.class;
    notice.dataset.label = hold.ply.label ?? '';
    // Right after the board (the overlay toggles, mounted later, are put there too): seen with the
    // board, and Tab from the board reaches its buttons next.
    if (app.ui.boardHost.nextElementSibling !== notice) app.ui.boardHost.after(notice);
    notice.hidden = false;
  }
  drawNotice();
}
