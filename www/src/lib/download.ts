// The page's one download helper: a Blob (or text, JSON, CSV, SVG, a canvas as PNG) saved under a
// file name through a temporary `<a download>` link. Used by the arena (CSV, JSON), the records
// box (move list, SGF, board SVG/PNG, tree JSON/SVG/PNG).

import { h } from './dom';

/** Saves `data` as `name`. */
export function downloadBlob(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has read the blob once the click is handled; keep it a while for slow machines.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text with a MIME type (`text/plain` by default). */
export function downloadText(name: string, text: string, type = 'text/plain'): void {
  downloadBlob(name, new Blob([text], { type }));
}

/** Saves a value as JSON (one space of indentation, as `mcts … --json` writes). */
export function downloadJson(name: string, value: unknown): void {
  downloadText(name, JSON.stringify(value, null, 1), 'application/json');
}

/** One CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled). */
export function csvField(v: string | number | boolean | null): string {
  const s = v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text from a header and rows (each line ends with a newline). */
export function csvText(header: readonly string[], rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  return [header, ...rows].map((r) => `${r.map(csvField).join(',')}\n`).join('');
}

/** Saves rows as CSV. */
export function downloadCsv(
  name: string,
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null)[])[],
): void {
  downloadText(name, csvText(header, rows), 'text/csv');
}

/** Saves an SVG document's text. */
export function downloadSvg(name: string, svgText: string): void {
  downloadText(name, svgText, 'image/svg+xml');
}

/** A canvas as a PNG blob. */
export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error('PNG encoding failed'))), 'image/png'));
}

/** Saves a canvas as PNG. */
export async function downloadPng(name: string, canvas: HTMLCanvasElement): Promise<void> {
  downloadBlob(name, await canvasPng(canvas));
}
