// The page's one element helper: `h` for HTML elements, `svg` for SVG elements, with the same
// attribute rules for both.
//
// Attributes: a string or number is set as is; `true` sets the attribute empty (`disabled`,
// `hidden`, `checked`); `false`, `null` and `undefined` leave it out.

export const SVG_NS = 'http://www.w3.org/2000/svg';

export type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string;

function setAttrs(e: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
}

/** An HTML element with attributes and children: `h('button', { id: 'stop', disabled: true }, 'Stop')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  setAttrs(e, attrs);
  e.append(...children);
  return e;
}

/** An SVG element with attributes, appended to `parent` when given:
 * `svg('circle', { cx: 5, cy: 5, r: 2 }, group)`. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, parent?: Element | null): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  setAttrs(e, attrs);
  parent?.appendChild(e);
  return e;
}
