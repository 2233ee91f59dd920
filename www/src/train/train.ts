// The Train view: AlphaZero self-play training of a Tic-Tac-Toe net live in the page.
// Start creates the training worker (the same worker, worker/index.ts, named `mcts-train`), which imports
// the training package `pkg-train/` (burn inside) only then, so the page's first load and the
// search workers never fetch it. The run goes in bounded steps in that worker, so the page never
// freezes: progress (games, games/s, losses) several times a second, and per iteration the mean
// losses and the raw policy's (and the 16-playout search's) wins/draws/losses against perfect
// play, charted with uPlot and listed in a table. "Play this net" sends the current weights to
// the play view's workers (`loadNet`, through play/nets.ts) and starts a Tic-Tac-Toe game against the alphazero preset.
// "Exact targets" (issue 53) sends `exact_targets: {mix, policy}`: every self-play row also gets the
// exact solver's value and optimal moves, mixed with weight λ; the table shows the rows labelled.
//
// This file is the view: the form, the figures, the charts and the table, drawn from the
// controller's state (controller.ts), which runs the training worker.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './train.css';
import { EngineClient, type TrainReport } from '../engine';
import { SERIES_COLOURS, withAlpha } from '../lib/colour';
import { h } from '../lib/dom';
import { downloadBlob } from '../lib/download';
import { count } from '../lib/format';
import { loadUserNet } from '../play/nets';
import type { TrainIteration, TrainProgress } from '../protocol';
import type { PlaygroundHooks } from '../types';
import { TrainController, type TrainState } from './controller';
import { firstUnbeaten, gamesPerSecond, TRAIN_DEFAULTS, type TrainForm, wdl } from './figures';

const [BLUE, ORANGE, GREEN, PURPLE] = SERIES_COLOURS;

const PHASES: Record<TrainProgress['phase'], string> = {
  selfPlay: 'self-play',
  learn: 'learning (Adam)',
  evaluate: 'evaluating against perfect play',
  done: 'done',
};

interface Charts {
  loss: uPlot | null;
  wdl: uPlot | null;
}

/** Builds the Train view into `host`; returns its elements. */
function buildTrain(host: HTMLElement) {
  const field = (id: Exclude<keyof TrainForm, 'exact'>, label: string, title: string) =>
    h('input', { id: `tr-${id}`, value: TRAIN_DEFAULTS[id], class: 'num', inputmode: 'decimal', 'aria-label': label, title });
  const inputs = {
    iterations: field('iterations', 'Iterations', 'Iterations of self-play, learning and evaluation (1–1,000)'),
    games: field('games', 'Self-play games per iteration', 'Self-play games per iteration (1–2,000)'),
    playouts: field('playouts', 'Playouts per move', 'PUCT playouts per self-play move (1–2,000)'),
    steps: field('steps', 'Adam steps per iteration', 'Adam steps (minibatches of 128 positions) per iteration (1–10,000)'),
    lr: field('lr', 'Learning rate', "Adam's learning rate (above 0, at most 0.1)"),
    seed: field('seed', 'Seed', 'Seed of the initial weights, the games and the minibatches'),
    mix: field(
      'mix',
      'Weight λ of the exact targets',
      'λ, the weight of the exact targets in each row (0–1; 1: the perfect-play targets alone)',
    ),
  };
  const exact = h('input', {
    type: 'checkbox',
    id: 'tr-exact',
    'aria-label': 'Exact targets',
    title:
      'Label every self-play position with its perfect-play value (win 1, draw 0, loss −1) and moves, mixed into the targets with weight λ',
  });
  const startBtn = h('button', { type: 'button', id: 'tr-start', class: 'primary' }, 'Start');
  const pauseBtn = h('button', { type: 'button', id: 'tr-pause', disabled: '' }, 'Pause');
  const resetBtn = h('button', { type: 'button', id: 'tr-reset', disabled: '' }, 'Reset');
  const playBtn = h(
    'button',
    { type: 'button', id: 'tr-play', disabled: '', title: 'Play Tic-Tac-Toe against the net as trained so far (alphazero preset)' },
    'Play this net',
  );
  const saveBtn = h(
    'button',
    {
      type: 'button',
      id: 'tr-save',
      disabled: '',
      title: 'Download the net as trained so far: a .mctsnet weights file, as mcts train writes, that mcts search/arena/gtp --net read',
    },
    'Download net (.mctsnet)',
  );
  const status = h('div', { id: 'tr-status', class: 'an-status', role: 'status' }, 'Set the run up and press Start.');
  const progress = h('progress', { id: 'tr-progress', max: '1', value: '0', 'aria-label': 'Iterations done', hidden: '' });
  const figs = {
    games: h('dd', { id: 'tr-games-played' }, '0'),
    rate: h('dd', { id: 'tr-rate' }, '–'),
    steps: h('dd', { id: 'tr-adam' }, '0'),
    phase: h('dd', { id: 'tr-phase' }, '–'),
    loss: h('dd', { id: 'tr-loss' }, '–'),
    params: h('dd', { id: 'tr-params' }, '–'),
  };
  const unbeaten = h('p', { id: 'tr-unbeaten', class: 'small', hidden: '' });
  const lossHost = h('div', { class: 'chart', id: 'tr-loss-chart' });
  const wdlHost = h('div', { class: 'chart', id: 'tr-wdl-chart' });
  const tableHost = h('div', { id: 'tr-table', class: 'table-wrap tr-table' });
  const dl = (term: string, dd: HTMLElement) => [h('dt', {}, term), dd];
  host.append(
    h('h2', {}, 'Train a Tic-Tac-Toe net by self-play (AlphaZero)'),
    h(
      'p',
      { class: 'muted small' },
      'A fresh net (18 inputs → 128 → 128 → 9 move priors + 1 value, about 20,000 parameters) learns from its own games in this tab: each iteration it plays games against itself with PUCT search guided by the net, learns by Adam to predict the search’s visit shares (policy) and the game’s result (value), then its raw policy — the move of highest prior, no search — plays perfect play. Training runs in its own worker: the page stays usable. ',
      h(
        'span',
        { id: 'tr-exact-note' },
        'With “exact targets” ticked, the exact solver labels every self-play position and the net learns from its perfect-play value (win 1, draw 0, loss −1) and the moves that keep it, mixed in with weight λ, instead of only from AlphaZero’s targets — its own games’ results and search visits.',
      ),
    ),
    h(
      'div',
      { class: 'ar-form tr-form' },
      h('label', {}, 'iterations ', inputs.iterations),
      h('label', {}, 'games / iteration ', inputs.games),
      h('label', {}, 'playouts / move ', inputs.playouts),
      h('label', {}, 'Adam steps / iteration ', inputs.steps),
      h('label', {}, 'learning rate ', inputs.lr),
      h('label', {}, 'seed ', inputs.seed),
      h('label', {}, exact, ' exact targets, λ ', inputs.mix),
      h('span', { class: 'row' }, startBtn, pauseBtn, resetBtn, playBtn, saveBtn),
    ),
    status,
    progress,
    h(
      'dl',
      { class: 'counts tr-figures', id: 'tr-figures' },
      ...[
        ...dl('self-play games', figs.games),
        ...dl('games / s', figs.rate),
        ...dl('Adam steps', figs.steps),
        ...dl('now', figs.phase),
        ...dl('last loss (policy / value)', figs.loss),
        ...dl('parameters', figs.params),
      ],
    ),
    unbeaten,
    h(
      'div',
      { class: 'an-grid' },
      h('div', { class: 'an-card' }, h('h3', {}, 'Loss per iteration (mean over its Adam steps, nats)'), lossHost),
      h(
        'div',
        { class: 'an-card' },
        h('h3', {}, 'Raw policy against perfect play per iteration (games of 20, colours alternating)'),
        wdlHost,
      ),
    ),
    h('div', { class: 'an-card' }, h('h3', {}, 'Iterations'), tableHost),
  );
  return { inputs, exact, startBtn, pauseBtn, resetBtn, playBtn, saveBtn, status, progress, figs, unbeaten, lossHost, wdlHost, tableHost };
}

type TrainElements = ReturnType<typeof buildTrain>;

function axes(host: HTMLElement): { stroke: string; grid: { stroke: string; width: number }; ticks: { stroke: string; width: number } } {
  const cs = getComputedStyle(host);
  const fg = cs.getPropertyValue('--muted').trim() || '#666';
  const grid = cs.getPropertyValue('--border').trim() || '#ddd';
  return { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
}

/** The loss chart and the raw policy's W/D/L chart over the iterations (created on the first
 * call, their data replaced on the next). */
function drawCharts(host: HTMLElement, el: TrainElements, charts: Charts, reports: readonly TrainIteration[]): void {
  const { lossHost, wdlHost } = el;
  const ax = axes(host);
  const xs = reports.map((r) => r.iteration);
  const width = (el: HTMLElement) => Math.max(260, el.clientWidth || 480);
  const lossData: uPlot.AlignedData = [xs, reports.map((r) => r.loss.policy), reports.map((r) => r.loss.value)];
  const fmt = (_u: uPlot, v: number | null) => (v == null ? '–' : v.toFixed(3));
  if (!charts.loss) {
    charts.loss = new uPlot(
      {
        width: width(lossHost),
        height: 220,
        scales: { x: { time: false }, y: { range: (_u, _lo, hi) => [0, Math.max(0.5, hi * 1.1)] } },
        axes: [
          { ...ax, label: 'iteration', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
          { ...ax, label: 'loss (nats)', size: 55 },
        ],
        series: [
          { label: 'iteration' },
          { label: 'policy −πᵀ log p', stroke: BLUE, width: 2, points: { show: true, size: 5 }, value: fmt },
          { label: 'value (z − v)²', stroke: ORANGE, width: 2, points: { show: true, size: 5 }, value: fmt },
        ],
        legend: { live: false },
      },
      lossData,
      lossHost,
    );
  } else charts.loss.setData(lossData);
  const n = (r: TrainIteration) => Math.max(1, r.raw.total.wins + r.raw.total.draws + r.raw.total.losses);
  const wdlData: uPlot.AlignedData = [
    xs,
    reports.map((r) => r.raw.total.losses),
    reports.map((r) => r.raw.total.draws),
    reports.map((r) => r.raw.total.wins),
    reports.map((r) => (r.search ? r.search.total.losses : null)),
  ];
  const games = reports.length ? Math.max(...reports.map(n)) : 20;
  const whole = (_u: uPlot, v: number | null) => (v == null ? '–' : String(v));
  if (!charts.wdl) {
    charts.wdl = new uPlot(
      {
        width: width(wdlHost),
        height: 220,
        scales: { x: { time: false }, y: { range: [0, games] } },
        axes: [
          { ...ax, label: 'iteration', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
          { ...ax, label: `games (of ${games})`, size: 50, incrs: [1, 2, 5, 10, 20, 50, 100] },
        ],
        series: [
          { label: 'iteration' },
          { label: 'raw losses', stroke: ORANGE, width: 2, points: { show: true, size: 5 }, value: whole },
          { label: 'raw draws', stroke: BLUE, width: 2, points: { show: true, size: 5 }, value: whole },
          { label: 'raw wins', stroke: GREEN, width: 2, points: { show: true, size: 5 }, value: whole },
          {
            label: 'search (16 playouts) losses',
            stroke: withAlpha(PURPLE, 0.8),
            width: 1.5,
            dash: [5, 4],
            points: { show: true, size: 4 },
            value: whole,
          },
        ],
        legend: { live: false },
      },
      wdlData,
      wdlHost,
    );
  } else charts.wdl.setData(wdlData);
}

/** Every finished iteration, the newest first; with exact targets, a column of the rows the
 * solver labelled of those it was given. */
function drawTable(tableHost: HTMLElement, reports: readonly TrainIteration[]): void {
  const exact = reports.some((r) => r.exact);
  const rows = reports.map((r) =>
    h(
      'tr',
      { 'data-iteration': String(r.iteration) },
      h('td', {}, String(r.iteration)),
      h('td', {}, count(r.games)),
      h('td', {}, r.loss.policy.toFixed(3)),
      h('td', {}, r.loss.value.toFixed(3)),
      h('td', {}, r.loss.entropy.toFixed(2)),
      h('td', { 'data-k': 'raw', class: r.raw.total.losses === 0 ? 'win' : '' }, wdl(r.raw.total)),
      h('td', {}, wdl(r.raw.first)),
      h('td', {}, wdl(r.raw.second)),
      h('td', { 'data-k': 'search' }, r.search ? wdl(r.search.total) : '–'),
      ...(exact ? [h('td', { 'data-k': 'exact' }, r.exact ? `${count(r.exact.proven)} of ${count(r.exact.tried)}` : '–')] : []),
    ),
  );
  tableHost.replaceChildren(
    h(
      'table',
      { class: 'data-table', id: 'tr-iterations' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            'iteration',
            'games so far',
            'policy loss',
            'value loss',
            'policy entropy',
            'raw W/D/L',
            'raw as X',
            'raw as O',
            'search W/D/L',
            ...(exact ? ['exact-labelled rows'] : []),
          ].map((x) => h('th', {}, x)),
        ),
      ),
      h('tbody', {}, ...rows.reverse()),
    ),
  );
}

/** When the raw policy first lost no game to perfect play. */
function drawUnbeaten(host: HTMLElement, unbeaten: HTMLElement, reports: readonly TrainIteration[]): void {
  const r = firstUnbeaten(reports);
  unbeaten.hidden = !r;
  if (r) {
    host.dataset.unbeatenAt = String(r.games);
    unbeaten.textContent = `The raw policy first lost no game to perfect play at iteration ${r.iteration}, after ${count(r.games)} self-play games (${wdl(r.raw.total)} W/D/L). In Tic-Tac-Toe perfect play cannot be beaten: a draw is the best result.`;
  } else delete host.dataset.unbeatenAt;
}

export function mountTrain(host: HTMLElement, hooks: PlaygroundHooks): void {
  const el = buildTrain(host);
  const controller = new TrainController({
    newTrainer: () => EngineClient.trainer(),
    store: hooks.store,
    loadNet: (bytes, label) => loadUserNet(hooks, bytes, label),
    loadGame: hooks.loadGame,
    openPlay: (message) => {
      location.hash = '#play';
      hooks.showMessage(message);
    },
  });
  const charts: Charts = { loss: null, wdl: null };
  controller.state.subscribe((s, prev) => render(host, el, charts, s, prev));
  render(host, el, charts, controller.state.get(), null);

  const form = (): TrainForm => ({
    iterations: el.inputs.iterations.value,
    games: el.inputs.games.value,
    playouts: el.inputs.playouts.value,
    steps: el.inputs.steps.value,
    lr: el.inputs.lr.value,
    seed: el.inputs.seed.value,
    mix: el.inputs.mix.value,
    exact: el.exact.checked,
  });
  el.startBtn.addEventListener('click', () => controller.start(form()));
  // What a lesson may wait for, trigger and outline here (lessons/catalogue.ts).
  const b = hooks.lessons;
  b.watch(controller.state);
  b.state('train.state', () => controller.state.get().state);
  b.state('train.iteration', () => controller.state.get().report?.progress.iteration ?? null);
  b.intent('train.set', (a) => {
    for (const k of Object.keys(el.inputs) as (keyof typeof el.inputs)[]) if (a[k] !== undefined) el.inputs[k].value = String(a[k]);
    if (a.exact !== undefined) el.exact.checked = Boolean(a.exact);
  });
  b.intent('train.start', () => controller.start(form()));
  b.intent('train.play', () => {
    if (el.playBtn.disabled) throw new Error('there is no net to play yet (start training first)');
    void playNet();
  });
  b.target('train.figures', () => el.figs.games.parentElement);
  b.target('train.lossChart', () => el.lossHost);
  b.target('train.wdlChart', () => el.wdlHost);
  el.pauseBtn.addEventListener('click', () => controller.pauseOrResume());
  el.resetBtn.addEventListener('click', () => controller.reset());
  const playNet = async () => {
    const games = await controller.playNet();
    if (games !== null) host.dataset.played = String(games);
  };
  el.playBtn.addEventListener('click', () => void playNet());
  // Downloads the weights as trained so far: the bytes of a `.mctsnet` file, the format
  // `mcts train` writes its checkpoints in, so the command line plays the net with `--net`.
  el.saveBtn.addEventListener('click', async () => {
    const w = await controller.weights();
    if (!w) return;
    downloadBlob(w.name, new Blob([w.bytes], { type: 'application/octet-stream' }));
    host.dataset.saved = w.name;
  });
  window.addEventListener('resize', () => {
    for (const [c, e] of [
      [charts.loss, el.lossHost],
      [charts.wdl, el.wdlHost],
    ] as const) {
      if (c && e.clientWidth) c.setSize({ width: Math.max(260, e.clientWidth), height: 220 });
    }
  });
}

/** Draws what changed of the controller's state (`prev` null: all of it). */
function render(host: HTMLElement, el: TrainElements, charts: Charts, s: TrainState, prev: TrainState | null): void {
  if (prev && s.resets !== prev.resets) {
    charts.loss?.destroy();
    charts.loss = null;
    charts.wdl?.destroy();
    charts.wdl = null;
    el.tableHost.replaceChildren();
    drawUnbeaten(host, el.unbeaten, []);
    for (const d of Object.values(el.figs)) d.textContent = '–';
    el.progress.hidden = true;
    delete host.dataset.iteration;
    delete host.dataset.games;
    delete host.dataset.played;
  }
  if (s.report && s.report !== prev?.report) drawProgress(host, el, s.report, s.settings?.games);
  if (s.reports !== prev?.reports && s.reports.length) {
    drawCharts(host, el, charts, s.reports);
    drawTable(el.tableHost, s.reports);
    drawUnbeaten(host, el.unbeaten, s.reports);
  }
  if (s.status !== prev?.status) el.status.textContent = s.status.text;
  const st = s.state;
  host.dataset.state = s.invalid ? 'invalid' : st;
  const live = st === 'running' || st === 'paused' || st === 'loading';
  el.pauseBtn.disabled = !(st === 'running' || st === 'paused');
  el.pauseBtn.textContent = st === 'paused' ? 'Resume' : 'Pause';
  el.resetBtn.disabled = !(live || st === 'done' || st === 'failed');
  const netOn = s.hasNet && (st === 'running' || st === 'paused' || st === 'done');
  el.playBtn.disabled = !netOn || s.fetching === 'play';
  el.saveBtn.disabled = !netOn || s.fetching === 'save';
}

/** The figures of a progress report, and the progress bar. */
function drawProgress(host: HTMLElement, el: TrainElements, r: TrainReport, gamesPerIteration: number | undefined): void {
  const { figs, progress } = el;
  const p = r.progress;
  figs.games.textContent = count(p.games);
  figs.rate.textContent = r.trainMs > 0 ? gamesPerSecond(p.games, r.trainMs).toFixed(1) : '–';
  figs.steps.textContent = count(p.adam_steps);
  figs.phase.textContent =
    p.phase === 'done'
      ? 'done'
      : `iteration ${p.iteration + 1}: ${PHASES[p.phase]}${p.phase === 'selfPlay' ? ` (${p.iteration_games} of ${gamesPerIteration ?? '?'})` : ''}`;
  figs.loss.textContent = p.loss ? `${p.loss.policy.toFixed(3)} / ${p.loss.value.toFixed(3)}` : '–';
  figs.params.textContent = count(r.parameters);
  progress.hidden = false;
  progress.max = p.iterations;
  progress.value = p.iteration;
  host.dataset.iteration = String(p.iteration);
  host.dataset.games = String(p.games);
}
