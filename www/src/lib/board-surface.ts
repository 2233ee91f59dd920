// What a board offers the features that draw on it or take it whole (the search overlays, the
// image export, the embed's size): every renderer of ../board implements it (`BoardRenderer`
// extends it; `svgBoard` in board/render.ts builds it over an SVG board), so that no feature
// looks inside a renderer's elements. Here, below both, so that the page's hooks (types.ts) can
// name it without importing the renderers.

/** Where a cell is drawn, in the board's SVG user units (`BoardSurface.svg`'s viewBox): its
 * centre and the radius of the circle it holds (Hex: half the hexagon's width; a square cell:
 * half its side; Pentago: its hole). A feature scales what it draws on a cell by `r`. */
export interface CellGeometry {
  x: number;
  y: number;
  r: number;
}

/** A board as the features draw on it. */
export interface BoardSurface {
  /** The board's drawing, for what takes it whole: an image export (share/records.ts clones it)
   * and its proportions (its viewBox). Features never look inside it for cells or shapes. */
  readonly svg: SVGSVGElement;
  /** Every cell's geometry, by index `row * cols + col` (one entry per cell of the board), from
   * the renderer's own layout: right whether the board is shown or hidden (`display: none`). */
  cellGeometry(): readonly CellGeometry[];
  /** The group to draw over the board in (the search overlays): in `svg`, above the stones and
   * every control of the renderer, `pointer-events: none` and `aria-hidden`, so the board keeps
   * its clicks. The same group for the renderer's life: its redraws and animations never clear
   * or move it (Pentago's twist turns a quadrant under it, the overlay staying on the cells);
   * what a feature draws there stays until the feature removes it. */
  overlayLayer(): SVGGElement;
  /** The cell an event's target is part of (a pointer over the board), or null. */
  cellAt(target: EventTarget | null): number | null;
  /** Sets a cell's tooltip (its `<title>`), or removes it (`null` or ''). */
  setCellTitle(cell: number, text: string | null): void;
}
