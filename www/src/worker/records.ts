// Game records and positions apart from the worker's game: reading a record's text and writing one
// (in the formats of the engine's `record.rs`), and the snapshot of a position given by spec and moves.

import type { GameRecordText, Request } from '../protocol';
import { assertNever } from '../protocol';
import { replayed } from './game';
import { send } from './send';
import { parseRecord, writeRecord } from './wasm';

/** The requests this file answers. */
export type RecordRequest = Extract<Request, { type: 'parseRecord' | 'writeRecord' | 'viewPosition' }>;

/** Answers a record request. */
export function handleRecord(req: RecordRequest): void {
  switch (req.type) {
    case 'parseRecord':
      send({ type: 'record', id: req.id, record: parseRecord(req.text) as GameRecordText });
      return;
    case 'writeRecord':
      send({ type: 'recordText', id: req.id, text: writeRecord(req.spec, req.moves, req.format, req.variations ?? null) });
      return;
    case 'viewPosition': {
      const g = replayed(req.spec, req.moves);
      try {
        send({ type: 'positionView', id: req.id, snapshot: g.snapshot() });
      } finally {
        g.free();
      }
      return;
    }
    default:
      assertNever(req);
  }
}
