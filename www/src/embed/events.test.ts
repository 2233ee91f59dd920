import { describe, expect, it } from 'vitest';
import type { SearchReportJson, SearchResult } from '../protocol';
import { reviewFinishedFields, searchFinishedFields } from './events';

const result: SearchResult = {
  playouts: 300,
  playoutsPerS: 1000,
  elapsedMs: 300,
  engineMs: 290,
  bestMove: 'c3',
  winRate: 0.6,
  pv: ['c3', 'b4'],
  proven: null,
  nodes: 301,
  nodeCap: null,
  memoryCap: null,
  move: 'c3',
  end: 'budget',
};

describe('searchFinished', () => {
  it('keeps its fields and adds the report as the engine wrote it', () => {
    const report = { game: 'hex:5', best_move: 'c3', pv: ['c3', 'b4'], iterations: 300, children: [], policy: { kind: 'random' } };
    const fields = searchFinishedFields(1, result, report as unknown as SearchReportJson);
    expect(fields).toEqual({ side: 1, bestMove: 'c3', winRate: 0.6, playouts: 300, proven: null, end: 'budget', report });
    expect(fields.report).toBe(report);
  });
  it('says which preset searched when a net preset fell back, and leaves out a missing report', () => {
    const fallback = { preset: 'rave', message: 'no net for hex:5: rave searched instead' };
    expect(searchFinishedFields(0, { ...result, winRate: null }, undefined, fallback)).toEqual({
      side: 0,
      bestMove: 'c3',
      winRate: null,
      playouts: 300,
      proven: null,
      end: 'budget',
      fallback,
    });
  });
});

describe('reviewFinished', () => {
  it('carries the review’s report as the engine wrote it', () => {
    const report = { game: 'hex:5', moves: [], settings: {}, plies: [], summary: {} } as never;
    expect(reviewFinishedFields(report)).toEqual({ report });
  });
});
