import { EngineClient } from './engine';

const app = document.getElementById('app')!;
const engine = new EngineClient();
const snap = await engine.newGame('tictactoe', []);
app.textContent = JSON.stringify(snap);
