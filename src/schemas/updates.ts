import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { SynchronizerTime, TraceContext } from './common.js';
import { Event, JsReassignmentEvent, TopologyEvent } from './events.js';
import { TransactionFilter, UpdateFormat } from './filters.js';
import { Int32, Int64, Offset, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/**
 * `JsTransaction`: a committed Daml transaction. `commandId` and `workflowId` are `""` (not `null`) when not
 * visible or not set.
 */
export const JsTransaction = lazySchema(() => z.looseObject({
  updateId: z.string(),
  commandId: z.string().nullish(),
  workflowId: z.string().nullish(),
  effectiveAt: built(Timestamp),
  events: z.array(built(Event)),
  offset: built(Offset),
  synchronizerId: z.string(),
  traceContext: built(TraceContext).nullish(),
  recordTime: built(Timestamp),
  externalTransactionHash: z.string().nullish(),
  paidTrafficCost: built(Int64).nullish(),
  transactionHash: z.string().nullish(),
}));
export type JsTransaction = z.output<typeof JsTransaction>;

/** `JsReassignment`: contracts moved between synchronizers. */
export const JsReassignment = lazySchema(() => z.looseObject({
  updateId: z.string(),
  commandId: z.string().nullish(),
  workflowId: z.string().nullish(),
  offset: built(Offset),
  events: z.array(built(JsReassignmentEvent)),
  traceContext: built(TraceContext).nullish(),
  recordTime: built(Timestamp),
  synchronizerId: z.string(),
  paidTrafficCost: built(Int64).nullish(),
}));
export type JsReassignment = z.output<typeof JsReassignment>;

/** `JsTopologyTransaction`: participant authorization changes. */
export const JsTopologyTransaction = lazySchema(() => z.looseObject({
  updateId: z.string(),
  offset: built(Offset),
  synchronizerId: z.string(),
  recordTime: built(Timestamp),
  events: z.array(built(TopologyEvent)),
  traceContext: built(TraceContext).nullish(),
}));
export type JsTopologyTransaction = z.output<typeof JsTopologyTransaction>;

/**
 * `OffsetCheckpoint` (payload): the participant has indexed everything up to `offset`. A valid
 * `beginExclusive` for resuming; appears only in open-ended streams.
 */
export const OffsetCheckpoint = lazySchema(() => z.looseObject({
  offset: built(Offset),
  synchronizerTimes: z.array(built(SynchronizerTime)).nullish(),
}));
export type OffsetCheckpoint = z.output<typeof OffsetCheckpoint>;

/** The alternatives of `Update`; every one wraps its payload in `"value"`. */
export const updateCases = {
  OffsetCheckpoint: lazySchema(() => wrapped(built(OffsetCheckpoint))),
  Reassignment: lazySchema(() => wrapped(built(JsReassignment))),
  TopologyTransaction: lazySchema(() => wrapped(built(JsTopologyTransaction))),
  Transaction: lazySchema(() => wrapped(built(JsTransaction))),
};

/** `Update`: one of the four kinds, or an {@link UnknownVariant} from a newer server. */
export const Update = lazySchema(() => variant('Update', updateCases, { open: true }));
export type Update = z.output<typeof Update>;

/** `JsGetUpdatesResponse`: one element of the `POST /v2/updates` array. */
export const JsGetUpdatesResponse = lazySchema(() => z.looseObject({
  update: built(Update),
}));
export type JsGetUpdatesResponse = z.output<typeof JsGetUpdatesResponse>;

/**
 * `GetUpdatesRequest`: the body of `POST /v2/updates`. Use `updateFormat`; the deprecated `filter`/`verbose`
 * pair is accepted and converted by the client (see `fromLegacyFilter`).
 */
export const GetUpdatesRequest = lazySchema(() => z.looseObject({
  beginExclusive: built(Offset),
  endInclusive: built(Int64).nullish(),
  filter: built(TransactionFilter).nullish(),
  verbose: z.boolean().nullish(),
  updateFormat: built(UpdateFormat).nullish(),
  descendingOrder: z.boolean().nullish(),
}));
export type GetUpdatesRequest = z.input<typeof GetUpdatesRequest>;

/** `JsGetUpdateResponse`: one update of a `get-updates-page` answer; the same shape as {@link JsGetUpdatesResponse}. */
export const JsGetUpdateResponse = JsGetUpdatesResponse;
export type JsGetUpdateResponse = JsGetUpdatesResponse;

/**
 * `GetUpdatesPageRequest`: the body of `POST /v2/updates/get-updates-page`. Every field but `updateFormat` is
 * optional; `pageToken` is the `nextPageToken` of the previous page (base64), valid only with the same
 * offsets, page size, format and order, on the same participant.
 */
export const GetUpdatesPageRequest = lazySchema(() => z.looseObject({
  beginOffsetExclusive: built(Offset).nullish(),
  endOffsetInclusive: built(Int64).nullish(),
  maxPageSize: built(Int32).nullish(),
  updateFormat: built(UpdateFormat),
  descendingOrder: z.boolean().nullish(),
  pageToken: z.string().nullish(),
}));
export type GetUpdatesPageRequest = z.input<typeof GetUpdatesPageRequest>;

/**
 * `JsGetUpdatesPageResponse`: one page of updates, its bounds `(lowestPageOffsetExclusive,
 * highestPageOffsetInclusive]`, and `nextPageToken` unless it is the last page (an ascending read without
 * an end always has one).
 */
export const JsGetUpdatesPageResponse = lazySchema(() => z.looseObject({
  updates: z.array(built(JsGetUpdateResponse)).nullish(),
  lowestPageOffsetExclusive: built(Int64),
  highestPageOffsetInclusive: built(Int64),
  nextPageToken: z.string().nullish(),
}));
export type JsGetUpdatesPageResponse = z.output<typeof JsGetUpdatesPageResponse>;

/**
 * `GetUpdateByHashRequest`: the body of `POST /v2/updates/update-by-hash` (3.6 on): the transaction hash of
 * an externally signed submission (base64, non-empty) and the format of the update to return.
 */
export const GetUpdateByHashRequest = lazySchema(() => z.looseObject({
  transactionHash: z.string().min(1, 'must be the non-empty base64 transaction hash'),
  updateFormat: built(UpdateFormat),
}));
export type GetUpdateByHashRequest = z.input<typeof GetUpdateByHashRequest>;
