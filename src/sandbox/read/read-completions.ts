import type { CompletionRecord } from '../ledger/completion-record.js';
import type { Ledger } from '../ledger/ledger.js';
import { checkpointJson } from '../render/checkpoint-json.js';
import { renderCompletion, type CompletionFilter } from '../render/render-completion.js';
import { readLog, type ElementGuard, type ElementSink, type LogSource, type ReadPlan } from './read-log.js';

/**
 * Reads the completion log of `ledger` for one completion stream ({@link readLog}): the completions
 * `filter` lets through, and — completion streams are always open-ended on the participant — offset
 * checkpoints (`{"completionResponse": {"OffsetCheckpoint": {"value": …}}}`) by the same rules as the
 * update stream (IndexServiceImpl.scala:302-340 at e5f40da5e).
 */
export function readCompletions(ledger: Ledger, filter: CompletionFilter, plan: ReadPlan, sink: ElementSink, signal: AbortSignal, guard?: ElementGuard): Promise<number> {
  const source: LogSource<CompletionRecord> = {
    indexAfter: (offset) => ledger.completionIndexAfter(offset),
    at: (i) => ledger.completionAt(i),
    render: (c) => renderCompletion(ledger, c, filter),
    checkpoint: (cp) => `{"completionResponse":{"OffsetCheckpoint":{"value":${checkpointJson(ledger, cp)}}}}`,
  };
  return readLog(ledger, source, plan, sink, signal, guard);
}
