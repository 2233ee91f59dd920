import { describe, expect, it, vi } from 'vitest';

// The budget limit of an embed command is the engine's (`LIMITS.MAX_BUDGET` of the generated
// schema, Rust `limits::MAX_BUDGET`), written once: with another limit in the schema, the command
// check follows it. (Before, commands.ts had its own `Number.isSafeInteger` check.)
vi.mock('../generated/schema', async (original) => {
  const real = await original<typeof import('../generated/schema')>();
  return { ...real, LIMITS: { ...real.LIMITS, MAX_BUDGET: 1000 } };
});

const { parseCommand } = await import('./commands');

describe('embed command budgets', () => {
  it('are refused past the schema’s MAX_BUDGET, which the message names', () => {
    const cmd = (value: number) =>
      parseCommand({ source: 'mcts-playground', version: 1, type: 'startSearch', budget: { kind: 'playouts', value } });
    expect(cmd(1000)).toEqual({ ok: { type: 'startSearch', budget: { kind: 'playouts', value: 1000 } } });
    expect(cmd(1001)).toEqual({ err: "startSearch: field 'budget' value must be a whole number in 1..1000" });
    expect(cmd(2.5)).toEqual({ err: "startSearch: field 'budget' value must be a whole number in 1..1000" });
  });
});
