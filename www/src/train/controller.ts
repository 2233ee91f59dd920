// The Train view's controller: Start checks the form (with the URL's sentences) and starts a run
// in a training worker of its own (`EngineClient.trainer()`, which loads the training package
// only then); Pause / Resume, Reset; the weights for "Download net" and "Play this net" (which
// loads them into the play view's workers and starts a Tic-Tac-Toe game against the alphazero
// preset). Its state (`TrainState`: the run's state and status line, the last progress report,
// every finished iteration) is a store of its own that the view (train.ts) draws. No DOM:
// unit-tested in Node with a fake training worker.

import { EngineDied, type EngineClient, type TrainHandle, type TrainReport, type TrainStopped } from '../engine';
import { count } from '../lib/format';
import { createStore, type Store } from '../lib/store';
import type { NetInfo, TrainIteration, TrainProgress, TrainSettings } from '../protocol';
import type { LoadResult, SideSettings } from '../types';
import type { PageStore } from '../state';
import { type TrainForm, readTrainForm } from './figures';
import type { PresetName } from '../generated/schema';

/** The run's state, as the view shows it in `data-state` (`invalid` instead while a refused
 * form's sentence is on the status line). */
export type RunState = 'idle' | 'loading' | 'running' | 'paused' | 'done' | 'failed';

export interface TrainState {
  state: RunState;
  /** Start refused the form: its sentence stays on the status line (the run, if any, goes on)
   * until the run's next change of state. */
  invalid: boolean;
  /** The status line (a new object for every sentence). */
  status: { text: string };
  /** The latest progress report (null: none since Start or Reset). */
  report: TrainReport | null;
  /** Every finished iteration, in order. */
  reports: readonly TrainIteration[];
  /** Whether a training worker holds a net (the weights can be downloaded or played). */
  hasNet: boolean;
  /** A request for the weights is under way (its button waits). */
  fetching: 'save' | 'play' | null;
  /** The settings of the run. */
  settings: TrainSettings | null;
  /** Bumped by Reset: the view empties its figures, charts and table. */
  resets: number;
}

export type TrainEngine = Pick<EngineClient, 'train' | 'trainWeights' | 'terminate' | 'onDeath'>;

export interface TrainDeps {
  newTrainer(): TrainEngine;
  /** The page's state (the sides "Play this net" sets). */
  store: PageStore;
  /** Loads a net into every engine worker of the page (play/nets.ts `loadUserNet`). */
  loadNet(bytes: ArrayBuffer, label: string): Promise<NetInfo | null>;
  /** Loads a game in the play view. */
  loadGame(spec: string, moves: string[]): Promise<LoadResult>;
  /** Opens the play view and says what plays there. */
  openPlay(message: string): void;
}

/** The status line while a run trains. */
export function runningText(p: TrainProgress): string {
  return `Training: iteration ${Math.min(p.iteration + 1, p.iterations)} of ${p.iterations}, ${count(p.games)} self-play games so far.`;
}

export class TrainController {
  readonly state: Store<TrainState>;
  private client: TrainEngine | null = null;
  private run: TrainHandle | null = null;
  /** Bumped by Reset and Start, so a stale run's answers are ignored. */
  private generation = 0;

  constructor(private readonly deps: TrainDeps) {
    this.state = createStore<TrainState>({
      state: 'idle',
      invalid: false,
      status: { text: 'Set the run up and press Start.' },
      report: null,
      reports: [],
      hasNet: false,
      fetching: null,
      settings: null,
      resets: 0,
    });
  }

  private get s(): TrainState {
    return this.state.get();
  }

  private set(state: RunState, text: string): void {
    this.state.update({ state, invalid: false, status: { text }, hasNet: this.client !== null });
  }

  /** A sentence on the status line (not over a refused form's). */
  private say(text: string): void {
    if (!this.s.invalid) this.state.update({ status: { text } });
  }

  /** A progress report: the figures, and the iteration it finished (once). */
  private progress(r: TrainReport): void {
    const f = r.progress.finished;
    const reports = f && !this.s.reports.some((x) => x.iteration === f.iteration) ? [...this.s.reports, f] : this.s.reports;
    this.state.update({ report: r, reports });
  }

  start(f: TrainForm): void {
    const form = readTrainForm(f);
    if ('errors' in form) {
      this.state.update({ invalid: true, status: { text: `Not started: ${form.errors.join('; ')}.` } });
      return;
    }
    this.clear();
    const gen = this.generation;
    this.state.update({ settings: form.settings });
    const client = this.deps.newTrainer();
    this.client = client;
    client.onDeath = (why) => {
      if (gen === this.generation) this.set('failed', `The training worker stopped: ${why} (press Start to begin again).`);
    };
    this.set('loading', 'Loading the training code (first time only), then training…');
    const handle = client.train(form.settings, (r) => {
      if (gen !== this.generation) return;
      if (this.s.state === 'loading' && !this.s.invalid) this.set('running', runningText(r.progress));
      this.progress(r);
      if (this.s.state === 'running') this.say(runningText(r.progress));
    });
    void this.follow(handle, gen);
  }

  /** Waits for the run's end: paused or done, or its failure. */
  private async follow(handle: TrainHandle, gen: number): Promise<void> {
    this.run = handle;
    let end: TrainStopped;
    try {
      end = await handle.done;
    } catch (e) {
      if (gen !== this.generation) return;
      this.run = null;
      const died = e instanceof EngineDied;
      if (died) this.client = null;
      this.set('failed', `Training stopped: ${e instanceof Error ? e.message : String(e)}${died ? ' (press Start to begin again)' : ''}`);
      return;
    }
    if (gen !== this.generation) return;
    this.run = null;
    this.progress({ progress: end.progress, trainMs: end.trainMs, parameters: this.s.report?.parameters ?? 0 });
    if (end.reason === 'done')
      this.set(
        'done',
        `Done: ${end.progress.iterations} iterations, ${count(end.progress.games)} self-play games in ${(end.trainMs / 1000).toFixed(1)} s of training. Press “Play this net” to play it.`,
      );
    else
      this.set(
        'paused',
        `Paused after ${count(end.progress.games)} self-play games: Resume goes on, “Play this net” plays the net as it is now.`,
      );
  }

  pauseOrResume(): void {
    const client = this.client;
    if (!client) return;
    if (this.s.state === 'running' && this.run) {
      this.run.pause();
      this.state.update({ invalid: false, status: { text: 'Pausing after the current step…' } });
      return;
    }
    if (this.s.state === 'paused') {
      const gen = this.generation;
      this.set('running', 'Resuming…');
      const handle = client.train('resume', (r) => {
        if (gen !== this.generation) return;
        this.progress(r);
        this.say(runningText(r.progress));
      });
      void this.follow(handle, gen);
    }
  }

  /** Ends the run and its worker, and forgets what it trained. */
  private clear(): void {
    this.generation++;
    this.run = null;
    this.client?.terminate('training was reset');
    this.client = null;
    this.state.update((s) => ({ report: null, reports: [], hasNet: false, resets: s.resets + 1 }));
  }

  reset(): void {
    this.clear();
    this.set('idle', 'Reset: the net is gone. Set the run up and press Start.');
  }

  /** The weights as trained so far (a `.mctsnet` file's bytes) and a file name, for the download;
   * null (with the reason on the status line) when there are none. */
  async weights(): Promise<{ name: string; bytes: ArrayBuffer } | null> {
    const trainer = this.client;
    if (!trainer) return null;
    const done = this.s.reports.length;
    this.state.update({ fetching: 'save' });
    try {
      const bytes = await trainer.trainWeights();
      const name = `tictactoe-iter-${done}.mctsnet`;
      this.say(
        `Saved ${name} (${count(bytes.byteLength)} bytes): mcts search --game tictactoe --algo alphazero --net ${name} plays it on the command line.`,
      );
      return { name, bytes };
    } catch (e) {
      this.say(`Could not save the net: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    } finally {
      this.state.update({ fetching: null, hasNet: this.client !== null });
    }
  }

  /** "Play this net": its weights into every engine worker of the page, a person against the
   * alphazero preset with the run's playouts, a new Tic-Tac-Toe game in the play view. Returns
   * the self-play games the net had, or null when it could not be played (the status says why). */
  async playNet(): Promise<number | null> {
    const trainer = this.client;
    if (!trainer) return null;
    const done = this.s.reports.length;
    const games = this.s.report?.progress.games ?? 0;
    const playouts = this.s.settings?.playouts ?? 64;
    this.state.update({ fetching: 'play' });
    try {
      const bytes = await trainer.trainWeights();
      const label = `trained here: ${done} iteration${done === 1 ? '' : 's'}, ${games} self-play games`;
      // Into every engine worker, listed in the page's nets (play/nets.ts), as the Players box says.
      if (!(await this.deps.loadNet(bytes, label))) throw new Error('the play view’s engine refused the net (see the message there)');
      const { store } = this.deps;
      const [x, o] = store.get().sides;
      const sides: [SideSettings, SideSettings] = [
        { ...x, who: 'person' },
        { ...o, who: 'engine', preset: 'alphazero' satisfies PresetName, budgetKind: 'playouts', budgetValue: playouts },
      ];
      store.update({ sides });
      const r = await this.deps.loadGame('tictactoe', []);
      if (!r.ok) throw new Error(r.reason);
      this.deps.openPlay(
        `You play X against the net freshly trained in the Train view (${label}) with the alphazero preset, ${playouts} playouts per move. Training goes on in its own worker; press “Play this net” again for a newer net.`,
      );
      return games;
    } catch (e) {
      this.say(`Could not play the net: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    } finally {
      this.state.update({ fetching: null, hasNet: this.client !== null });
    }
  }
}
