// The page's state in its URL (issue 6). One mechanism: `main.ts applyUrl` reads the original
// parameters (`game`, `p0`, `p1`, `preset`, `ms`, `playouts` — a contract, never renamed) and this
// module reads the rest and writes them all back, so copying the URL reproduces what one sees.
//
// Parameters (all optional; docs.html lists them for teachers):
//   game=SPEC            hex:7, hex:11:swap, tictactoe, pentago, pentago:twist
//   moves=LIST           moves from the start in our notation, space- or comma-separated
//   p0=, p1=             person | engine
//   preset=, ms=, playouts=            both sides' engine preset and budget
//   preset0=, preset1=, ms0=, ms1=, playouts0=, playouts1=   one side's (override the above)
//   seed=N               the engines' random seed (reproducible searches with playouts=)
//   view=play|compare|arena            the open view (also the #hash)
//   overlays=visits,q,amaf,proven,pv|none   the board overlays switched on (play view)
//   pane1..pane4=preset:rave,c:0.7,rave_k:500,lgr_p:0.5,pool_k:10,budget:20000   compare panes
//   cmpgame=, cmpmoves=, cmpbudget=, cmpseed=, panes=2..4    the compare view's position and runs
//   lesson=ID            a built-in lesson (www/src/lessons)
//   embed=1, show=moves,thinking,controls,analysis, id=NAME, origin=URL   embed mode (embed/*)

export const SIDE_KEYS = ['preset', 'ms', 'playouts'] as const;
export const PANE_KEYS = ['preset', 'c', 'rave_k', 'lgr_p', 'pool_k', 'budget'] as const;
export type PaneKey = (typeof PANE_KEYS)[number];
export const VIEWS = ['play', 'compare', 'arena'] as const;
export type View = (typeof VIEWS)[number];

/** Moves from a `moves=` value: split on spaces, `+` (a space in a query) and commas. */
export function splitMoves(v: string | null): string[] {
  if (!v) return [];
  return v.split(/[\s,+]+/).filter((m) => m.length > 0);
}

/** A compare pane's settings from `preset:rave,c:0.7,...`; unknown keys are reported. */
export function parsePane(v: string): { fields: Partial<Record<PaneKey, string>>; errors: string[] } {
  const fields: Partial<Record<PaneKey, string>> = {};
  const errors: string[] = [];
  for (const part of v.split(',').filter((x) => x.trim())) {
    const [k, ...rest] = part.split(':');
    const key = (k ?? '').trim() as PaneKey;
    const val = rest.join(':').trim();
    if (!(PANE_KEYS as readonly string[]).includes(key)) errors.push(`unknown pane field '${key}' (expected ${PANE_KEYS.join(', ')})`);
    else if (key !== 'preset' && !(val !== '' && Number.isFinite(Number(val))))
      errors.push(`pane field ${key} needs a number, got '${val}'`);
    else fields[key] = val;
  }
  return { fields, errors };
}

export function formatPane(fields: Partial<Record<PaneKey, string>>): string {
  return PANE_KEYS.filter((k) => fields[k])
    .map((k) => `${k}:${fields[k]}`)
    .join(',');
}

/** A positive integer parameter, or an error sentence. */
export function positiveInt(name: string, v: string): { value?: number; error?: string } {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) return { error: `${name}=${v} is not a positive whole number` };
  return { value: n };
}
