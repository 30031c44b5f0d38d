import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { CreatedEvent, UnassignedEvent } from './events.js';
import { EventFormat, TransactionFilter } from './filters.js';
import { Int32, Int64, Offset } from './primitives.js';
import { variant } from './variant.js';

/**
 * `GetActiveContractsRequest`: the body (or WebSocket request frame) of `/v2/state/active-contracts`. The
 * server requires `activeAtOffset`; `client.activeContracts` fills it with the ledger end when left out. Use
 * `eventFormat`; the deprecated `filter`/`verbose` pair is accepted and converted by the client.
 * `streamContinuationToken` (from an element of an earlier read at the same offset and format) skips the
 * snapshot up to and including that element.
 */
export const GetActiveContractsRequest = lazySchema(() => z.looseObject({
  filter: built(TransactionFilter).nullish(),
  verbose: z.boolean().nullish(),
  activeAtOffset: built(Offset),
  eventFormat: built(EventFormat).nullish(),
  streamContinuationToken: z.string().nullish(),
}));
export type GetActiveContractsRequest = z.input<typeof GetActiveContractsRequest>;

/**
 * `GetActiveContractsPageRequest`: the body of `GET /v2/state/active-contracts-page` (a GET with a JSON
 * body, as the server declares it). Without `activeAtOffset` the server uses its ledger end and says which in
 * the answer; `pageToken` is the `nextPageToken` of the previous page, valid with the same offset and format.
 */
export const GetActiveContractsPageRequest = lazySchema(() => z.looseObject({
  activeAtOffset: built(Offset).nullish(),
  eventFormat: built(EventFormat),
  maxPageSize: built(Int32).nullish(),
  pageToken: z.string().nullish(),
}));
export type GetActiveContractsPageRequest = z.input<typeof GetActiveContractsPageRequest>;

/**
 * `JsActiveContract`: a contract active at the snapshot's offset on `synchronizerId`, with the created event
 * of its last activation there (a create or an assignment; its offset may point at pruned history).
 */
export const JsActiveContract = lazySchema(() => z.looseObject({
  createdEvent: built(CreatedEvent),
  synchronizerId: z.string(),
  reassignmentCounter: built(Int64),
}));
export type JsActiveContract = z.output<typeof JsActiveContract>;

/** `JsAssignedEvent`: the assignment of an incomplete reassignment (the contract arrived, its unassignment is not visible). */
export const JsAssignedEvent = lazySchema(() => z.looseObject({
  source: z.string(),
  target: z.string(),
  reassignmentId: z.string(),
  submitter: z.string().nullish(),
  reassignmentCounter: built(Int64),
  createdEvent: built(CreatedEvent),
}));
export type JsAssignedEvent = z.output<typeof JsAssignedEvent>;

/** `JsIncompleteAssigned`: an assignment whose reassignment is still in flight at the snapshot's offset. */
export const JsIncompleteAssigned = lazySchema(() => z.looseObject({ assignedEvent: built(JsAssignedEvent) }));
export type JsIncompleteAssigned = z.output<typeof JsIncompleteAssigned>;

/**
 * `JsIncompleteUnassigned`: the contract left a synchronizer and its assignment is not visible yet at the
 * snapshot's offset; `createdEvent` is its last activation before the unassignment.
 */
export const JsIncompleteUnassigned = lazySchema(() => z.looseObject({ createdEvent: built(CreatedEvent), unassignedEvent: built(UnassignedEvent) }));
export type JsIncompleteUnassigned = z.output<typeof JsIncompleteUnassigned>;

/** `JsEmpty`: an entry with nothing in it. */
export const JsEmpty = lazySchema(() => z.looseObject({}));

/** The alternatives of `JsContractEntry`; each carries its fields directly (no `"value"`). */
export const contractEntryCases = { JsActiveContract, JsEmpty, JsIncompleteAssigned, JsIncompleteUnassigned };

/** `JsContractEntry`: one of the four kinds, or an `UnknownVariant` from a newer server. */
export const JsContractEntry = lazySchema(() => variant('JsContractEntry', contractEntryCases, { open: true }));
export type JsContractEntry = z.output<typeof JsContractEntry>;

/**
 * `JsGetActiveContractsResponse`: one entry of an active-contracts snapshot. `streamContinuationToken` is set
 * on the streamed forms (WebSocket, list): a request carrying it skips the snapshot up to this entry.
 */
export const JsGetActiveContractsResponse = lazySchema(() => z.looseObject({
  workflowId: z.string().nullish(),
  contractEntry: built(JsContractEntry),
  streamContinuationToken: z.string().nullish(),
}));
export type JsGetActiveContractsResponse = z.output<typeof JsGetActiveContractsResponse>;

/**
 * `JsGetActiveContractsPageResponse`: one page of a snapshot, the offset it is taken at (the request's, or
 * the ledger end the server chose), and `nextPageToken` unless it is the last page.
 */
export const JsGetActiveContractsPageResponse = lazySchema(() => z.looseObject({
  activeContracts: z.array(built(JsGetActiveContractsResponse)),
  activeAtOffset: built(Offset),
  nextPageToken: z.string().nullish(),
}));
export type JsGetActiveContractsPageResponse = z.output<typeof JsGetActiveContractsPageResponse>;
