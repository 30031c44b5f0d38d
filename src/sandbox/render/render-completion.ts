import type { CompletionDeduplication, CompletionRecord } from '../ledger/completion-record.js';
import type { Ledger } from '../ledger/ledger.js';
import { formatInstant } from './format-instant.js';
import { jsonPieces } from './json-pieces.js';
import { renderCompletionStatus } from './render-completion-status.js';

/** Which completions a stream shows: those of `userId` (any user when `undefined`) with an `actAs` party among `parties` (or any). */
export interface CompletionFilter {
  readonly userId: string | undefined;
  readonly parties: ReadonlySet<string> | 'any';
}

function deduplicationJson(d: CompletionDeduplication): string {
  switch (d.kind) {
    case 'duration':
      return `{"DeduplicationDuration":{"value":{"seconds":${d.seconds},"nanos":${d.nanos},"unknownFields":{"fields":{}}}}}`;
    case 'offset':
      return `{"DeduplicationOffset":{"value":${d.offset}}}`;
    case 'none':
      return '{"Empty":{}}';
  }
}

function transactionHashJson(ledger: Ledger, s: CompletionRecord['submission']): string {
  if (!ledger.api.transactionHash) return '';
  return `,"transactionHash":${s.transactionHash === undefined ? 'null' : `"${s.transactionHash}"`}`;
}

/**
 * One `CompletionStreamResponse` element of the completion streams, or `undefined` when `filter` leaves
 * the completion out. The participant fills (CompletionFromTransaction.scala at e5f40da5e): `commandId`,
 * `status`, `updateId` (`""` for a rejection), `userId`, `actAs` (the submitters among the requested
 * parties), `submissionId`, `deduplicationPeriod`, `traceContext`, `offset`, `synchronizerTime` (the
 * synchronizer and the record time), `paidTrafficCost` (0 for a rejection: nothing was sequenced) and
 * on 3.6 `transactionHash` (`null` unless the submission was externally signed; docs/participant-versions.md).
 */
export function renderCompletion(ledger: Ledger, c: CompletionRecord, filter: CompletionFilter): string | undefined {
  const s = c.submission;
  if (filter.userId !== undefined && s.userId !== filter.userId) return undefined;
  const value = renderCompletionValue(ledger, c, filter.parties);
  return value === undefined ? undefined : `{"completionResponse":{"Completion":{"value":${value}}}}`;
}

/**
 * The `Completion` object of a completion (the value inside a stream element, or an entry of
 * `completion-by-hash`), with `actAs` narrowed to `parties`; `undefined` when none of its `actAs` is
 * among them.
 */
export function renderCompletionValue(ledger: Ledger, c: CompletionRecord, parties: CompletionFilter['parties']): string | undefined {
  const s = c.submission;
  const actAs = parties === 'any' ? s.actAs : s.actAs.filter((p) => parties.has(p));
  if (actAs.length === 0) return undefined;
  const syncId = jsonPieces.syncIdJson(ledger, c.synchronizer);
  return (
    `{"commandId":${JSON.stringify(s.commandId)},` +
    `"status":${renderCompletionStatus(c.rejection, s.submissionId)},"updateId":"${c.rejection ? '' : ledger.ids.updateId(c.offset)}",` +
    `"userId":${JSON.stringify(s.userId)},"actAs":${JSON.stringify(actAs)},"submissionId":${JSON.stringify(s.submissionId)},` +
    `"deduplicationPeriod":${deduplicationJson(c.deduplication)},"traceContext":${jsonPieces.traceContextJson(s)},"offset":${c.offset},` +
    `"synchronizerTime":{"synchronizerId":${syncId},"recordTime":"${formatInstant(c.recordTimeMs)}"},` +
    `"paidTrafficCost":${c.rejection ? 0 : jsonPieces.trafficCost(c.offset)}${transactionHashJson(ledger, s)}}`
  );
}
