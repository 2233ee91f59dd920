// The search parameters a Compare pane sets besides its preset (blank: the preset's), by their
// engine names (`ParamName` of the generated schema): one list for the pane's form
// (compare/pane.ts), its engine parameters (compare/controller.ts), its URL fields (state.ts
// `PANE_KEYS`: `pane1=preset:rave,c:0.7,...`) and the lessons' `compare.setPane` intent
// (lessons/catalogue.ts, whose argument types come from the schema too). Here, in lib/, because
// the lessons may not import the Compare view (it imports them).

import type { ParamName } from '../generated/schema';

/** The parameters a pane may set besides its preset, in the form's order. */
export const PANE_PARAMS = [
  'c',
  'rave_k',
  'lgr_p',
  'pool_k',
  'save_bridge',
  'prior',
  'progressive_bias',
  'knowledge',
  'knowledge_threshold',
  'expand_threshold',
] as const satisfies readonly ParamName[];
/** One of them. */
export type PaneParam = (typeof PANE_PARAMS)[number];
