import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { wireSchema, type WireSchema } from './wire-schema.js';
import { SynchronizerTime, TraceContext } from './common.js';
import { Event, JsReassignmentEvent, TopologyEvent } from './events.js';
import { TransactionFilter, UpdateFormat } from './filters.js';
import { Int32, Int64, Offset, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/**
 * `JsTransaction`: a committed Daml transaction. `commandId` and `workflowId` are `""` (not `null`) when not
 * visible or not set.
 */
export const JsTransaction: WireSchema<JsTransaction> = wireSchema(() => z.looseObject({
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

/** `JsReassignment`: contracts moved between synchronizers. */
export const JsReassignment: WireSchema<JsReassignment> = wireSchema(() => z.looseObject({
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

/** `JsTopologyTransaction`: participant authorization changes. */
export const JsTopologyTransaction: WireSchema<JsTopologyTransaction> = wireSchema(() => z.looseObject({
  updateId: z.string(),
  offset: built(Offset),
  synchronizerId: z.string(),
  recordTime: built(Timestamp),
  events: z.array(built(TopologyEvent)),
  traceContext: built(TraceContext).nullish(),
}));

/**
 * `OffsetCheckpoint` (payload): the participant has indexed everything up to `offset`. A valid
 * `beginExclusive` for resuming; appears only in open-ended streams.
 */
export const OffsetCheckpoint: WireSchema<OffsetCheckpoint> = wireSchema(() => z.looseObject({
  offset: built(Offset),
  synchronizerTimes: z.array(built(SynchronizerTime)).nullish(),
}));

/** The alternatives of `Update`; every one wraps its payload in `"value"`. */
export const updateCases = {
  OffsetCheckpoint: lazySchema(() => wrapped(built(OffsetCheckpoint))),
  Reassignment: lazySchema(() => wrapped(built(JsReassignment))),
  TopologyTransaction: lazySchema(() => wrapped(built(JsTopologyTransaction))),
  Transaction: lazySchema(() => wrapped(built(JsTransaction))),
};

/** `Update`: one of the four kinds, or an {@link UnknownVariant} from a newer server. */
export const Update: WireSchema<Update> = wireSchema(() => variant('Update', updateCases, { open: true }));

/** `JsGetUpdatesResponse`: one element of the `POST /v2/updates` array. */
export const JsGetUpdatesResponse: WireSchema<JsGetUpdatesResponse> = wireSchema(() => z.looseObject({
  update: built(Update),
}));

/**
 * `GetUpdatesRequest`: the body of `POST /v2/updates`. Use `updateFormat`; the deprecated `filter`/`verbose`
 * pair is accepted and converted by the client (see `fromLegacyFilter`).
 */
export const GetUpdatesRequest: WireSchema<GetUpdatesRequest> = wireSchema(() => z.looseObject({
  beginExclusive: built(Offset),
  endInclusive: built(Int64).nullish(),
  filter: built(TransactionFilter).nullish(),
  verbose: z.boolean().nullish(),
  updateFormat: built(UpdateFormat).nullish(),
  descendingOrder: z.boolean().nullish(),
}));

/** `JsGetUpdateResponse`: one update of a `get-updates-page` answer; the same shape as {@link JsGetUpdatesResponse}. */
export const JsGetUpdateResponse = JsGetUpdatesResponse;

/**
 * `GetUpdatesPageRequest`: the body of `POST /v2/updates/get-updates-page`. Every field but `updateFormat` is
 * optional; `pageToken` is the `nextPageToken` of the previous page (base64), valid only with the same
 * offsets, page size, format and order, on the same participant.
 */
export const GetUpdatesPageRequest: WireSchema<GetUpdatesPageRequest> = wireSchema(() => z.looseObject({
  beginOffsetExclusive: built(Offset).nullish(),
  endOffsetInclusive: built(Int64).nullish(),
  maxPageSize: built(Int32).nullish(),
  updateFormat: built(UpdateFormat),
  descendingOrder: z.boolean().nullish(),
  pageToken: z.string().nullish(),
}));

/**
 * `JsGetUpdatesPageResponse`: one page of updates, its bounds `(lowestPageOffsetExclusive,
 * highestPageOffsetInclusive]`, and `nextPageToken` unless it is the last page (an ascending read without
 * an end always has one).
 */
export const JsGetUpdatesPageResponse: WireSchema<JsGetUpdatesPageResponse> = wireSchema(() => z.looseObject({
  updates: z.array(built(JsGetUpdateResponse)).nullish(),
  lowestPageOffsetExclusive: built(Int64),
  highestPageOffsetInclusive: built(Int64),
  nextPageToken: z.string().nullish(),
}));

/**
 * `GetUpdateByHashRequest`: the body of `POST /v2/updates/update-by-hash` (3.6 on): the transaction hash of
 * an externally signed submission (base64, non-empty) and the format of the update to return.
 */
export const GetUpdateByHashRequest: WireSchema<GetUpdateByHashRequest> = wireSchema(() => z.looseObject({
  transactionHash: z.string().min(1, 'must be the non-empty base64 transaction hash'),
  updateFormat: built(UpdateFormat),
}));

// ---- The wire types of this file, generated by scripts/generate-wire-types.mjs from the spec (docs/wire-types.md): do not edit below. ----

import type { UnknownVariant } from './variant.js';

/**
 * Filtered view of an on-ledger transaction's create and archive events.
 *
 * `commandId` and `workflowId` are `""` (not absent) when not visible to the reader or not set.
 */
export interface JsTransaction {
  /**
   * Assigned by the server. Useful for correlating logs.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  updateId: string;
  /**
   * The ID of the command which resulted in this transaction. Missing for everyone except the submitting party.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  commandId?: string | null | undefined;
  /**
   * The workflow ID used in command submission.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  workflowId?: string | null | undefined;
  /**
   * Ledger effective time.
   */
  effectiveAt: string;
  /**
   * The collection of events.
   * Contains:
   *
   * - `CreatedEvent` or `ArchivedEvent` in case of ACS_DELTA transaction shape
   * - `CreatedEvent` or `ExercisedEvent` in case of LEDGER_EFFECTS transaction shape
   *
   * Required: must be non-empty
   */
  events: Event[];
  /**
   * The absolute offset. The details of this field are described in `community/ledger-api/README.md`.
   * It is a valid absolute offset (positive integer).
   */
  offset: number;
  /**
   * A valid synchronizer id.
   * Identifies the synchronizer that synchronized the transaction.
   */
  synchronizerId: string;
  /**
   * Ledger API trace context
   *
   * The trace context transported in this message corresponds to the trace context supplied
   * by the client application in a HTTP2 header of the original command submission.
   * We typically use a header to transfer this type of information. Here we use message
   * body, because it is used in gRPC streams which do not support per message headers.
   * This field will be populated with the trace context contained in the original submission.
   * If that was not provided, a unique ledger-api-server generated trace context will be used
   * instead.
   */
  traceContext?: TraceContext | null | undefined;
  /**
   * The time at which the transaction was recorded. The record time refers to the synchronizer
   * which synchronized the transaction.
   */
  recordTime: string;
  /**
   * Deprecated: please use `transaction_hash` which has the same value.
   * For transaction externally signed, contains the external transaction hash
   * signed by the external party. Can be used to correlate an external submission with a committed transaction.
   *
   * Optional: can be empty
   */
  externalTransactionHash?: string | null | undefined;
  /**
   * The traffic cost that this participant node paid for the confirmation
   * request for this transaction.
   *
   * Not set for transactions that were
   * - initiated by another participant
   * - initiated offline via the repair service
   * - processed before the participant started serving traffic cost on the Ledger API
   * - returned as part of a query filtering for a non submitting party
   */
  paidTrafficCost?: number | null | undefined;
  /**
   * The transaction hash signed by the external party for prepared transactions
   * that were submitted using `InteractiveSubmissionService.ExecuteSubmission`
   * or one of its variants.
   *
   * Use this to correlate prepared transactions with their execution result
   * on the *same participant* that executed the transaction.
   *
   * Not available for:
   *
   * - transactions executed on Canton versions prior to 3.6
   * - transactions of internal parties submitted using `CommandSubmissionService.Submit` and its variants
   *
   * Optional: can be empty
   *
   * Not in the 3.4 and 3.5 specs.
   */
  transactionHash?: string | null | undefined;
}

/**
 * Complete view of an on-ledger reassignment.
 */
export interface JsReassignment {
  /**
   * Assigned by the server. Useful for correlating logs.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  updateId: string;
  /**
   * The ID of the command which resulted in this reassignment. Missing for everyone except the submitting party on the submitting participant.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  commandId?: string | null | undefined;
  /**
   * The workflow ID used in reassignment command submission. Only set if the `workflow_id` for the command was set.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  workflowId?: string | null | undefined;
  /**
   * The participant's offset. The details of this field are described in `community/ledger-api/README.md`.
   * Must be a valid absolute offset (positive integer).
   */
  offset: number;
  /**
   * The collection of reassignment events.
   *
   * Required: must be non-empty
   */
  events: JsReassignmentEvent[];
  /**
   * Ledger API trace context
   *
   * The trace context transported in this message corresponds to the trace context supplied
   * by the client application in a HTTP2 header of the original command submission.
   * We typically use a header to transfer this type of information. Here we use message
   * body, because it is used in gRPC streams which do not support per message headers.
   * This field will be populated with the trace context contained in the original submission.
   * If that was not provided, a unique ledger-api-server generated trace context will be used
   * instead.
   */
  traceContext?: TraceContext | null | undefined;
  /**
   * The time at which the reassignment was recorded. The record time refers to the source/target
   * synchronizer for an unassign/assign event respectively.
   */
  recordTime: string;
  /**
   * A valid synchronizer id.
   * Identifies the synchronizer that synchronized this Reassignment.
   */
  synchronizerId: string;
  /**
   * The traffic cost that this participant node paid for the corresponding (un)assignment request.
   *
   * Not set for transactions that were
   * - initiated by another participant
   * - initiated offline via the repair service
   * - processed before the participant started serving traffic cost on the Ledger API
   * - returned as part of a query filtering for a non submitting party
   */
  paidTrafficCost?: number | null | undefined;
}

export interface JsTopologyTransaction {
  /**
   * Assigned by the server. Useful for correlating logs.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  updateId: string;
  /**
   * The absolute offset. The details of this field are described in `community/ledger-api/README.md`.
   * It is a valid absolute offset (positive integer).
   */
  offset: number;
  /**
   * A valid synchronizer id.
   * Identifies the synchronizer that synchronized the topology transaction.
   */
  synchronizerId: string;
  /**
   * The time at which the changes in the topology transaction become effective. There is a small delay between a
   * topology transaction being sequenced and the changes it contains becoming effective. Topology transactions appear
   * in order relative to a synchronizer based on their effective time rather than their sequencing time.
   */
  recordTime: string;
  /**
   * A non-empty list of topology events.
   *
   * Required: must be non-empty
   */
  events: TopologyEvent[];
  /**
   * Ledger API trace context
   *
   * The trace context transported in this message corresponds to the trace context supplied
   * by the client application in a HTTP2 header of the original command submission.
   * We typically use a header to transfer this type of information. Here we use message
   * body, because it is used in gRPC streams which do not support per message headers.
   * This field will be populated with the trace context contained in the original submission.
   * If that was not provided, a unique ledger-api-server generated trace context will be used
   * instead.
   */
  traceContext?: TraceContext | null | undefined;
}

/**
 * OffsetCheckpoints may be used to:
 *
 * - detect time out of commands.
 * - provide an offset which can be used to restart consumption.
 *
 * The participant has indexed everything up to `offset`: a valid `beginExclusive` to resume from. Only open-ended streams carry checkpoints.
 */
export interface OffsetCheckpoint {
  /**
   * The participant's offset, the details of the offset field are described in `community/ledger-api/README.md`.
   * Must be a valid absolute offset (positive integer).
   */
  offset: number;
  /**
   * The times associated with each synchronizer at this offset.
   *
   * Optional: can be empty
   */
  synchronizerTimes?: SynchronizerTime[] | null | undefined;
}

/**
 * The update of one stream element: narrow it with `'Transaction' in update` (then `update.Transaction.value` is a `JsTransaction`), `'Reassignment' in update`, `'TopologyTransaction' in update` or `'OffsetCheckpoint' in update`; `isUnknownVariant(update)` for a kind this version does not know.
 */
export type Update =
  | { OffsetCheckpoint: { value: OffsetCheckpoint } }
  | { Reassignment: { value: JsReassignment } }
  | { TopologyTransaction: { value: JsTopologyTransaction } }
  | { Transaction: { value: JsTransaction } }
  | UnknownVariant;

/**
 * One element of an updates stream, whatever the transport (the list of `POST /v2/updates`, a page, a WebSocket frame): every read of updates emits these.
 */
export interface JsGetUpdatesResponse {
  update: Update;
}

/**
 * One update of a `get-updates-page` answer: the same shape as {@link JsGetUpdatesResponse}.
 */
export type JsGetUpdateResponse = JsGetUpdatesResponse;

/**
 * One page of updates and its bounds `(lowestPageOffsetExclusive, highestPageOffsetInclusive]`; `nextPageToken` unless it is the last page (an ascending read without an end always has one).
 *
 * Not in the 3.4 spec.
 */
export interface JsGetUpdatesPageResponse {
  /**
   * The first max_page_size updates that match the filter in the request.
   * In case descending_order was selected, the order of the updates is in reversed offset order.
   *
   * Optional: can be empty
   */
  updates?: JsGetUpdateResponse[] | null | undefined;
  /**
   * Represents the lower bound of this page.
   */
  lowestPageOffsetExclusive: number;
  /**
   * Represents the upper bound of the page.
   */
  highestPageOffsetInclusive: number;
  /**
   * If the value is not populated, this is the last page.
   * If the value is populated, this token can be used to get the next page.
   * If the original `GetFirstUpdatePageRequest` end_offset_inclusive was not specified and the request uses
   * ascending order, then this token will always be populated, so you can use it to "tail" the ledger by
   * repeatedly polling with the new page token returned.
   *
   * Optional: can be empty
   */
  nextPageToken?: string | null | undefined;
}

/**
 * The body of `POST /v2/updates` (and the request frame of its WebSocket). Use `updateFormat`; the deprecated `filter`/`verbose` pair is accepted and converted by the client.
 */
export interface GetUpdatesRequest {
  /**
   * Exclusive lower bound offset of the requested ledger section (non-negative integer).
   * The response will only contain transactions whose offset is strictly greater than this.
   * If set to zero, the lower bound is set to the beginning of the ledger.
   * If the participant has been pruned, this parameter must be greater or equal than the pruning offset.
   */
  beginExclusive: number;
  /**
   * Inclusive higher bound offset of the requested ledger section.
   * If specified the response will only contain transactions whose offset is less than or equal to this.
   * If not specified,
   *
   * - the descending_order must not be selected,
   * - the stream will not terminate.
   */
  endInclusive?: number | null | undefined;
  /**
   * Provided for backwards compatibility, it will be removed in the Canton version 3.5.0.
   * Requesting parties with template filters.
   * Template filters must be empty for GetUpdateTrees requests.
   * Optional for backwards compatibility, if defined update_format must be unset
   */
  filter?: TransactionFilter | null | undefined;
  /**
   * Provided for backwards compatibility, it will be removed in the Canton version 3.5.0.
   * If enabled, values served over the API will contain more information than strictly necessary to interpret the data.
   * In particular, setting the verbose flag to true triggers the ledger to include labels, record and variant type ids
   * for record fields.
   * Optional for backwards compatibility, if defined update_format must be unset
   */
  verbose?: boolean | null | undefined;
  /**
   * Must be unset for GetUpdateTrees request.
   * Optional for backwards compatibility for GetUpdates request: defaults to an UpdateFormat where:
   *
   * - include_transactions.event_format.filters_by_party = the filter.filters_by_party on this request
   * - include_transactions.event_format.filters_for_any_party = the filter.filters_for_any_party on this request
   * - include_transactions.event_format.verbose = the same flag specified on this request
   * - include_transactions.transaction_shape = TRANSACTION_SHAPE_ACS_DELTA
   * - include_reassignments.filter = the same filter specified on this request
   * - include_reassignments.verbose = the same flag specified on this request
   * - include_topology_events.include_participant_authorization_events.parties = all the parties specified in filter
   */
  updateFormat?: UpdateFormat | null | undefined;
  /**
   * If set, the stream will populate the elements in descending order.
   *
   * Not in the 3.4 spec.
   */
  descendingOrder?: boolean | null | undefined;
}

/**
 * The body of `POST /v2/updates/get-updates-page` (3.5 on). `pageToken` is the `nextPageToken` of the previous page, valid only with the same offsets, page size, format and order, on the same participant.
 *
 * Not in the 3.4 spec.
 */
export interface GetUpdatesPageRequest {
  /**
   * Exclusive lower bound offset of the requested ledger section (non-negative integer).
   * The response page will only contain updates whose offset is strictly greater than this.
   * If set to zero or not defined, the lower bound is set to the actual pruning offset or to the beginning of the
   * ledger if the participant was not pruned yet.
   * If set to positive and the ledger has been pruned, this parameter must be greater or equal than the pruning offset.
   */
  beginOffsetExclusive?: number | null | undefined;
  /**
   * Inclusive upper bound offset of the requested ledger section.
   * If specified the response will only contain updates whose offset is less than or equal to this.
   * If not specified response will only contain updates whose offset is less than the current ledger-end.
   */
  endOffsetInclusive?: number | null | undefined;
  /**
   * The result page will contain the first max_page_size Updates of all matching updates.
   * The server may reject queries with max_page_size above server specified limits.
   * If not specified, the default max_page_size is determined by the server.
   */
  maxPageSize?: number | null | undefined;
  updateFormat: UpdateFormat;
  /**
   * If set, the page will populate the elements in descending order starting from the end_offset_inclusive.
   *
   *  Optional
   */
  descendingOrder?: boolean | null | undefined;
  /**
   * To get the next page of updates, the `page_token` should be set to the
   * `next_page_token` of the last `GetUpdatesPageResponse`.
   * To achieve correct paging: subsequent requests must
   *
   * - be executed on the same participant,
   * - have the same begin_offset_exclusive,
   * - have the same end_offset_inclusive,
   * - have the same update_format and
   * - have the same descending_order.
   *
   * If not specified, the first page of updates will be returned.
   *
   * Optional: can be empty
   */
  pageToken?: string | null | undefined;
}

/**
 * The body of `POST /v2/updates/update-by-hash` (3.6 on).
 *
 * Not in the 3.4 and 3.5 specs.
 */
export interface GetUpdateByHashRequest {
  /**
   * The transaction hash to look up.
   *
   * Required: must be non-empty
   */
  transactionHash: string;
  /**
   * The format for the update.
   */
  updateFormat: UpdateFormat;
}
