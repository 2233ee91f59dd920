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

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { EngineClient, EngineDied, EngineError } from '../engine';
import { fallbackMessage, isNoNetError, NET_PRESETS, netFreeFallback } from '../play/net-fallback';
import { labelPresetOptions } from '../play/nets';
import type { EngineSettings, GameRecord, Snapshot, Standings } from '../protocol';
import { h } from '../lib/dom';
import { safeHref } from '../lib/safe-url';
import { downloadCsv, downloadJson } from '../lib/download';
import { whenPresets, type ArenaSetup, type PageStore } from '../state';
import { arenaCsv, firstPlayerNote, fmtEloCells, fmtRateCi, parseSets, roundedElo } from './figures';
import { count, winRate } from '../lib/format';
import { MAX_SEED, queryString, wholeInRange } from '../share/url';
import { SERIES_COLOURS, withAlpha } from '../lib/colour';

const [A, B] = SERIES_COLOURS;

export interface ArenaHooks {
  store: PageStore;
  snapshot(): Snapshot | null;
  presets(): string[];
}

/** The JSON download: the shape of `mcts arena --json` (the standings plus the match settings). */
interface ArenaResult extends Standings {
  game: string;
  a: string;
  b: string;
  set_a: string[];
  set_b: string[];
  iterations: number | null;
  ms: number | null;
  seed: number;
  /** `all` (every first move, colours swapped) or `none`, as `mcts arena --openings`. */
  openings: 'all' | 'none';
  seconds: number;
  records: GameRecord[];
}

/** Hex without the swap rule (`hex`, `hex:N`): a first-player win, so its matches default to
 * balanced openings, as `mcts arena` does. */
export function defaultOpenings(gameSpec: string): boolean {
  return /^hex(:\d+)?$/i.test(gameSpec.trim());
}

export function mountArena(host: HTMLElement, hooks: ArenaHooks): void {
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

  let result: ArenaResult | null = null;
  let clients: EngineClient[] = [];
  let generation = 0;
  let chart: uPlot | null = null;
  const history: { games: number; rate: number; lo: number; hi: number }[] = [];

  function syncPresets(): void {
    const ps = hooks.presets();
    for (const [sel, dflt] of [
      [presetA, 'rave'],
      [presetB, 'uct'],
    ] as const) {
      if (sel.options.length !== ps.length) {
        sel.replaceChildren(...ps.map((x) => h('option', { value: x }, x)));
        sel.value = ps.includes(dflt) ? dflt : (ps[0] ?? '');
      }
      // Which presets need a network, and whether this game has one.
      labelPresetOptions(sel, hooks.store.get().nets, spec.value.trim());
    }
  }

  /** The game and openings of the match on show. */
  let matchOf: { spec: string; openings: boolean } | null = null;

  function drawStandings(s: Standings | null): void {
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
        b.addEventListener('click', () => {
          spec.value = to;
          spec.dispatchEvent(new Event('change', { bubbles: true }));
          status.textContent = `Game set to ${to}: press Play for a match with the swap rule.`;
        });
        p.append(b);
      }
      standingsHost.replaceChildren(t, split, p);
    } else standingsHost.replaceChildren(t, split);
  }

  function drawChart(): void {
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
      chart = new uPlot(
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
    } else chart.setData(data);
  }

  /** The play view's URL for a finished game: its moves on the board, both sides people, so it
   * can be replayed move by move (Undo, Redo, the move list) without an engine moving on. */
  function gameLink(gameSpec: string, r: GameRecord): string | null {
    const q = new URLSearchParams({ game: gameSpec, moves: r.moves.join(' '), p0: 'person', p1: 'person' });
    // Resolved against the page's address (`location.pathname` could start with `//`, which a
    // link would read as another host); `safeHref` checks the scheme as for every built link.
    return safeHref(`?${queryString(q)}`, location.href);
  }

  function drawTable(records: GameRecord[], gameSpec: string): void {
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

  async function play(retried = false): Promise<void> {
    syncPresets();
    const a = parseSets(setA.value);
    const b = parseSets(setB.value);
    // The form's numbers are checked with the same sentences as the URL's parameters.
    const problems = [
      a.error ? `parameters of A: ${a.error}` : null,
      b.error ? `parameters of B: ${b.error}` : null,
      wholeInRange('games', games.value, 1, 10_000).error,
      unit.value === 'iterations'
        ? wholeInRange('iterations/move', budget.value, 1, 100_000_000).error
        : wholeInRange('ms/move', budget.value, 1, 3_600_000, 'ms').error,
      wholeInRange('seed', seed.value, 0, MAX_SEED).error,
      wholeInRange('workers', workers.value, 1, 8).error,
    ].filter((x): x is string => !!x);
    if (problems.length) {
      status.textContent = `Not started: ${problems.join('; ')}.`;
      host.dataset.state = 'invalid';
      return;
    }
    stop();
    const gen = ++generation;
    const n = Math.max(1, Math.min(10000, Math.round(Number(games.value) || 1)));
    const amount = Math.max(1, Number(budget.value) || 1);
    const iterations = unit.value === 'iterations' ? Math.round(amount) : null;
    const millis = unit.value === 'millis' ? amount : null;
    const seedN = Math.max(0, Math.round(Number(seed.value) || 0));
    const w = Math.max(1, Math.min(8, Math.round(Number(workers.value) || 1), n));
    const engA: EngineSettings = { preset: presetA.value, params: a.params };
    const engB: EngineSettings = { preset: presetB.value, params: b.params };
    const onOpenings = openings.checked;
    matchOf = { spec: spec.value.trim(), openings: onOpenings };
    const records: GameRecord[] = [];
    history.length = 0;
    chart?.destroy();
    chart = null;
    drawStandings(null);
    drawTable([], spec.value.trim());
    progress.hidden = false;
    progress.max = n;
    progress.value = 0;
    result = null;
    runBtn.disabled = true;
    stopBtn.disabled = false;
    csvBtn.disabled = true;
    jsonBtn.disabled = true;
    host.dataset.state = 'running';
    const t0 = performance.now();
    let next = 0;
    let failure: string | null = null;
    let standings: Standings | null = null;
    let netError: string | null = null;
    clients = Array.from({ length: w }, () => new EngineClient());
    status.textContent = `Playing ${n} games of ${spec.value}${onOpenings ? ' on balanced openings' : ''} in ${w} workers…`;
    const loop = async (c: EngineClient) => {
      while (gen === generation && failure === null) {
        const index = next++;
        if (index >= n) return;
        try {
          const rec = await c.arenaGame({
            spec: spec.value.trim(),
            a: engA,
            b: engB,
            iterations,
            millis,
            seed: seedN,
            index,
            openings: onOpenings,
          });
          if (gen !== generation) return;
          records.push(rec);
          const s = await c.arenaStandings(records.slice());
          if (gen !== generation) return;
          if (!standings || s.games >= standings.games) standings = s;
          history.push({ games: s.games, rate: s.win_rate, lo: s.win_rate_ci95[0], hi: s.win_rate_ci95[1] });
          history.sort((x, y) => x.games - y.games);
          drawStandings(standings);
          drawChart();
          drawTable(records, spec.value.trim());
          progress.value = records.length;
          const secs = (performance.now() - t0) / 1000;
          status.textContent = `${records.length} of ${n} games played in ${w} workers · ${(records.length / Math.max(secs, 1e-3)).toFixed(2)} games/s · ${secs.toFixed(1)} s`;
        } catch (e) {
          if (e instanceof EngineDied && gen !== generation) return;
          if (e instanceof EngineError && isNoNetError(e.message)) netError ??= e.message;
          failure = `game ${index}: ${e instanceof Error ? e.message : String(e)}`;
        }
      }
    };
    await Promise.all(clients.map(loop));
    if (gen !== generation) return;
    for (const c of clients) c.terminate('the arena is over');
    clients = [];
    runBtn.disabled = false;
    stopBtn.disabled = true;
    const fb = netError ? netFreeFallback(hooks.presets()) : null;
    if (netError && fb && !retried) {
      // A network preset without a usable net: the match is played again from game 0 with a
      // net-free preset in its place (every game of a match has the same configurations).
      const notes: string[] = [];
      for (const sel of [presetA, presetB]) {
        if (!NET_PRESETS.includes(sel.value)) continue;
        notes.push(fallbackMessage(sel.value, spec.value.trim(), fb, netError));
        sel.value = fb;
      }
      host.dataset.fallback = fb;
      await play(true);
      status.textContent = `${notes.join(' ')} ${status.textContent}`;
      return;
    }
    if (failure) {
      status.textContent = `The arena stopped: ${failure}`;
      host.dataset.state = 'failed';
      return;
    }
    records.sort((x, y) => x.index - y.index);
    const s = standings!;
    result = {
      game: spec.value.trim(),
      a: engA.preset,
      b: engB.preset,
      set_a: a.sets,
      set_b: b.sets,
      iterations,
      ms: millis,
      seed: seedN,
      openings: onOpenings ? 'all' : 'none',
      games: s.games,
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
      win_rate: s.win_rate,
      win_rate_ci95: s.win_rate_ci95,
      // Elo to 0.1, as `mcts arena --json` writes it.
      ...roundedElo(s),
      a_first_games: s.a_first_games,
      a_first_wins: s.a_first_wins,
      a_first_draws: s.a_first_draws,
      a_first_losses: s.a_first_losses,
      a_second_games: s.a_second_games,
      a_second_wins: s.a_second_wins,
      a_second_draws: s.a_second_draws,
      a_second_losses: s.a_second_losses,
      first_player_wins: s.first_player_wins,
      second_player_wins: s.second_player_wins,
      seconds: (performance.now() - t0) / 1000,
      records,
    };
    csvBtn.disabled = false;
    jsonBtn.disabled = false;
    status.textContent = `Done: ${count(n)} games in ${result.seconds.toFixed(1)} s (${(n / Math.max(result.seconds, 1e-3)).toFixed(2)} games/s, ${w} workers). A ${s.wins}–${s.draws}–${s.losses}, win rate of A ${winRate(s.win_rate)}.`;
    // Trees held at a cap played on with the tree they had: say so, the cap being the reason.
    const capped = records.filter((r) => r.tree_cap === 'memory_cap').length;
    if (capped)
      status.textContent += ` In ${count(capped)} of ${count(n)} games a search tree reached the engine's memory cap (memory_cap_mib; 512 MiB per worker by default): it was kept and stopped growing.`;
    host.dataset.memoryCapped = String(capped);
    host.dataset.state = 'done';
  }

  function stop(): void {
    generation++;
    for (const c of clients) c.terminate('stopped by the person');
    clients = [];
    runBtn.disabled = false;
    stopBtn.disabled = true;
    if (host.dataset.state === 'running') {
      host.dataset.state = 'stopped';
      status.textContent = `Stopped. ${status.textContent ?? ''}`;
    }
  }

  const base = () => `arena-${(result?.game ?? 'game').replace(/[^a-z0-9]+/gi, '-')}-${result?.a}-vs-${result?.b}-seed${result?.seed}`;
  jsonBtn.addEventListener('click', () => {
    if (result) downloadJson(`${base()}.json`, result);
  });
  csvBtn.addEventListener('click', () => {
    if (!result) return;
    downloadCsv(`${base()}.csv`, ...arenaCsv(result.records));
  });
  runBtn.addEventListener('click', () => void play());
  stopBtn.addEventListener('click', stop);
  new ResizeObserver(() => chart?.setSize({ width: Math.max(260, chartHost.clientWidth || 500), height: 220 })).observe(chartHost);
  whenPresets(hooks.store, syncPresets);
  spec.addEventListener('change', () => {
    syncPresets();
    // The default follows the game, as on the command line; the box may then be changed.
    openings.checked = defaultOpenings(spec.value);
  });
  presetA.addEventListener('focus', syncPresets);
  presetB.addEventListener('focus', syncPresets);
  hooks.store.subscribe((s, prev) => {
    if (s.nets !== prev.nets) syncPresets();
  });
  // A match set up from Compare's panes: the form takes it (the game first: its change sets the
  // default openings and the preset lists), and says where it comes from.
  const takeSetup = (x: ArenaSetup) => {
    spec.value = x.game;
    spec.dispatchEvent(new Event('change', { bubbles: true }));
    syncPresets();
    presetA.value = x.a.preset;
    presetB.value = x.b.preset;
    setA.value = x.a.sets;
    setB.value = x.b.sets;
    budget.value = String(x.budget);
    unit.value = x.unit;
    seed.value = x.seed;
    status.textContent = `Set up from ${x.from}: whole games of ${x.game}${openings.checked ? ' on balanced openings' : ''}, ${count(x.budget)} ${x.unit === 'iterations' ? 'iterations' : 'ms'} per move. Press Play.`;
    hooks.store.update({ arenaSetup: null });
  };
  hooks.store.subscribe((st) => {
    if (st.arenaSetup) whenPresets(hooks.store, () => st.arenaSetup && takeSetup(st.arenaSetup));
  });
  (window as unknown as { __arena: unknown }).__arena = { result: () => result };
}
