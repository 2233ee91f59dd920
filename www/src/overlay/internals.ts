// The policy internals panel, from the engine's statistics (Rust `SearchStats.children` and
// `PolicyStats`): for RAVE/GRAVE each root child's Q next to its AMAF Q with the weight β the
// selection uses (value = (1 − β)·Q + β·AMAF); for LGR/LGRF the stored replies; for PoolRAVE the
// current pool; how often decisive / anti-decisive moves and the depth-2 search fired; MAST's best
// moves; the proven root children (MCTS-Solver); and for PUCT presets each child's prior P, N, Q
// and exploration term U = c·P·√N/(1+n) (Silver et al. 2017) with the formula, next to the
// evaluator's value of the position (a network's value head).

import type { ExactValue, FullStats, PositionEvaluation } from '../protocol';
import { h } from '../lib/dom';
import { RAW_Q_NOTE, count, moveWinRate, provenTitle, rawQ, winRate } from '../lib/format';

const f2 = rawQ;

/** The PUCT section: the formula with this search's c and N, the evaluator, and the value head. */
function puctSection(st: FullStats, ev: PositionEvaluation | null): HTMLElement {
  const c = st.puct_c ?? null;
  const n = st.root_visits ?? st.children.reduce((a, x) => a + x.visits, 0);
  const source =
    st.evaluator === 'net'
      ? `the network’s policy head${ev?.net ? ` (${ev.net.source === 'user' ? `your network “${ev.net.name}”` : ev.net.name}, ${count(ev.net.parameters)} parameters)` : ''}`
      : st.evaluator === 'tactical'
        ? 'tactical priors (wins, then blocks, weigh more)'
        : 'uniform priors, 1 / (legal moves)';
  const parts: (HTMLElement | string)[] = [
    h('strong', {}, 'PUCT: '),
    h('span', { class: 'mono formula' }, 'score = Q + U,  U = c·P·√N / (1 + n)'),
    ` (Silver et al. 2017), c = ${c === null ? '?' : c}, N = ${count(n)} root visits; n and Q are the child’s, an unvisited child counts Q = fpu. P comes from ${source}.`,
  ];
  if (ev?.value !== null && ev?.value !== undefined)
    parts.push(
      ' ',
      h(
        'span',
        { class: 'value-head', 'data-value': String(ev.value) },
        `Value head at this position: ${winRate(ev.value)} for the side to move (raw v = ${rawQ(ev.value)} on [0, 1]; the search’s best Q: ${winRate(st.value)}).`,
      ),
    );
  return h('p', { class: 'puct-note' }, ...parts);
}

/** The exact solver's mark of a move for the root-move table: ✓ win, = draw, ✗ loss, blank
 * unknown. */
export function exactMark(v: ExactValue | null | undefined): string {
  return v === 'win' ? '✓ win' : v === 'draw' ? '= draw' : v === 'loss' ? '✗ loss' : '';
}

/** `exact`: the exact solver's values of the root moves for the side to move (Solve), which add
 * a column; null: no solve of this position. */
export function renderInternals(
  host: HTMLElement,
  st: FullStats | null,
  ev: PositionEvaluation | null = null,
  exact: ReadonlyMap<string, ExactValue | null> | null = null,
): { lgrReplies: HTMLElement | null } {
  if (!st) {
    host.replaceChildren(h('p', { class: 'muted' }, 'Run an analysis to see the policy internals.'));
    return { lgrReplies: null };
  }
  const parts: HTMLElement[] = [];
  const p = st.policy;
  // A search that values its leaves by the network runs no playout: no playout policy to name.
  if (st.leaf === 'value')
    parts.push(
      h(
        'p',
        { class: 'leaf-eval' },
        h('strong', {}, 'Leaf evaluation: '),
        'the network’s value head v — no playouts: each iteration adds one position to the tree and backs up v, its value for the side to move there (Silver et al. 2017).',
      ),
    );
  else {
    parts.push(h('p', {}, h('strong', {}, 'Playout policy: '), p.active.join(', ')));
    if (st.leaf === 'mix')
      parts.push(
        h(
          'p',
          { class: 'leaf-eval' },
          h('strong', {}, 'Leaf evaluation: '),
          '(1 − λ)·v + λ·z, the network’s value head v mixed with the playout’s result z (Silver et al. 2016).',
        ),
      );
  }
  const top = st.children.slice(0, 12);
  const hasBeta = top.some((c) => c.beta !== null);
  const hasPrior = top.some((c) => c.prior !== null);
  // Root children: Q, AMAF Q, β, prior, proven.
  const head = [
    'move',
    'N',
    'win rate',
    'Q (raw)',
    ...(hasBeta ? ['AMAF N', 'AMAF Q', 'β', '(1−β)Q+βA'] : []),
    ...(hasPrior ? ['P', 'U = c·P·√N/(1+n)', 'Q + U'] : []),
    'proven',
    ...(exact ? ['exact'] : []),
  ];
  const table = h('table', { class: 'internals-table' });
  const headTitle = (x: string) =>
    x === 'exact'
      ? 'The exact solver’s value of the move for the player choosing it (Solve): ✓ win, = draw, ✗ loss, blank not proven yet'
      : x === 'proven'
        ? 'Proven by MCTS-Solver inside this search'
        : undefined;
  table.append(h('thead', {}, h('tr', {}, ...head.map((x) => h('th', { title: headTitle(x) }, x)))));
  const body = h('tbody', {});
  for (const c of top) {
    const cells = [c.move, count(c.visits), moveWinRate(c.q, c.proven), f2(c.q)];
    if (hasBeta) {
      const mix = c.beta !== null && c.amaf_q !== null ? (1 - c.beta) * c.q + c.beta * c.amaf_q : null;
      cells.push(String(c.amaf_visits), f2(c.amaf_q), f2(c.beta), f2(mix));
    }
    if (hasPrior) {
      const u = c.puct_u ?? null;
      // The score as selection computes it: Q, or fpu (unknown here: shown as "fpu + U") unvisited.
      cells.push(f2(c.prior), f2(u), u === null ? '' : c.visits > 0 ? f2(c.q + u) : `fpu + ${f2(u)}`);
    }
    cells.push(c.proven ?? '');
    const tds = cells.map((x) => h('td', {}, x));
    // A proven move's win rate is its proven value; the title keeps its playouts' mean.
    if (c.proven) tds[2]!.title = provenTitle(c.q, c.proven);
    if (exact) {
      const v = exact.get(c.move) ?? null;
      tds.push(
        h(
          'td',
          { class: `exact-${v ?? 'open'}`, 'data-exact': v ?? 'open', title: v === null ? 'not proven yet' : undefined },
          exactMark(v),
        ),
      );
    }
    body.append(h('tr', { class: c.proven ? `proven-${c.proven}` : undefined, 'data-move': c.move }, ...tds));
  }
  table.append(body);
  if (hasPrior) parts.push(puctSection(st, ev));
  parts.push(h('div', { class: 'table-wrap' }, table));
  parts.push(
    h(
      'p',
      { class: 'muted small' },
      hasBeta
        ? `${RAW_Q_NOTE}; AMAF Q likewise (the formulas use them raw). β is the RAVE/GRAVE weight of AMAF in selection (sqrt schedule of Gelly & Silver 2011, or GRAVE’s of Cazenave 2015).`
        : `${RAW_Q_NOTE}. No AMAF statistics in this configuration (choose a RAVE or GRAVE preset to see Q next to AMAF with β).`,
    ),
  );
  const counts = h('dl', { class: 'counts' });
  const add = (k: string, v: string) => counts.append(h('dt', {}, k), h('dd', {}, v));
  add('decisive moves played', p.decisive_moves_played.toLocaleString('en'));
  add('anti-decisive moves played', p.anti_decisive_moves_played.toLocaleString('en'));
  add('depth-2 root search', `${p.depth2} (fired ${p.depth2_firings}×)`);
  add(
    'LGR replies played',
    `${p.lgr_replies_played.toLocaleString('en')} (stored: ${p.lgr_table_size[0]} one-move, ${p.lgr_table_size[1]} two-move)`,
  );
  add('PoolRAVE pool moves played', p.pool_moves_played.toLocaleString('en'));
  add('MAST moves played', p.mast_moves_played.toLocaleString('en'));
  add('save-bridge answers played', p.save_bridge_moves_played.toLocaleString('en'));
  add('proven root', st.proven ?? 'no');
  const provenKids = st.children.filter((c) => c.proven);
  add('proven root children', provenKids.length ? provenKids.map((c) => `${c.move} ${c.proven}`).join(', ') : 'none');
  parts.push(counts);
  let lgrReplies: HTMLElement | null = null;
  if (p.lgr_replies.length) {
    lgrReplies = h(
      'p',
      { class: 'lgr-replies' },
      h('strong', {}, `Stored last-good replies (${p.lgr_replies.length} shown): `),
      h(
        'span',
        { class: 'mono' },
        p.lgr_replies
          .slice(0, 40)
          .map(([a, b]) => `${a}→${b}`)
          .join('  '),
      ),
    );
    parts.push(lgrReplies);
  }
  if (p.pool.length)
    parts.push(h('p', {}, h('strong', {}, 'PoolRAVE pool (best AMAF first): '), h('span', { class: 'mono' }, p.pool.join(' '))));
  if (p.mast_top.length) {
    parts.push(
      h(
        'p',
        {},
        h('strong', {}, 'MAST best moves: '),
        h('span', { class: 'mono' }, p.mast_top.map(([m, q, n]) => `${m} ${winRate(q)} (${count(n)})`).join(', ')),
      ),
    );
  }
  host.replaceChildren(...parts);
  return { lgrReplies };
}
