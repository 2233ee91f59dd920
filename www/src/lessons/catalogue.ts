// What a lesson (format version 2) may name: the page's states a step waits for, the intents it
// triggers and the targets it outlines. The features register each name with the page's lesson
// registry (registry.ts) as they mount; the lesson format (format.ts) checks a file's names and
// values against this list, so a typo is named on the lesson card, never found by a student
// pressing a button. Adding a name: add it here, then register it in the feature that owns it
// (the book's docs/teach/lessons.md and docs.html "Writing a lesson").
//
// No DOM here (unit-tested in Node).

import { PARAMS, type ParamName } from '../generated/schema';
import { PANE_PARAMS } from '../lib/pane-params';

/** A state a step can wait for: its type, and the values it takes when they are few. */
export interface StateSpec {
  readonly doc: string;
  /** `numbers`: a list of numbers (a condition asks whether it `includes` one). */
  readonly type: 'string' | 'number' | 'boolean' | 'numbers';
  /** It may be `null` (e.g. no session yet). */
  readonly nullable?: boolean;
  /** The values a string state takes. */
  readonly values?: readonly string[];
}

/** An intent's argument. */
export interface ArgSpec {
  readonly type: 'string' | 'number' | 'boolean';
  readonly required?: boolean;
  readonly values?: readonly string[];
  readonly doc: string;
}

export interface IntentSpec {
  readonly doc: string;
  readonly args: Readonly<Record<string, ArgSpec>>;
}

/** `compare.setPane`'s arguments for the pane's search parameters (lib/pane-params.ts), each typed
 * as the engine's schema says (a number, `true`/`false`, or one of an option's names): the
 * lesson's value reaches the engine as that typed value. */
const PANE_PARAM_ARGS = Object.fromEntries(
  PANE_PARAMS.map((k): [ParamName, ArgSpec] => {
    const p = PARAMS[k];
    const doc = `engine parameter ${k}${p.what ? `: ${p.what}` : ''}`;
    if (p.type === 'boolean') return [k, { type: 'boolean', doc }];
    if (p.type === 'enum') return [k, { type: 'string', values: p.values ?? [], doc }];
    return [k, { type: 'number', doc }];
  }),
) as Readonly<Record<(typeof PANE_PARAMS)[number], ArgSpec>>;

const PHASE_NAMES = ['', 'Selection', 'Expansion', 'Playout', 'Backpropagation'] as const;
const QUADRANTS = ['TL', 'TR', 'BL', 'BR'] as const;

export const STATES = {
  view: { doc: 'the open view', type: 'string', values: ['play', 'compare', 'arena', 'train'] },
  'game.moves': { doc: 'moves played in the game', type: 'number' },
  'game.hints': { doc: 'moves the last hint marks on the board', type: 'number' },
  review: { doc: 'the move reviewed (1-based), null for the live position', type: 'number', nullable: true },
  'review.moves': { doc: 'the moves (1-based) whose search can be reviewed (buttons in the move list)', type: 'numbers' },
  'board.pending': { doc: 'Pentago: the cell placed, waiting for its twist (e.g. "a2"), or null', type: 'string', nullable: true },
  'board.preview': { doc: 'Pentago: the twist previewed on the board (e.g. "TL-cw"), or null', type: 'string', nullable: true },
  'analysis.state': { doc: "the analysis's own search: '' (none), running, done", type: 'string', values: ['', 'running', 'done'] },
  'analysis.lgrReplies': { doc: 'stored last-good replies the policy internals list', type: 'number' },
  'solve.state': {
    doc: "the Solve control's status",
    type: 'string',
    values: ['idle', 'running', 'proven', 'unknown', 'stopped', 'unavailable', 'error'],
  },
  'step.iteration': { doc: 'iterations in the step-through tree on screen (null: no session)', type: 'number', nullable: true },
  'step.phase': { doc: "the step-through phase on screen ('' for a fresh tree)", type: 'string', values: PHASE_NAMES },
  'step.playoutDone': { doc: 'the step-through board has drawn the whole playout (its move-by-move animation ended)', type: 'boolean' },
  'compare.state': {
    doc: "Compare's run: '' (none), invalid, running, done, stopped",
    type: 'string',
    values: ['', 'invalid', 'running', 'done', 'stopped'],
  },
  'compare.exact': {
    doc: "Compare's exact solve of the position",
    type: 'string',
    values: ['', 'proven', 'solving', 'unknown', 'stopped', 'unavailable', 'error'],
  },
  'compare.solved': {
    doc: "Compare's exact solve has ended with the position proven (the panes' verdicts and the chart's exact line are drawn)",
    type: 'boolean',
  },
  'train.iteration': { doc: 'iterations the Train run has finished (null: no run)', type: 'number', nullable: true },
  'train.state': { doc: 'the Train run', type: 'string', values: ['idle', 'loading', 'running', 'paused', 'done', 'failed'] },
} as const satisfies Record<string, StateSpec>;

export const INTENTS = {
  'view.open': {
    doc: 'open a view (as its tab does)',
    args: { view: { type: 'string', required: true, values: ['play', 'compare', 'arena', 'train'], doc: 'the view' } },
  },
  'review.open': {
    doc: 'review the search behind a move (as a click in the move list)',
    args: { move: { type: 'number', required: true, doc: '1-based move number' } },
  },
  'review.live': { doc: 'back to the live position', args: {} },
  'game.hint': { doc: 'ask for a hint (the Hint button)', args: {} },
  'game.playHint': { doc: 'play the move the hint marks (a click on it)', args: {} },
  'board.place': {
    doc: 'a click on a cell of the game board',
    args: { cell: { type: 'string', required: true, doc: 'the cell, e.g. "a2"' } },
  },
  'board.previewTwist': {
    doc: 'Pentago: focus a twist button, which previews its twist',
    args: { twist: { type: 'string', required: true, doc: 'quadrant and direction, e.g. "TL-cw"' } },
  },
  'board.twist': {
    doc: 'Pentago: play the pending placement with this twist',
    args: { twist: { type: 'string', required: true, doc: 'e.g. "TL-cw"' } },
  },
  'analysis.run': {
    doc: 'Analyse the position on the board',
    args: {
      preset: { type: 'string', doc: 'the preset (default: as chosen)' },
      budget: { type: 'number', doc: 'playouts (default: as typed)' },
    },
  },
  'solve.run': { doc: 'start the exact solver (the Solve button)', args: {} },
  'step.new': {
    doc: 'a fresh step-through tree on the position of the board',
    args: {
      preset: { type: 'string', doc: 'the preset (default: as chosen)' },
      seed: { type: 'number', doc: 'the seed (default: as typed)' },
    },
  },
  'step.phase': { doc: 'the step-through’s next phase (▶ phase)', args: {} },
  'step.run': {
    doc: 'run iterations in the step-through (Run 10, Run 100)',
    args: { iterations: { type: 'number', required: true, doc: 'how many' } },
  },
  'compare.run': { doc: "run Compare's panes (Run all)", args: {} },
  'compare.set': {
    doc: "set Compare's common fields",
    args: {
      budget: { type: 'number', doc: 'budget per pane, in the mode’s unit' },
      seed: { type: 'number', doc: 'the seed' },
      seeds: { type: 'number', doc: 'seeds per pane: 1, or 8 for the spread' },
    },
  },
  'compare.setPane': {
    doc: "set a Compare pane's fields",
    args: {
      pane: { type: 'number', required: true, doc: 'pane number, 1 to 4' },
      preset: { type: 'string', doc: 'the preset' },
      ...PANE_PARAM_ARGS,
      budget: { type: 'number', doc: 'the pane’s own budget' },
    },
  },
  'train.set': {
    doc: "set the Train view's form",
    args: {
      iterations: { type: 'number', doc: 'iterations' },
      games: { type: 'number', doc: 'self-play games per iteration' },
      playouts: { type: 'number', doc: 'playouts per move' },
      steps: { type: 'number', doc: 'Adam steps per iteration' },
      lr: { type: 'number', doc: 'learning rate' },
      seed: { type: 'number', doc: 'seed' },
    },
  },
  'train.start': { doc: 'start training (Start)', args: {} },
  'train.play': { doc: 'play the net as trained so far (Play this net)', args: {} },
} as const satisfies Record<string, IntentSpec>;

export const TARGETS = {
  board: 'the game board',
  'board.twists': 'Pentago: the twist buttons around the board',
  ...(Object.fromEntries(QUADRANTS.map((q) => [`board.quadrant.${q}`, `Pentago: the ${q} quadrant of the board`])) as Record<
    `board.quadrant.${(typeof QUADRANTS)[number]}`,
    string
  >),
  'game.moves': 'the move list',
  'analysis.internals': 'the policy internals',
  'analysis.lgrReplies': 'the stored last-good replies in the policy internals',
  'step.path': 'the step-through’s small tree and path table',
  'step.table': 'the step-through’s path table',
  'step.board': 'the step-through’s small board',
  'step.tree': 'the step-through’s small tree',
  'compare.panes': "Compare's panes",
  'compare.pane.1': 'Compare pane 1',
  'compare.pane.2': 'Compare pane 2',
  'compare.pane.3': 'Compare pane 3',
  'compare.pane.4': 'Compare pane 4',
  'compare.exact': "Compare's exact solver line",
  'compare.truth': "the panes' lines against the exact values",
  'compare.spread': "the panes' spread over several seeds (when each found its move)",
  'compare.valueChart': "Compare's win-rate chart",
  'compare.view': 'the Compare view (a lesson hides the exact solver’s verdicts in it until a step asks for them)',
  'train.figures': "the Train run's figures",
  'train.lossChart': 'the loss chart',
  'train.wdlChart': "the raw policy's results against perfect play",
} as const;

export type StateName = keyof typeof STATES;
export type IntentName = keyof typeof INTENTS;
export type TargetName = keyof typeof TARGETS;

/** Arguments of an intent, as the lesson gives them. */
export type IntentArgs = Readonly<Record<string, string | number | boolean>>;

export const isStateName = (n: string): n is StateName => Object.hasOwn(STATES, n);
export const isIntentName = (n: string): n is IntentName => Object.hasOwn(INTENTS, n);
export const isTargetName = (n: string): n is TargetName => Object.hasOwn(TARGETS, n);
