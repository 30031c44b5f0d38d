import type { Ledger } from '../ledger/ledger.js';
import type { UpdateRecord } from '../ledger/update-record.js';
import type { UpdateRenderer } from '../render/create-update-renderer.js';
import { readLog, type ElementGuard, type ElementSink, type LogSource, type ReadPlan } from './read-log.js';

/**
 * Reads the update log of `ledger` for one request ({@link readLog} with `renderer`): the elements of
 * `POST /v2/updates`, `GET /v2/updates` and the update pages.
 */
export function readUpdates(ledger: Ledger, renderer: UpdateRenderer, plan: ReadPlan, sink: ElementSink, signal: AbortSignal, guard?: ElementGuard): Promise<number> {
  const source: LogSource<UpdateRecord> = {
    indexAfter: (offset) => ledger.indexAfter(offset),
    at: (i) => ledger.at(i),
    render: (u) => renderer.render(u),
    checkpoint: (cp) => renderer.checkpoint(cp),
  };
  return readLog(ledger, source, plan, sink, signal, guard);
}
