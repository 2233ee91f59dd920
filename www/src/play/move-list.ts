// The move list of the analysis board: the game's tree (state `gameTree`) as PGN and the Lichess
// analysis board write it — the main line numbered and coloured per player, each variation after
// the main-line move it replaces, in brackets, on a row of its own, nested variations inside. Every
// move is a button that shows the position before it (app/review.ts); a move whose search was
// kept is underlined; the moves past the live position (after Undo) are dimmed; the game review's marks follow the main-line moves it covers; while the
// game is in a variation, "Promote variation" and "Delete variation" act on it.

import { h } from '../lib/dom';
import { plyMark } from '../review/marks';
import type { PageState } from '../state';
import { searchBehind, searchedText } from './searches';
import { listMoves, type ListedMove, onMainLine, singleLine } from './tree';

/** Whether `line` is a prefix of `of`. */
function prefixOf(line: readonly string[], of: readonly string[]): boolean {
  return line.length <= of.length && line.every((m, i) => of[i] === m);
}

/** The list's items for the state (the `#moves` <ol>'s children). */
export function moveListItems(state: PageState): HTMLElement[] {
  const s = state.snapshot;
  if (!s) return [];
  const spec = s.view.spec;
  const tree = state.gameTree?.spec === spec ? state.gameTree : singleLine(spec, s.moves);
  const live = s.moves;
  const report = state.gameReview?.report ?? null;
  const covered = report && report.game === spec ? report : null;

  // A move of the tree past the live position on its line (after Undo): shown, not yet played.
  const ahead = (m: ListedMove): boolean => m.line.length > live.length && prefixOf(live, m.line);

  const button = (m: ListedMove): HTMLElement => {
    const n = m.line.length;
    const onLive = prefixOf(m.line, live);
    const e = onLive ? searchBehind(state.searches, spec, live, n) : undefined;
    const kind = !e ? '' : e.stats ? 'kept' : e.fromRecord ? 'record' : 'gone';
    const title = e
      ? e.fromRecord
        ? `Move ${n}: the root statistics of its search, from the ${e.fromLink ? 'link' : 'loaded record'}`
        : e.stats
          ? `Review move ${n}: the position before it and the search that chose it (${searchedText(e.summary)}, ${e.summary.preset})`
          : `Move ${n}: its search is gone (only the last 200 engine moves keep theirs); the root statistics remain`
      : onLive
        ? `Move ${n}: the position before it`
        : `Move ${n} of another line: go there`;
    return h(
      'button',
      {
        type: 'button',
        class: `mv${e ? ' searched' : ''}${kind === 'gone' ? ' gone' : ''}${onLive ? ' on-line' : ''}${ahead(m) ? ' ahead' : ''}`,
        'data-line': m.line.join(' '),
        'data-ply': onLive ? String(n) : undefined,
        'data-search': kind || undefined,
        'aria-current': onLive && state.review === n ? 'true' : undefined,
        title,
      },
      m.move,
    );
  };

  // The game review's mark, for a main-line move the report covers.
  const mark = (m: ListedMove): HTMLElement[] => {
    const n = m.line.length;
    if (!covered || n > covered.plies.length || !prefixOf(m.line, covered.moves as string[])) return [];
    const k = plyMark(covered.plies[n - 1]!);
    return k ? [h('span', { class: `rv-glyph rv-${k.kind}`, 'data-class': k.kind, title: k.title }, k.glyph)] : [];
  };

  /** A variation inline: numbered moves, nested variations in brackets after the move they replace. */
  const inline = (moves: readonly ListedMove[]): (HTMLElement | string)[] => {
    const out: (HTMLElement | string)[] = ['('];
    moves.forEach((m, i) => {
      const n = m.line.length;
      out.push(h('span', { class: 'num' }, `${i === 0 ? '' : ' '}${n}.`), button(m));
      for (const v of m.variations) out.push(...inline(v));
    });
    out.push(')');
    return out;
  };

  const items: HTMLElement[] = [];
  for (const m of listMoves(tree)) {
    const n = m.line.length;
    items.push(
      h('li', { class: `p${(n - 1) % 2}${ahead(m) ? ' ahead' : ''}` }, h('span', { class: 'num' }, `${n}.`), ' ', button(m), ...mark(m)),
    );
    for (const v of m.variations) items.push(h('li', { class: 'variation', 'data-from': String(n) }, ...inline(v)));
  }
  if (!onMainLine(tree, live)) {
    items.push(
      h(
        'li',
        { class: 'variation-tools' },
        h('span', { class: 'muted' }, 'The game is in a variation.'),
        ' ',
        h(
          'button',
          { type: 'button', 'data-variation': 'promote', title: 'Make this variation its parent line’s own continuation' },
          'Promote variation',
        ),
        ' ',
        h(
          'button',
          { type: 'button', 'data-variation': 'delete', title: 'Delete this variation and go back to the line it left' },
          'Delete variation',
        ),
      ),
    );
  }
  return items;
}
