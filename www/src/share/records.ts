// The "Share & records" box in the side panel: Copy link, load a record (move list, Hex SGF or the
// game's JSON, pasted or from a file), download the record, the board as SVG/PNG, the search tree
// as JSON. Move lists and SGF are read and written by the engine's own code (Rust `record.rs`), in
// the engine worker (`parseRecord` / `writeRecord` requests): the worker (worker/) stays the only importer of
// the wasm package. The game's JSON record (`gameJson`) adds each engine move's root statistics
// (play/searches.ts) to the moves, and the game review's report when the game was reviewed;
// reading it checks the moves with the engine too (`loadGame`) and restores the review.

import type { PageHooks } from '../types';
import { inTree } from '../play/tree';
import { EngineClient } from '../engine';
import { isVariations, type GameRecordText, type Snapshot, type TreeSnapshot, type Variation } from '../protocol';
import { findGame } from '../games';
import { h } from '../lib/dom';
import { MAX_RECORD_BYTES, recordTextTooLong, recordTooLong } from '../lib/limits';
import { count } from '../lib/format';
import { canvasPng, downloadBlob, downloadJson, downloadSvg, downloadText } from '../lib/download';
import { embedSnippet, siteBaseOf } from '../embed/snippet';
import { addSearch, summariesOf, type MoveSearch, type RootSummary, type MoveFigures } from '../play/searches';
import { parseReviewReport, type ReviewReport } from '../review/report';
import { reviews } from '../review/marks';

/** The `format` of the game's JSON record. */
export const GAME_JSON_FORMAT = 'mcts-playground-game';

/** The game's JSON record: the spec, the main line, its variations (when there are some), the
 * root statistics of every main-line move that kept the search behind it (`RootSummary`: move, N,
 * Q as the mover's win rate, best rival, preset, playouts), and the game review's report when the
 * main line was reviewed. Version 1 (`variations` and `review` are optional keys added since: a
 * reader that does not know them ignores them, as Rust `record::parse_game_json` does `review`). */
export interface GameJson {
  format: typeof GAME_JSON_FORMAT;
  version: 1;
  game: string;
  moves: string[];
  /** The main line's variations (protocol `Variation`); absent when there are none. */
  variations?: Variation[];
  /** Win rates are Q in [0, 1] for the player who chose the move. */
  searches: RootSummary[];
  /** The finished review of `moves` (`mcts review --json`'s shape: settings, per ply the
   * values, best move, principal variation, class and exact values, the summary); absent when
   * the game was not reviewed. */
  review?: ReviewReport;
}

/** The game's tree as records write it: the store's `gameTree` when it is this game's (same spec,
 * the live line one of its lines: its main line, a variation, or a part of one, as after stepping
 * back), else the live line alone. */
export function recordTree(hooks: Pick<PageHooks, 'snapshot' | 'store'>): { spec: string; moves: string[]; variations: Variation[] } {
  const s = hooks.snapshot();
  if (!s) throw new Error('no game yet');
  const t = hooks.store.get().gameTree;
  if (t && t.spec === s.view.spec && inTree(t, s.moves)) return { spec: s.view.spec, moves: [...t.moves], variations: [...t.variations] };
  return { spec: s.view.spec, moves: [...s.moves], variations: [] };
}

/** How many variations a tree holds, nested ones included. */
export function countVariations(vars: readonly Variation[]): number {
  return vars.reduce((n, v) => n + 1 + countVariations(v.variations ?? []), 0);
}

/** The JSON record of the game on the page: its tree (`recordTree`), with its review when a
 * finished one reviews the main line. */
export function gameJson(hooks: Pick<PageHooks, 'snapshot' | 'store'>): GameJson {
  const t = recordTree(hooks);
  const r = hooks.store.get().gameReview;
  const report = r?.status === 'finished' && r.report?.game === t.spec && reviews(r.report, t.moves) ? r.report : null;
  return {
    format: GAME_JSON_FORMAT,
    version: 1,
    game: t.spec,
    moves: t.moves,
    ...(t.variations.length ? { variations: t.variations } : {}),
    searches: summariesOf(hooks.store.get().searches, t.spec, t.moves),
    ...(report ? { review: report } : {}),
  };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isFigures = (v: unknown): v is MoveFigures =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as MoveFigures).move === 'string' &&
  isNum((v as MoveFigures).visits) &&
  isNum((v as MoveFigures).win_rate);

/** Reads a game's JSON record: the game, the main line, its variations (shape checked here; the
 * engine replays them, `importGameJson`), the statistics that are well formed (the others are
 * named in `notes`), and its review (`review`: null when it has none). Throws a sentence when it
 * is no such record, or when its review is malformed (`parseReviewReport`). */
export function parseGameJson(text: string): {
  game: string;
  moves: string[];
  variations: Variation[];
  searches: RootSummary[];
  review: ReviewReport | null;
  notes: string[];
} {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`not valid JSON (${errText(e)})`);
  }
  const o = v as Partial<GameJson>;
  if (typeof v !== 'object' || v === null || o.format !== GAME_JSON_FORMAT)
    throw new Error(`not a game record: expected "format": "${GAME_JSON_FORMAT}"`);
  if (typeof o.game !== 'string') throw new Error('the record has no "game" (a spec such as hex:7)');
  if (!Array.isArray(o.moves) || !o.moves.every((m) => typeof m === 'string')) throw new Error('"moves" must be a list of moves');
  if (o.variations != null && !isVariations(o.variations))
    throw new Error('"variations" must be a list of variations { "at", "moves", "variations" }');
  const variations = o.variations ?? [];
  const review = Object.hasOwn(o, 'review') && o.review !== null ? parseReviewReport(o.review) : null;
  const notes: string[] = [];
  const searches: RootSummary[] = [];
  const leftOut: number[] = [];
  for (const [i, x] of (Array.isArray(o.searches) ? o.searches : []).entries()) {
    const r = x as Partial<RootSummary>;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      isNum(r.ply) &&
      Number.isInteger(r.ply) &&
      r.ply >= 1 &&
      r.ply <= o.moves.length &&
      r.move === o.moves[r.ply - 1] &&
      (r.chosen === null || isFigures(r.chosen)) &&
      (r.best_rival === null || isFigures(r.best_rival));
    if (ok)
      searches.push({
        ply: r.ply!,
        move: r.move!,
        player: (r.ply! - 1) % 2 === 0 ? 0 : 1,
        source: r.source === 'analysis' ? 'analysis' : 'engine',
        preset: typeof r.preset === 'string' ? r.preset : '?',
        playouts: isNum(r.playouts) ? r.playouts : 0,
        ...(isNum(r.search_playouts) && r.search_playouts >= 0 ? { search_playouts: r.search_playouts } : {}),
        ...(r.leaf === 'rollout' || r.leaf === 'value' || r.leaf === 'mix' ? { leaf: r.leaf } : {}),
        chosen: r.chosen ?? null,
        best_rival: r.best_rival ?? null,
        proven: r.proven === 'win' || r.proven === 'loss' || r.proven === 'draw' ? r.proven : null,
      });
    else leftOut.push(i + 1);
  }
  // One note per search left out, or one for all of them when there are many (the message stays
  // a sentence whatever the record holds).
  if (leftOut.length > 3)
    notes.push(
      `${count(leftOut.length)} searches left out (searches ${leftOut.slice(0, 3).join(', ')} … ${leftOut[leftOut.length - 1]}: they do not match moves of the record)`,
    );
  else for (const i of leftOut) notes.push(`search ${i} left out (it does not match a move of the record)`);
  return { game: o.game, moves: o.moves, variations, searches, review, notes };
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Adds the root summaries of the game `s`'s moves (from a record, or the link's `searches=`) to
 * the page's search log, with the positions before the moves, which a worker of its own gives
 * (the game's stays put): the move list can then review them (root statistics only). */
export async function restoreSearches(
  hooks: Pick<PageHooks, 'store'>,
  s: Snapshot,
  summaries: readonly RootSummary[],
  from: 'record' | 'link',
): Promise<void> {
  if (!summaries.length) return;
  let log = hooks.store.get().searches;
  const client = new EngineClient();
  try {
    for (const sm of summaries) {
      const before = s.moves.slice(0, sm.ply - 1);
      const pos = await client.newGame(s.view.spec, before);
      const e: MoveSearch = {
        spec: s.view.spec,
        before,
        summary: sm,
        view: pos.view,
        legal: pos.legal,
        stats: null,
        tree: null,
        fromRecord: true,
        ...(from === 'link' ? { fromLink: true } : {}),
      };
      log = addSearch(log, e);
    }
  } finally {
    client.terminate('done');
  }
  hooks.store.update({ searches: log });
}

/** After a record is loaded as the game: its tree (the main line and its variations, none for a
 * record without) becomes the store's `gameTree`; returns the words on the variations for the
 * message ("" when none). */
function setRecordTree(hooks: PageHooks, moves: readonly string[], variations: readonly Variation[]): string {
  const s = hooks.snapshot()!;
  hooks.store.update({ gameTree: { spec: s.view.spec, moves: [...moves], variations: [...variations] } });
  const n = countVariations(variations);
  return n ? ` and ${count(n)} variation${n === 1 ? '' : 's'}` : '';
}

/** Reads a JSON game record and loads it with its variations and statistics (the engine replays
 * the moves and the variations; the positions before the moves come from it too). */
async function importGameJson(hooks: PageHooks, text: string): Promise<{ ok: boolean; message: string }> {
  let r: ReturnType<typeof parseGameJson>;
  try {
    r = parseGameJson(text);
    if (r.variations.length) {
      // The engine checks every variation from its branch position and gives the canonical tree
      // (record.rs); its main line starts with the record's (a merged repeat may extend it).
      const checked = await hooks.engine().parseRecord(text);
      r = { ...r, moves: checked.moves, variations: checked.variations ?? [], notes: [...checked.notes, ...r.notes] };
    }
  } catch (e) {
    const message = `Cannot read the record: ${errText(e)}`;
    hooks.showMessage(message, 'error');
    return { ok: false, message };
  }
  const loaded = await hooks.loadGame(r.game, r.moves);
  if (!loaded.ok) return { ok: false, message: loaded.message };
  const s = hooks.snapshot()!;
  const vars = setRecordTree(hooks, s.moves, r.variations);
  await restoreSearches(hooks, s, r.searches, 'record');
  const notes = [...r.notes];
  let reviewed = '';
  if (r.review) {
    // The review belongs to the main line it reviewed: the game as loaded (the engine's spec).
    if (r.review.game === s.view.spec && reviews(r.review, s.moves)) {
      hooks.review.restore(r.review);
      reviewed = ' and its review';
    } else notes.push(`its review is of another game (${r.review.game}, ${count(r.review.moves.length)} moves) and was left out`);
  }
  const message = `Loaded ${s.view.spec}, ${s.moves.length} moves${vars}, the statistics of ${r.searches.length} searches${reviewed}.${notes.length ? ` ${notes.join('; ')}.` : ''}`;
  hooks.showMessage(message);
  return { ok: true, message };
}

/** Reads a record and loads it; returns the message shown. A text over the engine's limit
 * (`MAX_RECORD_BYTES` in UTF-8) is refused here, before it is parsed or sent to the worker. */
export async function importRecord(hooks: PageHooks, text: string): Promise<{ ok: boolean; message: string }> {
  const tooLong = recordTextTooLong(text);
  if (tooLong) {
    const message = `Cannot read the record: ${tooLong}; the game on the board is kept.`;
    hooks.showMessage(message, 'error');
    return { ok: false, message };
  }
  if (text.trimStart().startsWith('{')) return importGameJson(hooks, text);
  let r: GameRecordText;
  try {
    r = await hooks.engine().parseRecord(text);
  } catch (e) {
    const message = `Cannot read the record: ${errText(e)}`;
    hooks.showMessage(message, 'error');
    return { ok: false, message };
  }
  const loaded = await hooks.loadGame(r.spec, r.moves);
  if (!loaded.ok) return { ok: false, message: loaded.message };
  const vars = setRecordTree(hooks, r.moves, r.variations ?? []);
  const message = `Loaded ${r.spec}, ${r.moves.length} moves${vars}.${r.notes.length ? ` ${r.notes.join('; ')}.` : ''}`;
  hooks.showMessage(message);
  return { ok: true, message };
}

/** The game's record as a move list or (Hex) SGF: its tree (`recordTree`); SGF keeps the
 * variations, a move list has none, so the page's message says that only the main line is
 * written. */
export async function exportRecord(hooks: PageHooks, format: 'moves' | 'sgf'): Promise<string> {
  const t = recordTree(hooks);
  const text = await hooks.engine().writeRecord(t.spec, t.moves, format, t.variations);
  if (format === 'moves' && t.variations.length) {
    const n = countVariations(t.variations);
    hooks.showMessage(
      `A move list has no variations: only the main line (${count(t.moves.length)} moves) is written, not its ${count(n)} variation${n === 1 ? '' : 's'}; SGF (Hex) and the game JSON keep them.`,
    );
  }
  return text;
}

/** The board as a stand-alone SVG: the live SVG with its computed colours written inline. */
export function boardSvg(hooks: PageHooks): string {
  const board = hooks.board();
  if (!board) throw new Error('the board is not drawn yet');
  return standaloneSvg(board.svg);
}

/** A live SVG element as a stand-alone SVG document (computed styles inlined, classes dropped). */
export function standaloneSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...svg.querySelectorAll('*')];
  const dst = [clone, ...clone.querySelectorAll('*')];
  const props = [
    'fill',
    'stroke',
    'stroke-width',
    'opacity',
    'fill-opacity',
    'stroke-opacity',
    'font-family',
    'font-size',
    'font-weight',
    'text-anchor',
    'dominant-baseline',
    'visibility',
    'display',
  ];
  src.forEach((e, i) => {
    const cs = getComputedStyle(e);
    const d = dst[i] as SVGElement;
    d.setAttribute('style', props.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';'));
    d.removeAttribute('class');
  });
  const r = svg.getBoundingClientRect();
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  if (!clone.getAttribute('width')) clone.setAttribute('width', String(Math.round(r.width)));
  if (!clone.getAttribute('height')) clone.setAttribute('height', String(Math.round(r.height)));
  return new XMLSerializer().serializeToString(clone);
}

export async function boardPng(hooks: PageHooks, scale = 2): Promise<Blob> {
  const text = boardSvg(hooks);
  const img = new Image();
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    await new Promise<void>((ok, fail) => {
      img.onload = () => ok();
      img.onerror = () => fail(new Error('the SVG could not be drawn'));
      img.src = url;
    });
    const c = h('canvas');
    c.width = Math.max(1, Math.round(img.width * scale));
    c.height = Math.max(1, Math.round(img.height * scale));
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = getComputedStyle(document.body).backgroundColor || '#fff';
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.drawImage(img, 0, 0, c.width, c.height);
    return await canvasPng(c);
  } finally {
    URL.revokeObjectURL(url);
  }
}

interface TreeJson {
  move: string | null;
  visits: number;
  q: number;
  proven: 'win' | 'loss' | 'draw' | null;
  hidden_children: number;
  children: TreeJson[];
}

/** A nested JSON tree from the compact snapshot (q for the player who moved into the node). */
export function treeJson(t: TreeSnapshot): TreeJson | null {
  if (t.count === 0) return null;
  const nodes: TreeJson[] = [];
  const proof = [null, 'win', 'loss', 'draw'] as const;
  for (let i = 0; i < t.count; i++) {
    const m = t.move[i]!;
    const n: TreeJson = {
      move: m === 65535 ? null : (t.moves[m] ?? null),
      visits: t.visits[i]!,
      q: Number(t.q[i]!.toFixed(5)),
      proven: proof[t.proven[i]!] ?? null,
      hidden_children: t.hidden[i]!,
      children: [],
    };
    nodes.push(n);
    const p = t.parent[i]!;
    if (p >= 0) nodes[p]!.children.push(n);
  }
  return nodes[0]!;
}

/** The record box's example for the game on the board: its spec, a few moves in its notation
 * (the engine's `example_moves`), and for games with SGF records a word on SGF. */
export function recordPlaceholder(spec: string | null): string {
  const g = spec ?? 'hex:7';
  const game = findGame(g);
  if (!game) return g;
  return `${g}\n${game.facts.example_moves}${game.sgf ? '   — or paste an SGF (;GM[11]…)' : ''}`;
}

export function mountRecords(hooks: PageHooks, teach: { buildUrl(): string; lastSlot: string }): void {
  const { panel, movesHeading } = hooks.elements;
  const copyLink = h(
    'button',
    { type: 'button', id: 'copy-link', title: 'Copy a link that opens this position and these settings' },
    'Copy link',
  );
  const copyEmbed = h(
    'button',
    {
      type: 'button',
      id: 'copy-embed',
      title: 'Copy the lines that put this board, with these settings, into a course page (see the teachers’ guide)',
    },
    'Copy embed code',
  );
  const text = h('textarea', {
    id: 'record-text',
    rows: '3',
    spellcheck: 'false',
    'aria-label': 'Game record: a move list (spec on the first line, then moves) or a Hex SGF',
    placeholder: recordPlaceholder(null),
  });
  const load = h('button', { type: 'button', id: 'record-load' }, 'Load record');
  const file = h('input', {
    type: 'file',
    id: 'record-file',
    accept: '.sgf,.txt,.json,text/plain,application/json',
    'aria-label': 'Load a record file',
  });
  const showMoves = h('button', { type: 'button', id: 'record-show' }, 'Show move list');
  const showSgf = h('button', { type: 'button', id: 'record-show-sgf' }, 'Show SGF');
  const dlMoves = h('button', { type: 'button', id: 'dl-moves' }, 'Move list ⤓');
  const dlSgf = h('button', { type: 'button', id: 'dl-sgf' }, 'SGF ⤓');
  const dlSvg = h('button', { type: 'button', id: 'dl-svg' }, 'Board SVG ⤓');
  const dlPng = h('button', { type: 'button', id: 'dl-png' }, 'Board PNG ⤓');
  const showJson = h(
    'button',
    { type: 'button', id: 'record-show-json', title: 'The game with each engine move’s root statistics' },
    'Show JSON',
  );
  const dlJson = h(
    'button',
    {
      type: 'button',
      id: 'dl-json',
      title: 'The game as JSON: moves and each engine move’s root statistics (N, Q, best rival, preset, playouts)',
    },
    'Game JSON ⤓',
  );
  const dlTree = h('button', { type: 'button', id: 'dl-tree' }, 'Tree JSON ⤓');
  const dlTreeSvg = h('button', { type: 'button', id: 'dl-tree-svg', title: 'The “Top of the tree” node-link view as SVG' }, 'Tree SVG ⤓');
  const dlTreePng = h('button', { type: 'button', id: 'dl-tree-png', title: 'The tree overview (icicle) as PNG' }, 'Tree PNG ⤓');
  const box = h(
    'fieldset',
    { id: 'share' },
    h('legend', {}, 'Share & records'),
    h(
      'div',
      { class: 'row' },
      copyLink,
      copyEmbed,
      h('a', { href: './docs.html', id: 'docs-link', target: '_blank' }, 'Teachers: embed & docs'),
    ),
    text,
    h('div', { class: 'row buttons' }, load, showMoves, showSgf, showJson),
    h('div', { class: 'row' }, file),
    h('div', { class: 'row buttons' }, dlMoves, dlSgf, dlJson, dlSvg, dlPng, dlTree, dlTreeSvg, dlTreePng),
  );
  const style = h('style');
  style.textContent =
    '#share textarea{width:100%;box-sizing:border-box;font:12px/1.3 ui-monospace,monospace}#share input[type=file]{max-width:100%;font-size:0.8rem}#share .row{flex-wrap:wrap}';
  document.head.append(style);
  panel.insertBefore(box, movesHeading);

  const guard = (f: () => Promise<void> | void) => async () => {
    try {
      await f();
    } catch (e) {
      hooks.showMessage(errText(e), 'error');
    }
  };
  const base = () => {
    const s = hooks.snapshot();
    return s ? `${s.view.spec.replace(/:/g, '-')}-${s.moves.length}` : 'game';
  };
  /** Copies `text` to the clipboard with `done`, or leaves it in the record box to copy by hand. */
  const copyOut = async (value: string, done: string, what: string): Promise<void> => {
    try {
      await navigator.clipboard.writeText(value);
      hooks.showMessage(done);
    } catch {
      text.value = value;
      hooks.showMessage(`The clipboard is not available here: the ${what} is in the record box.`);
    }
  };
  copyLink.addEventListener(
    'click',
    guard(async () => {
      const url = new URL(teach.buildUrl(), location.href).href;
      await copyOut(url, 'Link copied: it opens this position with these settings.', 'link');
      copyLink.dataset.url = url;
    }),
  );
  copyEmbed.addEventListener(
    'click',
    guard(async () => {
      const url = new URL(teach.buildUrl(), location.href);
      const code = embedSnippet(siteBaseOf(url.href), url.searchParams);
      await copyOut(code, 'Embed code copied: paste it into a course page (any site) to show this board there.', 'embed code');
      copyEmbed.dataset.code = code;
    }),
  );
  load.addEventListener(
    'click',
    guard(async () => void (await importRecord(hooks, text.value))),
  );
  file.addEventListener(
    'change',
    guard(async () => {
      const f = file.files?.[0];
      if (!f) return;
      file.value = '';
      // The size first: a file over the limit is never read (reading 100 MB into the record box
      // froze the page, and crashed the tab).
      if (f.size > MAX_RECORD_BYTES) {
        hooks.showMessage(
          `Cannot read the record file “${f.name}”: ${recordTooLong(f.size)}; nothing was read and the game on the board is kept.`,
          'error',
        );
        return;
      }
      text.value = await f.text();
      await importRecord(hooks, text.value);
    }),
  );
  // A paste over the limit is refused before it reaches the box (a huge text in a textarea
  // freezes the page by itself); a smaller one that makes the box too long is refused on Load.
  text.addEventListener('paste', (ev) => {
    const pasted = ev.clipboardData?.getData('text/plain') ?? '';
    const tooLong = recordTextTooLong(pasted);
    if (!tooLong) return;
    ev.preventDefault();
    hooks.showMessage(`The pasted text is not put in the record box: ${tooLong}.`, 'error');
  });
  showMoves.addEventListener(
    'click',
    guard(async () => {
      text.value = await exportRecord(hooks, 'moves');
    }),
  );
  showSgf.addEventListener(
    'click',
    guard(async () => {
      text.value = await exportRecord(hooks, 'sgf');
    }),
  );
  showJson.addEventListener(
    'click',
    guard(() => {
      text.value = JSON.stringify(gameJson(hooks), null, 1);
    }),
  );
  dlJson.addEventListener(
    'click',
    guard(() => downloadJson(`${base()}.json`, gameJson(hooks))),
  );
  dlMoves.addEventListener(
    'click',
    guard(async () => downloadText(`${base()}.txt`, await exportRecord(hooks, 'moves'))),
  );
  dlSgf.addEventListener(
    'click',
    guard(async () => downloadText(`${base()}.sgf`, await exportRecord(hooks, 'sgf'), 'application/x-go-sgf')),
  );
  dlSvg.addEventListener(
    'click',
    guard(() => downloadSvg(`${base()}.svg`, boardSvg(hooks))),
  );
  dlPng.addEventListener(
    'click',
    guard(async () => downloadBlob(`${base()}.png`, await boardPng(hooks))),
  );
  dlTree.addEventListener(
    'click',
    guard(async () => {
      const slots = [teach.lastSlot, 'p0', 'p1', 'hint'];
      for (const slot of slots) {
        const r = await hooks.engine().inspect(slot, { minVisits: 1, topK: 64, depth: 6, maxNodes: 20000 });
        if (r.tree && r.tree.count > 0) {
          const json = {
            game: hooks.snapshot()?.view.spec,
            moves: hooks.snapshot()?.moves,
            slot,
            total_nodes: r.tree.total,
            q_view: 'player who made the move into the node',
            tree: treeJson(r.tree),
          };
          downloadJson(`${base()}-tree.json`, json);
          return;
        }
      }
      throw new Error('No search tree yet: let an engine move or ask for a hint first.');
    }),
  );
  dlTreeSvg.addEventListener(
    'click',
    guard(() => {
      const { svg, nodes } = hooks.trees.nodeLink();
      // An SVG without nodes (its empty groups only) would download as an empty picture.
      if (nodes === 0) throw new Error('No tree drawn yet: run an analysis (or let the engine think) first.');
      downloadSvg(`${base()}-tree.svg`, standaloneSvg(svg));
    }),
  );
  dlTreePng.addEventListener(
    'click',
    guard(async () => {
      const { canvas, nodes } = hooks.trees.icicle();
      // The canvas is always sized: without nodes it holds only the "No tree yet" text.
      if (canvas.width === 0 || !(nodes > 0)) throw new Error('No tree overview drawn yet: run an analysis first.');
      downloadBlob(`${base()}-tree.png`, await canvasPng(canvas));
    }),
  );
  const sync = () => {
    const s = hooks.snapshot();
    const sgf = !!s && !!findGame(s.view.kind)?.sgf;
    dlSgf.disabled = !sgf;
    showSgf.disabled = !sgf;
    dlSgf.title = sgf ? 'Download the game as SGF (HexGui style, GM[11])' : 'SGF is for Hex games only';
    text.placeholder = recordPlaceholder(s?.view.spec ?? null);
  };
  hooks.store.subscribe((st, prev) => {
    if (st.snapshot?.view.spec !== prev.snapshot?.view.spec) sync();
  });
  sync();
}
