// The forward pass in WebAssembly equals the native one on every shipped net: the built pkg/
// (the module the worker loads, called from Node) evaluates the positions of
// tests/data/nn_forward.json, which tests/nn_forward.rs computes natively, within 1e-5. Also:
// the wasm embeds no weights (a net is registered from the bytes of models/<file>), and a
// network preset searched twice with one seed gives the same statistics.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const fixture = JSON.parse(readFileSync(join(ROOT, 'tests', 'data', 'nn_forward.json'), 'utf8'));
let w;
before(async () => {
  w = await import(join(ROOT, 'pkg', 'mcts_playground.js'));
  await w.default({ module_or_path: readFileSync(join(ROOT, 'pkg', 'mcts_playground_bg.wasm')) });
});

test('the wasm build embeds no net: a network preset asks for models/<file> until one is registered', () => {
  const shipped = w.shippedNets();
  assert.deepEqual(
    shipped.map((n) => n.spec).sort(),
    fixture.nets.map((n) => n.spec).sort(),
    'the fixture covers every shipped net (MCTS_UPDATE_FIXTURES=1 cargo test --test nn_forward)',
  );
  for (const n of shipped) {
    assert.equal(w.netInfo(n.spec), null);
    const g = new w.GameSession(n.spec);
    assert.throws(
      () => new w.SearchSession(g, 'alphazero', null),
      new RegExp(`the network for '${n.spec}' is not loaded yet \\(models/${n.file.replace('.', '\\.')}\\)`),
    );
    g.free();
  }
  assert.deepEqual(w.netPresets(), ['alphazero', 'alphago', 'puct-net']);
  assert.equal(w.usesNet('alphazero', null), true);
  assert.equal(w.usesNet('puct', { prior: 'net' }), true);
  assert.equal(w.usesNet('rave', null), false);
});

test('forward pass: wasm equals native within 1e-5 on every shipped net', () => {
  for (const net of fixture.nets) {
    const info = w.loadShippedNet(net.spec, readFileSync(join(ROOT, 'models', net.file)));
    assert.equal(info.source, 'shipped');
    let worst = 0;
    for (const pos of net.positions) {
      const g = new w.GameSession(net.spec);
      for (const m of pos.moves) g.play(m);
      const e = w.evaluatePosition(g, 'alphazero', null);
      g.free();
      assert.equal(e.evaluator, 'net');
      assert.equal(e.net.spec, net.spec);
      assert.deepEqual(
        e.priors.map((p) => p.move),
        pos.priors.map((p) => p.move),
      );
      worst = Math.max(worst, Math.abs(e.value - pos.value), ...e.priors.map((p, i) => Math.abs(p.p - pos.priors[i].p)));
    }
    assert.ok(worst <= fixture.tolerance, `${net.spec}: largest difference ${worst} > ${fixture.tolerance}`);
  }
});

test('network presets are deterministic for a seed in wasm', () => {
  for (const net of fixture.nets) {
    w.loadShippedNet(net.spec, readFileSync(join(ROOT, 'models', net.file)));
    for (const preset of ['alphazero', 'alphago', 'puct-net']) {
      const run = () => {
        const g = new w.GameSession(net.spec);
        const s = new w.SearchSession(g, preset, { seed: '11' });
        s.run(1e9, 300);
        const st = s.stats();
        s.free();
        g.free();
        // Time-dependent fields aside, the statistics are the same.
        return JSON.stringify({ ...st, elapsed_ms: 0, iterations_per_s: 0 });
      };
      assert.equal(run(), run(), `${net.spec} ${preset}`);
    }
  }
});

test('evaluatePosition: uniform and tactical priors are shown as such; a net-free preset has no value', () => {
  const g = new w.GameSession('tictactoe');
  const u = w.evaluatePosition(g, 'puct', { prior: 'uniform' });
  assert.equal(u.evaluator, 'uniform');
  assert.equal(u.value, null);
  assert.equal(u.net, null);
  for (const p of u.priors) assert.ok(Math.abs(p.p - 1 / 9) < 1e-6);
  const t = w.evaluatePosition(g, 'puct', null);
  assert.equal(t.evaluator, 'tactical');
  assert.ok(Math.abs(t.priors.reduce((s, p) => s + p.p, 0) - 1) < 1e-5);
  g.free();
  const p = new w.GameSession('pentago');
  assert.throws(() => w.evaluatePosition(p, 'alphazero', null), /no trained network for 'pentago:official'/);
  p.free();
});
