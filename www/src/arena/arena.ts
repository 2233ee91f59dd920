// The arena in the browser: configuration A against B on one game for a number of games, colours
// alternating (A moves first in even-numbered games), optionally on balanced openings (every first
// move, each twice with colours swapped, as `mcts arena --openings all`; the default for Hex
// without the swap rule, a first-player win), played in workers (as many as the machine
// has cores, at most 8). Each game is the engine's own `arena::play_game` (through wasm), with
// engine seeds derived from (seed, game index), so an iteration budget gives the same games and
// results as `mcts arena --iterations N --seed S`; the standings (wins/draws/losses, win rate with
// its 95% Wilson interval, Elo difference, the per-colour split) are the engine's `arena::Standings`. Live standings, a
// uPlot chart of the win rate with its interval as games accumulate, the games' table, and CSV /
// JSON downloads (the JSON has the shape of `mcts arena --json`).
//
// This file is the view: the form, the standings, the chart and the games' table, drawn from the
// controller's state (controller.ts), which plays the matches.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { EngineClient } from '../engine';
import { SERIES_COLOURS, withAlpha } from '../lib/colour';
import { h } from '../lib/dom';
import { downloadCsv, downloadJson } from '../lib/download';
import { count, winRate } from '../lib/format';
import { safeHref } from '../lib/safe-url';
import { labelPresetOptions } from '../play/nets';
import type { GameRecord, Snapshot, Standings } from '../protocol';
import { queryString } from '../share/url';
import { type ArenaSetup, type PageStore, whenPresets } from '../state';
import { ArenaController, type ArenaForm, type ArenaState, defaultOpenings, type HistoryPoint } from './controller';
import { arenaCsv, firstPlayerNote, fmtEloCells, fmtRateCi } from './figures';
import type { PresetName } from '../generated/schema';

const [A, B] = SERIES_COLOURS;

/** Builds the Arena's form and panels into `host`; returns their elements. */
function buildArena(host: HTMLElement) {
  const cores = navigator.hardwareConcurrency || 2;
  const spec = h('input', { id: 'ar-game', value: 'hex:5', size: '10', 'aria-label': 'Game spec' });
  const presetA = h('select', { id: 'ar-a', 'aria-label': 'Preset of configuration A' });
  const presetB = h('select', { id: 'ar-b', 'aria-label': 'Preset of configuration B' });
  const setA = h('input', {
    id: 'ar-set-a',
    placeholder: 'e.g. c=0.5 rave_k=300',
    size: '18',
    'aria-label': 'Parameters of A (key=value)',
  });
  const setB = h('input', { id: 'ar-set-b', placeholder: 'e.g. c=0.5', size: '18', 'aria-label': 'Parameters of B (key=value)' });
  const games = h('input', {
    id: 'ar-games',
    type: 'number',
    min: '1',
    max: '10000',
    value: '20',
    class: 'num',
    'aria-label': 'Number of games',
  });
  const budget = h('input', { id: 'ar-budget', type: 'number', min: '1', value: '2000', class: 'num', 'aria-label': 'Budget per move' });
  const unit = h(
    'select',
    { id: 'ar-unit', 'aria-label': 'Budget unit' },
    h('option', { value: 'iterations' }, 'iterations/move'),
    h('option', { value: 'millis' }, 'ms/move'),
  );
  const seed = h('input', { id: 'ar-seed', type: 'number', min: '0', value: '1', class: 'num', 'aria-label': 'Seed' });
  const workers = h('input', {
    id: 'ar-workers',
    type: 'number',
    min: '1',
    max: '8',
    value: String(Math.min(8, Math.max(1, cores))),
    class: 'num',
    'aria-label': 'Workers',
  });
  const openings = h('input', {
    id: 'ar-openings',
    type: 'checkbox',
    'aria-label': 'Balanced openings: every first move, colours swapped',
  });
  openings.checked = defaultOpenings(spec.value);
  const runBtn = h('button', { type: 'button', id: 'ar-run', class: 'primary' }, 'Play');
  const stopBtn = h('button', { type: 'button', id: 'ar-stop', disabled: '' }, 'Stop');
  const csvBtn = h('button', { type: 'button', id: 'ar-csv', disabled: '' }, 'CSV');
  const jsonBtn = h('button', { type: 'button', id: 'ar-json', disabled: '' }, 'JSON');
  const status = h('div', { id: 'ar-status', class: 'an-status', role: 'status' }, 'Pick two configurations and press Play.');
  const progress = h('progress', { id: 'ar-progress', max: '1', value: '0', 'aria-label': 'Games played', hidden: '' });
  const standingsHost = h('div', { id: 'ar-standings', class: 'table-wrap' });
  const chartHost = h('div', { class: 'chart', id: 'ar-chart' });
  const tableHost = h('div', { id: 'ar-games-table', class: 'table-wrap ar-games' });
  host.append(
    h('h2', {}, 'Arena'),
    h(
      'div',
      { class: 'ar-form' },
      h('label', {}, 'game ', spec),
      h('label', {}, h('span', { class: 'sw', style: `background:${A}` }), ' A ', presetA, setA),
      h('label', {}, h('span', { class: 'sw', style: `background:${B}` }), ' B ', presetB, setB),
      h('label', {}, 'games ', games),
      h('label', {}, budget, unit),
      h('label', {}, 'seed ', seed),
      h(
        'label',
        {
          title:
            'Game 2j and 2j+1 start from first move j (of all legal first moves, in turn), A first in the even one. On by default for Hex without the swap rule, where the first player wins most games from the empty board.',
        },
        openings,
        ' balanced openings: every first move, colours swapped',
      ),
      h('label', { title: `This machine reports ${cores} cores; at most 8 workers` }, 'workers ', workers),
      h('span', { class: 'row' }, runBtn, stopBtn, csvBtn, jsonBtn),
    ),
    h(
      'p',
      { class: 'muted small' },
      'Colours alternate: A moves first in games 0, 2, 4, … With balanced openings, games 2j and 2j+1 start from the same first move (every legal first move in turn, 2 games each: Hex n×n has n²), so the split by colour shows how much moving first weighs. With an iteration budget the games are reproducible and equal to ',
      h('code', {}, 'mcts arena --game … --a … --b … --iterations N --seed S --openings all|none'),
      '; a time budget depends on the machine.',
    ),
    status,
    progress,
    h(
      'div',
      { class: 'an-grid' },
      h(
        'div',
        { class: 'an-card' },
        h('h3', {}, 'Standings of A against B'),
        standingsHost,
        h('h3', {}, 'Win rate of A as games accumulate (band: 95% Wilson interval)'),
        chartHost,
      ),
      h('div', { class: 'an-card' }, h('h3', {}, 'Games'), tableHost),
    ),
  );
  return {
    spec,
    presetA,
    presetB,
    setA,
    setB,
    games,
    budget,
    unit,
    seed,
    workers,
    openings,
    runBtn,
    stopBtn,
    csvBtn,
    jsonBtn,
    status,
    progress,
    standingsHost,
    chartHost,
    tableHost,
  };
}

/** The standings table, the first player's share, and (when moving first decided the match) a
 * note with the remedy: `onSwap` takes the game with the swap rule. */
function drawStandings(
  standingsHost: HTMLElement,
  s: Standings | null,
  matchOf: ArenaState['match'],
  onSwap: (spec: string) => void,
): void {
  if (!s) {
    standingsHost.replaceChildren();
    return;
  }
  const elo = fmtEloCells(s);
  const t = h(
    'table',
    { class: 'data-table', id: 'ar-standings-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['', 'games', 'wins', 'draws', 'losses', 'win rate', '95% CI (Wilson)', 'Elo', 'Elo 95% CI'].map((x) => h('th', {}, x)),
      ),
    ),
    h(
      'tbody',
      {},
      h(
        'tr',
        {},
        h('td', {}, 'A vs B'),
        h('td', { 'data-k': 'games' }, String(s.games)),
        h('td', { 'data-k': 'wins' }, String(s.wins)),
        h('td', { 'data-k': 'draws' }, String(s.draws)),
        h('td', { 'data-k': 'losses' }, String(s.losses)),
        h('td', { 'data-k': 'rate' }, winRate(s.win_rate)),
        h('td', {}, fmtRateCi(s.win_rate_ci95)),
        h('td', { 'data-k': 'elo' }, elo.elo),
        h('td', { 'data-k': 'elo-ci' }, elo.ci),
      ),
      ...(
        [
          ['first', 'A first', s.a_first_games, s.a_first_wins, s.a_first_draws, s.a_first_losses],
          ['second', 'A second', s.a_second_games, s.a_second_wins, s.a_second_draws, s.a_second_losses],
        ] as const
      ).map(([k, label, n, w, d, l]) =>
        h(
          'tr',
          { class: 'ar-colour', 'data-colour': k },
          h('td', { title: `A as the ${k} player (player ${k === 'first' ? 0 : 1})` }, label),
          h('td', { 'data-k': `a-${k}-games` }, String(n)),
          h('td', { 'data-k': `a-${k}-wins` }, String(w)),
          h('td', { 'data-k': `a-${k}-draws` }, String(d)),
          h('td', { 'data-k': `a-${k}-losses` }, String(l)),
          h('td', {}, n ? winRate((w + 0.5 * d) / n) : '–'),
          h('td', { colspan: '3' }),
        ),
      ),
    ),
  );
  const split = h(
    'p',
    { class: 'muted small', id: 'ar-first-player' },
    'The first player won ',
    h('strong', { 'data-k': 'first-player-wins' }, String(s.first_player_wins)),
    ` of ${s.games} games, the second player `,
    h('strong', { 'data-k': 'second-player-wins' }, String(s.second_player_wins)),
    `, ${s.draws} drawn.`,
  );
  // When moving first decided the match: say so, and offer the remedy.
  const note = matchOf ? firstPlayerNote(matchOf.spec, s, matchOf.openings) : null;
  if (note) {
    const p = h('p', { class: 'small ar-first-note', id: 'ar-first-note' }, note.text, ' ');
    if (note.swapSpec) {
      const to = note.swapSpec;
      const b = h('button', { type: 'button', id: 'ar-try-swap' }, `Use ${to}`);
      b.addEventListener('click', () => onSwap(to));
      p.append(b);
    }
    standingsHost.replaceChildren(t, split, p);
  } else standingsHost.replaceChildren(t, split);
}

/** The win rate of A as games accumulate, with its 95% interval as a band; `host` colours the axes.
 * Returns the chart (created on the first call, its data replaced on the next). */
function drawChart(host: HTMLElement, chartHost: HTMLElement, chart: uPlot | null, history: readonly HistoryPoint[]): uPlot {
  const cs = getComputedStyle(host);
  const fg = cs.getPropertyValue('--muted').trim() || '#666';
  const grid = cs.getPropertyValue('--border').trim() || '#ddd';
  const ax = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  // Win rates in percent, 0–100, as everywhere on the page.
  const data: uPlot.AlignedData = [
    history.map((x) => x.games),
    history.map((x) => x.rate * 100),
    history.map((x) => x.lo * 100),
    history.map((x) => x.hi * 100),
    history.map(() => 50),
  ];
  const width = Math.max(260, chartHost.clientWidth || 500);
  if (!chart) {
    return new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: false }, y: { range: [0, 100] } },
        // Whole games only on the x axis.
        axes: [
          { ...ax, label: 'games', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] },
          { ...ax, label: 'win rate of A (%)', size: 60, values: (_u, vals) => vals.map((v) => `${v}%`) },
        ],
        series: [
          { label: 'games' },
          {
            label: 'win rate',
            stroke: A,
            width: 2,
            points: { show: true, size: 4 },
            value: (_u, v) => (v == null ? '–' : `${v.toFixed(1)}%`),
          },
          {
            label: '95% low',
            stroke: withAlpha(A, 0.35),
            width: 1,
            points: { show: false },
            value: (_u, v) => (v == null ? '–' : `${v.toFixed(1)}%`),
          },
          {
            label: '95% high',
            stroke: withAlpha(A, 0.35),
            width: 1,
            points: { show: false },
            value: (_u, v) => (v == null ? '–' : `${v.toFixed(1)}%`),
          },
          { label: 'even', stroke: fg, width: 1, dash: [4, 4], points: { show: false }, value: () => '50%' },
        ],
        bands: [{ series: [3, 2], fill: withAlpha(A, 0.15) }],
        legend: { live: false },
      },
      data,
      chartHost,
    );
  }
  chart.setData(data);
  return chart;
}

/** The play view's URL for a finished game: its moves on the board, both sides people, so it
 * can be replayed move by move (Undo, Redo, the move list) without an engine moving on. */
function gameLink(gameSpec: string, r: GameRecord): string | null {
  const q = new URLSearchParams({ game: gameSpec, moves: r.moves.join(' '), p0: 'person', p1: 'person' });
  // Resolved against the page's address (`location.pathname` could start with `//`, which a
  // link would read as another host); `safeHref` checks the scheme as for every built link.
  return safeHref(`?${queryString(q)}`, location.href);
}

/** The games' table, each game a link that opens it in the play view. */
function drawTable(tableHost: HTMLElement, records: readonly GameRecord[], gameSpec: string): void {
  const rows = [...records]
    .sort((a, b) => a.index - b.index)
    .map((r) =>
      h(
        'tr',
        { 'data-index': String(r.index) },
        h(
          'td',
          {},
          h(
            'a',
            {
              href: gameLink(gameSpec, r),
              target: '_blank',
              rel: 'noopener',
              class: 'ar-open',
              title: 'Open this game in the play view (a new tab): replay it move by move with Undo / Redo',
            },
            `game ${r.index} ▸`,
          ),
        ),
        h('td', {}, r.a_first ? 'A first' : 'B first'),
        h('td', { class: 'mono', 'data-k': 'opening' }, r.opening_plies ? r.moves.slice(0, r.opening_plies).join(' ') : '–'),
        h(
          'td',
          { class: r.a_score === 1 ? 'win' : r.a_score === 0 ? 'loss' : '' },
          r.a_score === 1 ? 'A wins' : r.a_score === 0 ? 'B wins' : 'draw',
        ),
        h('td', {}, String(r.moves.length)),
        h('td', { class: 'mono moves-cell' }, r.moves.join(' ')),
      ),
    );
  tableHost.replaceChildren(
    h(
      'table',
      { class: 'data-table' },
      h('thead', {}, h('tr', {}, ...['game (opens it)', 'colours', 'opening', 'result', 'plies', 'moves'].map((x) => h('th', {}, x)))),
      h('tbody', {}, ...rows),
    ),
  );
}

export interface ArenaHooks {
  store: PageStore;
  snapshot(): Snapshot | null;
  presets(): string[];
}

export { defaultOpenings };

export function mountArena(host: HTMLElement, hooks: ArenaHooks): void {
  const el = buildArena(host);
  const controller = new ArenaController({ presets: hooks.presets, newEngine: () => new EngineClient(), now: () => performance.now() });
  let chart: uPlot | null = null;

  function syncPresets(): void {
    const ps = hooks.presets();
    for (const [sel, dflt] of [
      [el.presetA, 'rave' satisfies PresetName],
      [el.presetB, 'uct' satisfies PresetName],
    ] as const) {
      if (sel.options.length !== ps.length) {
        sel.replaceChildren(...ps.map((x) => h('option', { value: x }, x)));
        sel.value = ps.includes(dflt) ? dflt : (ps[0] ?? '');
      }
      // Which presets need a network, and whether this game has one.
      labelPresetOptions(sel, hooks.store.get().nets, el.spec.value.trim());
    }
  }

  const form = (): ArenaForm => ({
    spec: el.spec.value,
    presetA: el.presetA.value,
    presetB: el.presetB.value,
    setA: el.setA.value,
    setB: el.setB.value,
    games: el.games.value,
    budget: el.budget.value,
    unit: el.unit.value === 'millis' ? 'millis' : 'iterations',
    seed: el.seed.value,
    workers: el.workers.value,
    openings: el.openings.checked,
  });

  /** The game with the swap rule, from the first-player note. */
  const useSwap = (to: string) => {
    el.spec.value = to;
    el.spec.dispatchEvent(new Event('change', { bubbles: true }));
    el.status.textContent = `Game set to ${to}: press Play for a match with the swap rule.`;
  };

  controller.state.subscribe((s, prev) => {
    if (s.fallback !== prev.fallback && s.fallback) {
      el.presetA.value = s.fallback.a;
      el.presetB.value = s.fallback.b;
      host.dataset.fallback = s.fallback.preset;
    }
    if (s.standings !== prev.standings || s.match !== prev.match) drawStandings(el.standingsHost, s.standings, s.match, useSwap);
    if (s.history !== prev.history) {
      if (s.history.length) chart = drawChart(host, el.chartHost, chart, s.history);
      else {
        chart?.destroy();
        chart = null;
      }
    }
    if (s.records !== prev.records) drawTable(el.tableHost, s.records, s.match?.spec ?? '');
    if (s.games !== prev.games || s.played !== prev.played || s.state !== prev.state) {
      if (s.state === 'running') el.progress.hidden = false;
      el.progress.max = s.games;
      el.progress.value = s.played;
    }
    if (s.status !== prev.status) el.status.textContent = s.status.text;
    if (s.memoryCapped !== prev.memoryCapped && s.memoryCapped !== null) host.dataset.memoryCapped = String(s.memoryCapped);
    el.runBtn.disabled = s.state === 'running';
    el.stopBtn.disabled = s.state !== 'running';
    // Every answer to Play (a refused form again too) says its state.
    host.dataset.state = s.state;
    el.csvBtn.disabled = !s.result;
    el.jsonBtn.disabled = !s.result;
  });

  const base = () => {
    const r = controller.state.get().result;
    return `arena-${(r?.game ?? 'game').replace(/[^a-z0-9]+/gi, '-')}-${r?.a}-vs-${r?.b}-seed${r?.seed}`;
  };
  el.jsonBtn.addEventListener('click', () => {
    const r = controller.state.get().result;
    if (r) downloadJson(`${base()}.json`, r);
  });
  el.csvBtn.addEventListener('click', () => {
    const r = controller.state.get().result;
    if (r) downloadCsv(`${base()}.csv`, ...arenaCsv(r.records));
  });
  el.runBtn.addEventListener('click', () => {
    syncPresets();
    void controller.play(form());
  });
  el.stopBtn.addEventListener('click', () => controller.stop());
  new ResizeObserver(() => chart?.setSize({ width: Math.max(260, el.chartHost.clientWidth || 500), height: 220 })).observe(el.chartHost);
  whenPresets(hooks.store, syncPresets);
  el.spec.addEventListener('change', () => {
    syncPresets();
    // The default follows the game, as on the command line; the box may then be changed.
    el.openings.checked = defaultOpenings(el.spec.value);
  });
  el.presetA.addEventListener('focus', syncPresets);
  el.presetB.addEventListener('focus', syncPresets);
  hooks.store.subscribe((s, prev) => {
    if (s.nets !== prev.nets) syncPresets();
  });
  // A match set up from Compare's panes: the form takes it (the game first: its change sets the
  // default openings and the preset lists), and says where it comes from.
  const takeSetup = (x: ArenaSetup) => {
    el.spec.value = x.game;
    el.spec.dispatchEvent(new Event('change', { bubbles: true }));
    syncPresets();
    el.presetA.value = x.a.preset;
    el.presetB.value = x.b.preset;
    el.setA.value = x.a.sets;
    el.setB.value = x.b.sets;
    el.budget.value = String(x.budget);
    el.unit.value = x.unit;
    el.seed.value = x.seed;
    el.status.textContent = `Set up from ${x.from}: whole games of ${x.game}${el.openings.checked ? ' on balanced openings' : ''}, ${count(x.budget)} ${x.unit === 'iterations' ? 'iterations' : 'ms'} per move. Press Play.`;
    hooks.store.update({ arenaSetup: null });
  };
  hooks.store.subscribe((st) => {
    if (st.arenaSetup) whenPresets(hooks.store, () => st.arenaSetup && takeSetup(st.arenaSetup));
  });
  (window as unknown as { __arena: unknown }).__arena = { result: () => controller.state.get().result };
}
