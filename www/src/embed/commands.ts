// The embed API's commands from the host, checked before anything acts on them (pure: no DOM).
//
// A message is ours when it is an object with `source: 'mcts-playground'`; anything else is
// another script's message and is ignored. One of ours must be `{ source, version: 1, type, ... }`
// with exactly the fields its type allows (own keys only; `__proto__`, `constructor` or any other
// extra key is refused), each of the right type and within the limits below. A refused command
// gets an `error` event naming the problem, and changes nothing.
//
// The host's origin: `allowedOrigins` parses the `allowed-origins=` parameter (origins separated
// by commas or spaces, e.g. `https://course.example.org,https://moodle.example.org`); each is
// normalised to its origin and named once, however often and in whatever case it is written.

import { LIMITS } from '../generated/schema';
import { parseReviewReport, type ReviewReport } from '../review/report';

/** The protocol's fixed fields. */
export const PROTOCOL = { source: 'mcts-playground', version: 1 } as const;

/** Limits on a command's fields (docs/limits.md): a game spec of at most 64 characters, at most
 * 1,000 moves (a game never has more than 362) of at most 32 characters each, a move string of at
 * most 20,000 characters, a preset name of at most 32, a budget in 1..MAX_BUDGET (2^53 − 1: the
 * engine's limit, Rust `limits::MAX_BUDGET` through the generated schema). */
export const COMMAND_LIMITS = { spec: 64, moves: 1000, move: 32, movesText: 20_000, preset: 32 } as const;

export type Command =
  | { type: 'setPosition'; game?: string; moves?: string[] | string }
  | { type: 'startSearch'; budget?: { kind: 'millis' | 'playouts'; value: number }; preset?: string; play?: boolean }
  | { type: 'review'; budget?: { kind: 'millis' | 'playouts'; value: number }; seed?: number }
  | { type: 'showReview'; report: ReviewReport };

/** The largest review seed a command takes (as the page's `seed=`): 10^15. */
export const MAX_COMMAND_SEED = 1e15;

type Check = (v: unknown) => string | null;

const str =
  (max: number): Check =>
  (v) =>
    typeof v !== 'string' ? 'must be a string' : v.length > max ? `must be at most ${max} characters (got ${v.length})` : null;

const movesCheck: Check = (v) => {
  if (typeof v === 'string') return str(COMMAND_LIMITS.movesText)(v);
  if (!Array.isArray(v)) return 'must be an array of move strings or one string of moves';
  if (v.length > COMMAND_LIMITS.moves) return `must hold at most ${COMMAND_LIMITS.moves} moves (got ${v.length})`;
  const bad = v.findIndex((m) => typeof m !== 'string' || m.length > COMMAND_LIMITS.move);
  return bad >= 0 ? `entry ${bad + 1} must be a move string of at most ${COMMAND_LIMITS.move} characters` : null;
};

const budgetCheck: Check = (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return "must be an object { kind: 'millis' | 'playouts', value }";
  const extra = Object.keys(v).filter((k) => k !== 'kind' && k !== 'value');
  if (extra.length) return `has unknown field ${JSON.stringify(extra[0])} (expected kind, value)`;
  const b = v as { kind?: unknown; value?: unknown };
  if (b.kind !== 'millis' && b.kind !== 'playouts') return "kind must be 'millis' or 'playouts'";
  if (typeof b.value !== 'number' || !Number.isInteger(b.value) || b.value < 1 || b.value > LIMITS.MAX_BUDGET)
    return `value must be a whole number in 1..${LIMITS.MAX_BUDGET}`;
  return null;
};

/** A review's report (`mcts review --json`'s shape, `parseReviewReport`) of at most
 * `COMMAND_LIMITS.moves` moves. */
const reportCheck: Check = (v) => {
  const moves = typeof v === 'object' && v !== null ? (v as { moves?: unknown }).moves : undefined;
  if (Array.isArray(moves) && moves.length > COMMAND_LIMITS.moves)
    return `must review at most ${COMMAND_LIMITS.moves} moves (got ${moves.length})`;
  try {
    parseReviewReport(v);
    return null;
  } catch (e) {
    return `is not a review: ${e instanceof Error ? e.message : String(e)}`;
  }
};

/** The fields a command type must have (the others are optional). */
const REQUIRED: { [K in Command['type']]?: string[] } = { showReview: ['report'] };

/** The optional fields of each command type, with their checks. */
const FIELDS: { [K in Command['type']]: Record<string, Check> } = {
  setPosition: { game: str(COMMAND_LIMITS.spec), moves: movesCheck },
  startSearch: {
    budget: budgetCheck,
    preset: str(COMMAND_LIMITS.preset),
    play: (v) => (typeof v === 'boolean' ? null : 'must be true or false'),
  },
  // Review the game's main line: the budget per position (default: the page's, 10,000
  // playouts) and the seed (default: the page's `seed=`, else 0).
  review: {
    budget: budgetCheck,
    seed: (v) =>
      typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_COMMAND_SEED ? null : 'must be a whole number in 0..10^15',
  },
  // Show a finished review of the game on the board (one made elsewhere: the notebook widget's
  // `review()` with the kernel's engine), as a game record's review is restored.
  showReview: { report: reportCheck },
};

/** What a message from the host is: not ours (ignore it), a checked command, or what is wrong. */
export type ParsedCommand = { ignore: true } | { ok: Command } | { err: string };

/** What is wrong with a message's `version` (the number 1), or null. A value of another type is
 * named with its type (`'1'` is not the version 1, and saying "version 1 is unsupported" to it
 * would contradict itself). */
function checkVersion(d: Record<string, unknown>): string | null {
  const v = Object.hasOwn(d, 'version') ? d.version : undefined;
  if (v === PROTOCOL.version) return null;
  if (v === undefined) return `version is missing: it must be the number ${PROTOCOL.version}`;
  if (typeof v === 'number') return `unsupported protocol version ${v} (this page speaks version ${PROTOCOL.version})`;
  const got =
    typeof v === 'string'
      ? `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
      : v === null
        ? 'null'
        : Array.isArray(v)
          ? 'an array'
          : typeof v === 'object'
            ? 'an object'
            : `the ${typeof v} ${String(v)}`;
  return `version must be the number ${PROTOCOL.version}, got ${got}`;
}

/** Checks a message from the host against the protocol. */
export function parseCommand(data: unknown): ParsedCommand {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ignore: true };
  const d = data as Record<string, unknown>;
  if (!Object.hasOwn(d, 'source') || d.source !== PROTOCOL.source) return { ignore: true };
  const versionProblem = checkVersion(d);
  if (versionProblem) return { err: versionProblem };
  const type = d.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) {
    return {
      err: `unknown command ${JSON.stringify(typeof type === 'string' ? type.slice(0, 40) : type) ?? String(type)} (expected setPosition, startSearch, review or showReview)`,
    };
  }
  const fields = FIELDS[type as Command['type']];
  for (const key of Object.keys(d)) {
    if (key === 'source' || key === 'version' || key === 'type') continue;
    const check = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!check) {
      return { err: `${type}: unknown field ${JSON.stringify(key.slice(0, 40))} (expected ${Object.keys(fields).join(', ')})` };
    }
    const problem = check(d[key]);
    if (problem) return { err: `${type}: field '${key}' ${problem}` };
  }
  const missing = (REQUIRED[type as Command['type']] ?? []).find((k) => !Object.hasOwn(d, k));
  if (missing) return { err: `${type}: field '${missing}' is missing` };
  const cmd: Record<string, unknown> = { type };
  for (const key of Object.keys(fields)) if (Object.hasOwn(d, key)) cmd[key] = d[key];
  return { ok: cmd as Command };
}

/** The `allowed-origins=` value as origins (`scheme://host[:port]`, normalised, each once, in the
 * order first named), or what is wrong with it. */
export function allowedOrigins(value: string | null): { origins: string[] | null; error?: string } {
  if (value === null) return { origins: null };
  const parts = value.split(/[\s,]+/).filter(Boolean);
  if (!parts.length) return { origins: [], error: 'allowed-origins is empty: commands from the host are refused' };
  const origins: string[] = [];
  for (const p of parts) {
    let o: string;
    try {
      o = new URL(p).origin;
    } catch {
      o = 'null';
    }
    if (o === 'null') {
      return {
        origins: [],
        error: `allowed-origins: '${p.slice(0, 60)}' is not an origin such as https://example.org; commands are refused`,
      };
    }
    // Normalised (`new URL(x).origin`: scheme and host in lower case, the default port left
    // out, no path) and each once: an origin named twice must not hear every event twice.
    if (!origins.includes(o)) origins.push(o);
  }
  return { origins };
}
