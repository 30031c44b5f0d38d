import { z } from 'zod';
import { Empty, JsStatus, SynchronizerTime, TraceContext } from './common.js';
import { deduplicationPeriodCases } from './commands.js';
import { Int64, Offset } from './primitives.js';
import { OffsetCheckpoint } from './updates.js';
import { variant, wrapped } from './variant.js';

/**
 * `DeduplicationPeriod1`: the deduplication window the participant actually used for a submission (a
 * completion field), which may differ in form from the one submitted. Open: an unknown form is kept as an
 * `UnknownVariant`.
 */
export const CompletionDeduplicationPeriod = variant('DeduplicationPeriod', deduplicationPeriodCases, { open: true });
export type CompletionDeduplicationPeriod = z.output<typeof CompletionDeduplicationPeriod>;

/**
 * `Completion` (payload): the outcome of one submission. Without `status`, or with `status.code` 0, the
 * command succeeded and `updateId` names its transaction or reassignment at `offset`; any other code is a
 * failure (a google.rpc status: code, message, details). `actAs` holds the submission's `actAs` parties
 * that the reader may see, in any order.
 */
export const Completion = z.looseObject({
  commandId: z.string(),
  status: JsStatus.nullish(),
  updateId: z.string().nullish(),
  userId: z.string(),
  actAs: z.array(z.string()),
  submissionId: z.string().nullish(),
  deduplicationPeriod: CompletionDeduplicationPeriod.nullish(),
  traceContext: TraceContext.nullish(),
  offset: Offset,
  synchronizerTime: SynchronizerTime,
  paidTrafficCost: Int64.nullish(),
  transactionHash: z.string().nullish(),
});
export type Completion = z.output<typeof Completion>;

/** The alternatives of `CompletionResponse`: `Completion` and `OffsetCheckpoint` wrap their payload in `"value"`. */
export const completionResponseCases = {
  Completion: wrapped(Completion),
  Empty,
  OffsetCheckpoint: wrapped(OffsetCheckpoint),
};

/** `CompletionResponse`: a completion, a checkpoint, `Empty`, or an `UnknownVariant` from a newer server. */
export const CompletionResponse = variant('CompletionResponse', completionResponseCases, { open: true });
export type CompletionResponse = z.output<typeof CompletionResponse>;

/** `CompletionStreamResponse`: one element of a completion stream. */
export const CompletionStreamResponse = z.looseObject({
  completionResponse: CompletionResponse,
});
export type CompletionStreamResponse = z.output<typeof CompletionStreamResponse>;

/**
 * `CompletionStreamRequest`: the body of the deprecated `/v2/commands/completions`: the completions of
 * `userId`'s commands (the token's user when left out) that act as one of `parties`, after `beginExclusive`.
 */
export const CompletionStreamRequest = z.looseObject({
  userId: z.string().nullish(),
  parties: z.array(z.string()),
  beginExclusive: Offset.nullish(),
});
export type CompletionStreamRequest = z.input<typeof CompletionStreamRequest>;

/**
 * `GetCompletionsRequest`: the body of `/v2/commands/command-completions`: the completions of commands that
 * act as one of `parties` (every party with `CanReadAsAnyParty` when left out), after `beginExclusive`.
 */
export const GetCompletionsRequest = z.looseObject({
  parties: z.array(z.string()).nullish(),
  beginExclusive: Offset.nullish(),
});
export type GetCompletionsRequest = z.input<typeof GetCompletionsRequest>;
