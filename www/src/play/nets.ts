// The networks on the page: which presets need one, whether the game has one, and the user's own
// nets. The wasm embeds no weights; each engine worker fetches the game's shipped file
// (`models/<file>`) the first time a network preset is used (worker.ts). A net the user loads —
// a `.mctsnet` file written by `mcts train`, or a net trained in the page — goes to every engine
// worker (`EngineClient.shareNet`) and replaces the shipped net of its game until the page reloads.

import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import { count } from '../lib/format';
import { MAX_NET_BYTES, netTooLong } from '../lib/limits';
import type { NetInfo } from '../protocol';
import type { NetsState, PageStore } from '../state';
import { PRESETS, type PresetName } from '../generated/schema';
import { NET_PRESETS } from './net-fallback';

/** Whether the game `spec` has a net: one the user loaded or one shipped with the page. */
export function hasNet(nets: NetsState, spec: string): boolean {
  return nets.user.some((n) => n.info.spec === spec) || nets.shipped.some((n) => n.spec === spec);
}

/** Whether `preset` needs a trained network. */
export function needsNet(nets: NetsState, preset: string): boolean {
  return (nets.netPresets.length ? nets.netPresets : NET_PRESETS).includes(preset);
}

/** The label of `preset` in a preset list for the game `spec`: the name, and for the network
 * presets whether the game has a net (`alphazero · net`, `alphazero · your net`,
 * `alphazero · no net for pentago:official`). Short, since a closed list shows it. */
export function presetLabel(nets: NetsState, preset: string, spec: string | null): string {
  if (!needsNet(nets, preset)) return preset;
  if (spec === null) return `${preset} · needs a net`;
  if (nets.user.some((n) => n.info.spec === spec)) return `${preset} · your net`;
  if (nets.shipped.some((n) => n.spec === spec)) return `${preset} · net`;
  return `${preset} · no net for ${spec}`;
}

/** Relabels the options of preset `<select>`s for the game `spec` (values unchanged). */
export function labelPresetOptions(select: HTMLSelectElement, nets: NetsState, spec: string | null): void {
  for (const o of select.options) {
    const want = presetLabel(nets, o.value, spec);
    if (o.textContent !== want) o.textContent = want;
    const title = presetDescription(o.value);
    if (title && o.title !== title) o.title = title;
  }
}

/** A preset's one-line description (the engine's, `preset_description` in src/mcts/schema.rs, from
 * the generated schema), or '' for a name the schema does not know. */
export function presetDescription(preset: string): string {
  return Object.hasOwn(PRESETS, preset) ? PRESETS[preset as PresetName].description : '';
}

/** A net's shape in words: its layer widths (`layers 18→128→128→9`), or for a convolutional net
 * its channels and 3×3 layers (`convolutional, 32 channels × 6 layers`; its `layers` count units). */
export function netShape(info: NetInfo): string {
  return info.trunk === 'conv'
    ? `convolutional, ${info.channels ?? '?'} channels × ${(info.blocks ?? 0) + 1} layers`
    : `layers ${info.layers.join('→')}`;
}

/** The sentence saying which net plays now. */
export function userNetSentence(info: NetInfo): string {
  return `Your network “${info.name}” plays ${info.spec} (${count(info.parameters)} parameters, ${netShape(info)}) in place of the shipped one until you reload the page.`;
}

export interface NetsHooks {
  store: PageStore;
  engine: () => EngineClient;
  showMessage: (text: string, kind?: 'info' | 'error') => void;
}

/** Loads a user's net (`MCTSNET` bytes) into every engine worker. On success the store lists it
 * and the page says which net plays; on error the page says why and nothing changes. Returns
 * the engine's description of the net, or null on error. The Train panel calls this to let the
 * student play the net it trained. */
export async function loadUserNet(hooks: NetsHooks, bytes: ArrayBuffer, name?: string): Promise<NetInfo | null> {
  if (bytes.byteLength > MAX_NET_BYTES) return refuseNet(hooks, netTooLong(bytes.byteLength), name);
  try {
    const info = await EngineClient.shareNet(hooks.engine(), bytes, name);
    hooks.store.update((s) => ({
      nets: { ...s.nets, user: [...s.nets.user.filter((n) => n.info.spec !== info.spec), { info, bytes }] },
    }));
    hooks.showMessage(userNetSentence(info));
    return info;
  } catch (e) {
    return refuseNet(hooks, e instanceof Error ? e.message : String(e), name);
  }
}

/** Says why the net `name` was not loaded; null. */
function refuseNet(hooks: NetsHooks, why: string, name?: string): null {
  hooks.showMessage(`Could not load the network${name ? ` “${name}”` : ''}: ${why}. The engine keeps the network it had.`, 'error');
  return null;
}

/** The Players box's network line: what the game's network is, and a button to load one from a
 * file. Kept up to date from the store. */
export function mountNetControls(hooks: NetsHooks, spec: () => string | null): HTMLElement {
  const file = h('input', { id: 'load-net', type: 'file', accept: '.mctsnet', hidden: '' });
  const button = h(
    'button',
    { type: 'button', id: 'load-net-button', title: 'Play with a network file written by mcts train' },
    'Load network…',
  );
  const text = h('span', { id: 'net-status', class: 'muted small' });
  button.addEventListener('click', () => file.click());
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    file.value = '';
    // The size first: a file longer than the format can hold is never read.
    if (f.size > MAX_NET_BYTES) refuseNet(hooks, `${netTooLong(f.size)}; nothing was read`, f.name);
    else await loadUserNet(hooks, await f.arrayBuffer(), f.name);
  });
  const draw = () => {
    const s = hooks.store.get();
    const g = spec();
    const user = s.nets.user.find((n) => n.info.spec === g);
    const shipped = s.nets.shipped.find((n) => n.spec === g);
    text.textContent = !g
      ? ''
      : user
        ? `Network: yours (“${user.info.name}”, ${count(user.info.parameters)} parameters) until reload.`
        : shipped
          ? `Network: shipped (${shipped.file}, loaded on first use).`
          : `Network: none for ${g} (the network presets fall back to a preset without one).`;
    text.dataset.net = user ? 'user' : shipped ? 'shipped' : 'none';
  };
  hooks.store.subscribe((s, prev) => {
    if (s.nets !== prev.nets || s.snapshot?.view.spec !== prev.snapshot?.view.spec) draw();
  });
  draw();
  return h('div', { class: 'row net-line' }, text, button, file);
}
