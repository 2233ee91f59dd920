// The Train view: AlphaZero self-play training of a Tic-Tac-Toe net live in the page.
// Start creates the training worker (the same worker.ts, named `mcts-train`), which imports
// the training package `pkg-train/` (burn inside) only then, so the page's first load and the
// search workers never fetch it. The run goes in bounded steps in that worker, so the page never
// freezes: progress (games, games/s, losses) several times a second, and per iteration the mean
// losses and the raw policy's (and the 16-playout search's) wins/draws/losses against perfect
// play, charted with uPlot and listed in a table. "Play this net" sends the current weights to
// the play view's workers (`loadNet`, through play/nets.ts) and starts a Tic-Tac-Toe game against the alphazero preset.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './train.css';
import { EngineClient, EngineDied, type TrainHandle, type TrainReport, type TrainStopped } from '../engine';
import type { TrainIteration, TrainProgress, TrainSettings } from '../protocol';
import type { SideSettings } from '../state';
import type { PlaygroundHooks } from '../types';
import { h } from '../lib/dom';
import { loadUserNet } from '../play/nets';
import { downloadBlob } from '../lib/download';
import { count } from '../lib/format';
import { SERIES_COLOURS, withAlpha } from '../lib/colour';
import { TRAIN_DEFAULTS, type TrainForm, firstUnbeaten, gamesPerSecond, readTrainForm, wdl } from './figures';

const [BLUE, ORANGE, GREEN, PURPLE] = SERIES_COLOURS;

/** What the view shows in `data-state`. */
type TrainState = 'idle' | 'loading' | 'running' | 'paused' | 'done' | 'failed';

const PHASES: Record<TrainProgress['phase'], string> = {
  selfPlay: 'self-play',
  learn: 'learning (Adam)',
  evaluate: 'evaluating against perfect play',
  done: 'done',
};

export function mountTrain(host: HTMLElement, hooks: PlaygroundHooks): void {
  const field = (id: keyof TrainForm, label: string, title: string) =>
    h('input', { id: `tr-${id}`, value: TRAIN_DEFAULTS[id], class: 'num', inputmode: 'decimal', 'aria-label': label, title });
  const inputs = {
    iterations: field('iterations', 'Iterations', 'Iterations of self-play, learning and evaluation (1–1,000)'),
    games: field('games', 'Self-play games per iteration', 'Self-play games per iteration (1–2,000)'),
    playouts: field('playouts', 'Playouts per move', 'PUCT playouts per self-play move (1–2,000)'),
    steps: field('steps', 'Adam steps per iteration', 'Adam steps (minibatches of 128 positions) per iteration (1–10,000)'),
    lr: field('lr', 'Learning rate', "Adam's learning rate (above 0, at most 0.1)"),
    seed: field('seed', 'Seed', 'Seed of the initial weights, the games and the minibatches'),
  };
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
      'A fresh net (18 inputs → 128 → 128 → 9 move priors + 1 value, about 20,000 parameters) learns from its own games in this tab: each iteration it plays games against itself with PUCT search guided by the net, learns by Adam to predict the search’s visit shares (policy) and the game’s result (value), then its raw policy — the move of highest prior, no search — plays perfect play. Training runs in its own worker: the page stays usable.',
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

  let client: EngineClient | null = null;
  let run: TrainHandle | null = null;
  let reports: TrainIteration[] = [];
  let settings: TrainSettings | null = null;
  let lastReport: TrainReport | null = null;
  let lossChart: uPlot | null = null;
  let wdlChart: uPlot | null = null;
  /** Bumped by Reset and Start, so a stale run's answers are ignored. */
  let generation = 0;

  function setState(s: TrainState, text: string): void {
    host.dataset.state = s;
    status.textContent = text;
    const live = s === 'running' || s === 'paused' || s === 'loading';
    pauseBtn.disabled = !(s === 'running' || s === 'paused');
    pauseBtn.textContent = s === 'paused' ? 'Resume' : 'Pause';
    resetBtn.disabled = !(live || s === 'done' || s === 'failed');
    playBtn.disabled = !(client && (s === 'running' || s === 'paused' || s === 'done'));
    saveBtn.disabled = playBtn.disabled;
  }
  setState('idle', 'Set the run up and press Start.');

  function axes(): { stroke: string; grid: { stroke: string; width: number }; ticks: { stroke: string; width: number } } {
    const cs = getComputedStyle(host);
    const fg = cs.getPropertyValue('--muted').trim() || '#666';
    const grid = cs.getPropertyValue('--border').trim() || '#ddd';
    return { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  }

  function drawCharts(): void {
    const ax = axes();
    const xs = reports.map((r) => r.iteration);
    const width = (el: HTMLElement) => Math.max(260, el.clientWidth || 480);
    const lossData: uPlot.AlignedData = [xs, reports.map((r) => r.loss.policy), reports.map((r) => r.loss.value)];
    const fmt = (_u: uPlot, v: number | null) => (v == null ? '–' : v.toFixed(3));
    if (!lossChart) {
      lossChart = new uPlot(
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
    } else lossChart.setData(lossData);
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
    if (!wdlChart) {
      wdlChart = new uPlot(
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
    } else wdlChart.setData(wdlData);
  }

  function drawTable(): void {
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
            ].map((x) => h('th', {}, x)),
          ),
        ),
        h('tbody', {}, ...rows.reverse()),
      ),
    );
  }

  function drawUnbeaten(): void {
    const r = firstUnbeaten(reports);
    unbeaten.hidden = !r;
    if (r) {
      host.dataset.unbeatenAt = String(r.games);
      unbeaten.textContent = `The raw policy first lost no game to perfect play at iteration ${r.iteration}, after ${count(r.games)} self-play games (${wdl(r.raw.total)} W/D/L). In Tic-Tac-Toe perfect play cannot be beaten: a draw is the best result.`;
    } else delete host.dataset.unbeatenAt;
  }

  function drawProgress(r: TrainReport): void {
    lastReport = r;
    const p = r.progress;
    figs.games.textContent = count(p.games);
    figs.rate.textContent = r.trainMs > 0 ? gamesPerSecond(p.games, r.trainMs).toFixed(1) : '–';
    figs.steps.textContent = count(p.adam_steps);
    figs.phase.textContent =
      p.phase === 'done'
        ? 'done'
        : `iteration ${p.iteration + 1}: ${PHASES[p.phase]}${p.phase === 'selfPlay' ? ` (${p.iteration_games} of ${settings?.games ?? '?'})` : ''}`;
    figs.loss.textContent = p.loss ? `${p.loss.policy.toFixed(3)} / ${p.loss.value.toFixed(3)}` : '–';
    figs.params.textContent = count(r.parameters);
    progress.hidden = false;
    progress.max = p.iterations;
    progress.value = p.iteration;
    host.dataset.iteration = String(p.iteration);
    host.dataset.games = String(p.games);
    if (p.finished && !reports.some((x) => x.iteration === p.finished!.iteration)) {
      reports.push(p.finished);
      drawCharts();
      drawTable();
      drawUnbeaten();
    }
  }

  function runningText(p: TrainProgress): string {
    return `Training: iteration ${Math.min(p.iteration + 1, p.iterations)} of ${p.iterations}, ${count(p.games)} self-play games so far.`;
  }

  async function follow(handle: TrainHandle, gen: number): Promise<void> {
    run = handle;
    let end: TrainStopped;
    try {
      end = await handle.done;
    } catch (e) {
      if (gen !== generation) return;
      run = null;
      const died = e instanceof EngineDied;
      if (died) client = null;
      setState('failed', `Training stopped: ${e instanceof Error ? e.message : String(e)}${died ? ' (press Start to begin again)' : ''}`);
      return;
    }
    if (gen !== generation) return;
    run = null;
    drawProgress({ progress: end.progress, trainMs: end.trainMs, parameters: lastReport?.parameters ?? 0 });
    if (end.reason === 'done') {
      setState(
        'done',
        `Done: ${end.progress.iterations} iterations, ${count(end.progress.games)} self-play games in ${(end.trainMs / 1000).toFixed(1)} s of training. Press “Play this net” to play it.`,
      );
    } else
      setState(
        'paused',
        `Paused after ${count(end.progress.games)} self-play games: Resume goes on, “Play this net” plays the net as it is now.`,
      );
  }

  function start(): void {
    const form = readTrainForm({
      iterations: inputs.iterations.value,
      games: inputs.games.value,
      playouts: inputs.playouts.value,
      steps: inputs.steps.value,
      lr: inputs.lr.value,
      seed: inputs.seed.value,
    });
    if ('errors' in form) {
      host.dataset.state = 'invalid';
      status.textContent = `Not started: ${form.errors.join('; ')}.`;
      return;
    }
    reset(false);
    const gen = generation;
    settings = form.settings;
    client = EngineClient.trainer();
    client.onDeath = (why) => {
      if (gen === generation) setState('failed', `The training worker stopped: ${why} (press Start to begin again).`);
    };
    setState('loading', 'Loading the training code (first time only), then training…');
    const handle = client.train(form.settings, (r) => {
      if (gen !== generation) return;
      if (host.dataset.state === 'loading') setState('running', runningText(r.progress));
      drawProgress(r);
      if (host.dataset.state === 'running') status.textContent = runningText(r.progress);
    });
    void follow(handle, gen);
  }

  function pauseOrResume(): void {
    if (!client) return;
    if (host.dataset.state === 'running' && run) {
      run.pause();
      status.textContent = 'Pausing after the current step…';
      return;
    }
    if (host.dataset.state === 'paused') {
      const gen = generation;
      setState('running', 'Resuming…');
      void follow(
        client.train('resume', (r) => {
          if (gen !== generation) return;
          drawProgress(r);
          status.textContent = runningText(r.progress);
        }),
        gen,
      );
    }
  }

  /** Ends the run and its worker; `clear` also empties the charts and table. */
  function reset(clear = true): void {
    generation++;
    run = null;
    client?.terminate('training was reset');
    client = null;
    reports = [];
    lastReport = null;
    lossChart?.destroy();
    lossChart = null;
    wdlChart?.destroy();
    wdlChart = null;
    tableHost.replaceChildren();
    drawUnbeaten();
    for (const d of Object.values(figs)) d.textContent = '–';
    progress.hidden = true;
    delete host.dataset.iteration;
    delete host.dataset.games;
    delete host.dataset.played;
    if (clear) setState('idle', 'Reset: the net is gone. Set the run up and press Start.');
  }

  /** Downloads the weights as trained so far: the bytes of a `.mctsnet` file, the format
   * `mcts train` writes its checkpoints in, so the command line plays the net with `--net`. */
  async function saveNet(): Promise<void> {
    if (!client) return;
    const trainer = client;
    const done = reports.length;
    saveBtn.disabled = true;
    try {
      const bytes = await trainer.trainWeights();
      const name = `tictactoe-iter-${done}.mctsnet`;
      downloadBlob(name, new Blob([bytes], { type: 'application/octet-stream' }));
      host.dataset.saved = name;
      status.textContent = `Saved ${name} (${count(bytes.byteLength)} bytes): mcts search --game tictactoe --algo alphazero --net ${name} plays it on the command line.`;
    } catch (e) {
      status.textContent = `Could not save the net: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      const st = host.dataset.state;
      saveBtn.disabled = !(client === trainer && (st === 'running' || st === 'paused' || st === 'done'));
    }
  }

  async function playNet(): Promise<void> {
    if (!client) return;
    const trainer = client;
    const done = reports.length;
    const games = lastReport?.progress.games ?? 0;
    playBtn.disabled = true;
    try {
      const bytes = await trainer.trainWeights();
      const label = `trained here: ${done} iteration${done === 1 ? '' : 's'}, ${games} self-play games`;
      // Into every engine worker, listed in the page's nets (play/nets.ts), as the Players box says.
      if (!(await loadUserNet(hooks, bytes, label))) throw new Error('the play view’s engine refused the net (see the message there)');
      const [, o] = hooks.store.get().sides;
      const sides: [SideSettings, SideSettings] = [
        { ...hooks.store.get().sides[0], who: 'person' },
        { ...o, who: 'engine', preset: 'alphazero', budgetKind: 'playouts', budgetValue: settings?.playouts ?? 64 },
      ];
      hooks.store.update({ sides });
      const r = await hooks.loadGame('tictactoe', []);
      if (!r.ok) throw new Error(r.reason);
      host.dataset.played = String(games);
      location.hash = '#play';
      hooks.showMessage(
        `You play X against the net freshly trained in the Train view (${label}) with the alphazero preset, ${settings?.playouts ?? 64} playouts per move. Training goes on in its own worker; press “Play this net” again for a newer net.`,
      );
    } catch (e) {
      status.textContent = `Could not play the net: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      const st = host.dataset.state;
      playBtn.disabled = !(client === trainer && (st === 'running' || st === 'paused' || st === 'done'));
    }
  }

  startBtn.addEventListener('click', start);
  pauseBtn.addEventListener('click', pauseOrResume);
  resetBtn.addEventListener('click', () => reset(true));
  playBtn.addEventListener('click', () => void playNet());
  saveBtn.addEventListener('click', () => void saveNet());
  window.addEventListener('resize', () => {
    for (const [c, el] of [
      [lossChart, lossHost],
      [wdlChart, wdlHost],
    ] as const) {
      if (c && el.clientWidth) c.setSize({ width: Math.max(260, el.clientWidth), height: 220 });
    }
  });
}
