import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
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
export const CompletionDeduplicationPeriod = lazySchema(() => variant('DeduplicationPeriod', deduplicationPeriodCases, { open: true }));
export type CompletionDeduplicationPeriod = z.output<typeof CompletionDeduplicationPeriod>;

/**
 * `Completion` (payload): the outcome of one submission. Without `status`, or with `status.code` 0, the
 * command succeeded and `updateId` names its transaction or reassignment at `offset`; any other code is a
 * failure (a google.rpc status: code, message, details). `actAs` holds the submission's `actAs` parties
 * that the reader may see, in any order.
 */
export const Completion = lazySchema(() => z.looseObject({
  commandId: z.string(),
  status: built(JsStatus).nullish(),
  updateId: z.string().nullish(),
  userId: z.string(),
  actAs: z.array(z.string()),
  submissionId: z.string().nullish(),
  deduplicationPeriod: built(CompletionDeduplicationPeriod).nullish(),
  traceContext: built(TraceContext).nullish(),
  offset: built(Offset),
  synchronizerTime: built(SynchronizerTime),
  paidTrafficCost: built(Int64).nullish(),
  transactionHash: z.string().nullish(),
}));
export type Completion = z.output<typeof Completion>;

/** The alternatives of `CompletionResponse`: `Completion` and `OffsetCheckpoint` wrap their payload in `"value"`. */
export const completionResponseCases = {
  Completion: lazySchema(() => wrapped(built(Completion))),
  Empty,
  OffsetCheckpoint: lazySchema(() => wrapped(built(OffsetCheckpoint))),
};

/** `CompletionResponse`: a completion, a checkpoint, `Empty`, or an `UnknownVariant` from a newer server. */
export const CompletionResponse = lazySchema(() => variant('CompletionResponse', completionResponseCases, { open: true }));
export type CompletionResponse = z.output<typeof CompletionResponse>;

/** `CompletionStreamResponse`: one element of a completion stream. */
export const CompletionStreamResponse = lazySchema(() => z.looseObject({
  completionResponse: built(CompletionResponse),
}));
export type CompletionStreamResponse = z.output<typeof CompletionStreamResponse>;

/**
 * `CompletionStreamRequest`: the body of the deprecated `/v2/commands/completions`: the completions of
 * `userId`'s commands (the token's user when left out) that act as one of `parties`, after `beginExclusive`.
 */
export const CompletionStreamRequest = lazySchema(() => z.looseObject({
  userId: z.string().nullish(),
  parties: z.array(z.string()),
  beginExclusive: built(Offset).nullish(),
}));
export type CompletionStreamRequest = z.input<typeof CompletionStreamRequest>;

/**
 * `GetCompletionsRequest`: the body of `/v2/commands/command-completions`: the completions of commands that
 * act as one of `parties` (every party with `CanReadAsAnyParty` when left out), after `beginExclusive`.
 */
export const GetCompletionsRequest = lazySchema(() => z.looseObject({
  parties: z.array(z.string()).nullish(),
  beginExclusive: built(Offset).nullish(),
}));
export type GetCompletionsRequest = z.input<typeof GetCompletionsRequest>;

/** `GetCompletionByHashRequest`: the body of `POST /v2/commands/completion-by-hash` (3.6 on). */
export const GetCompletionByHashRequest = lazySchema(() => z.looseObject({
  transactionHash: z.string().min(1, 'must be the non-empty base64 transaction hash'),
}));
export type GetCompletionByHashRequest = z.input<typeof GetCompletionByHashRequest>;

/**
 * `GetCompletionByHashResponse`: the accepted completion of a transaction hash (at most one) and its last
 * rejected ones, newest first, as far as the caller may read them.
 */
export const GetCompletionByHashResponse = lazySchema(() => z.looseObject({
  acceptedCompletion: built(Completion).nullish(),
  lastRejectedCompletions: z.array(built(Completion)).nullish(),
}));
export type GetCompletionByHashResponse = z.output<typeof GetCompletionByHashResponse>;
