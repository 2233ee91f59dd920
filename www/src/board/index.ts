// One renderer per game over the shared headless state (state.ts). Which renderer a game uses is
// the game registry's business (../games/).

export { hexRenderer } from './hex';
export { pentagoRenderer } from './pentago';
export type { BoardEvents, BoardRenderer, CellGeometry } from './render';
export * from './state';
export { tictactoeRenderer } from './tictactoe';
