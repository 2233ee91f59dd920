// The network presets (alphazero, alphago, puct-net) need a trained net for the game. The engine
// refuses them where none ships (e.g. Pentago: "no trained network for '<spec>' ..."), and the
// worker says so when the shipped file cannot be fetched or read ("the network for '<spec>'
// could not be loaded (models/<file>: HTTP 404)"). Every feature that runs a preset (play, hint,
// analyse, compare, arena, step-through, embed, URL) then goes on with a net-free preset and
// says so with `fallbackMessage`, instead of stopping.

import { NET_PRESETS as ENGINE_NET_PRESETS, type PresetName } from '../generated/schema';

/** The presets that need the game's trained network (the engine's `Preset::needs_net`, from the
 * generated schema; the worker's `hello` lists the same as `netPresets`). */
export const NET_PRESETS: readonly string[] = ENGINE_NET_PRESETS;

/** The net-free presets tried in turn as the fallback. */
const FALLBACKS: readonly PresetName[] = ['best', 'puct', 'uct'];

/** Whether an engine error says the game's network is missing or unusable. */
export function isNoNetError(message: string): boolean {
  return /no trained network for|the network for '[^']*' (could not be loaded|is not loaded)/i.test(message);
}

/** The preset to play instead of `preset` (one of `presets`), or null if none fits. */
export function netFreeFallback(presets: readonly string[]): string | null {
  return FALLBACKS.find((p) => presets.includes(p)) ?? presets.find((p) => !NET_PRESETS.includes(p)) ?? null;
}

/** The sentence shown when `preset` fell back to `fallback` on `spec`; `error` (the engine's
 * message) tells a missing net from one that failed to load. */
export function fallbackMessage(preset: string, spec: string, fallback: string, error?: string): string {
  const m = error ? /could not be loaded \((.*)\)$/.exec(error) : null;
  if (m) return `${preset} needs the trained network for ${spec}, which could not be loaded (${m[1]}): playing with ${fallback} instead.`;
  return `${preset} needs a trained network and none ships for ${spec}: playing with ${fallback} instead.`;
}

/** Whether `preset` needs a network, and whether `spec` has one (shipped or loaded), for the
 * preset lists: `''` for net-free presets, else a short note. */
export function netNote(preset: string, spec: string, shipped: readonly string[], loaded: readonly string[]): string {
  if (!NET_PRESETS.includes(preset)) return '';
  if (loaded.includes(spec)) return 'network loaded';
  if (shipped.includes(spec)) return 'network';
  return `needs a network: none for ${spec}`;
}
