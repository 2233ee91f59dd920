// The network presets (alphazero, alphago, puct-net) need a trained net for the game; the engine
// refuses them elsewhere (e.g. Pentago) with "no trained network for '<spec>' ...". The page then
// plays on with a net-free preset and says so, instead of stopping.

/** The presets that need the game's trained network (the engine's `Preset::needs_net`). */
export const NET_PRESETS: readonly string[] = ['alphazero', 'alphago', 'puct-net'];

/** The net-free presets tried in turn as the fallback. */
const FALLBACKS = ['best', 'puct', 'uct'];

/** Whether an engine error says the game has no trained network. */
export function isNoNetError(message: string): boolean {
  return /no trained network for/i.test(message);
}

/** The preset to play instead of `preset` (one of `presets`), or null if none fits. */
export function netFreeFallback(presets: readonly string[]): string | null {
  return FALLBACKS.find((p) => presets.includes(p)) ?? presets.find((p) => !NET_PRESETS.includes(p)) ?? null;
}

/** The sentence shown when `preset` fell back to `fallback` on `spec`. */
export function fallbackMessage(preset: string, spec: string, fallback: string): string {
  return `${preset} needs a trained network and none ships for ${spec}: playing with ${fallback} instead.`;
}
