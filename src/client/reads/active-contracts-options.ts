import type { Observable, SchedulerLike } from 'rxjs';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { GetActiveContractsRequest } from '../../schemas/index.js';
import type { Transport } from '../../updates/transport.js';
import type { CallOptions } from '../call-options.js';

/**
 * A request for active contracts as `client.activeContracts` takes it: a `GetActiveContractsRequest` whose
 * `activeAtOffset` may be left out (the ledger end is then used, and reported).
 */
export type ActiveContractsRequest = Omit<GetActiveContractsRequest, 'activeAtOffset'> & {
  readonly activeAtOffset?: GetActiveContractsRequest['activeAtOffset'] | undefined;
};

/**
 * Status of a snapshot read, on the side channel (`onStatus`); the same shapes as the update reads'
 * statuses, so metrics take both:
 * - `resumed`: a read (re)started (`attempt` 0 at the start, the retry number after a failure), at the
 *   snapshot's offset (`fromOffset`, `-1` while the participant has not said which it is);
 * - `retrying`: a retryable failure; the read resumes after `delayMs` where it stopped;
 * - `request`: a request ended (a WebSocket stream, a list, a page) with `outcome` after `elements` entries.
 *
 * @deprecated `client.activeContracts` makes one attempt and reports no status; `activeContractsSnapshot`
 * (ledger-rx/operators) resumes a snapshot and reports the statuses of every read (`TailStatus`).
 */
export type ActiveContractsStatus =
  | { readonly type: 'resumed'; readonly fromOffset: number; readonly attempt: number; readonly transport: string }
  | { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly error: unknown }
  | {
      readonly type: 'request';
      readonly transport: string;
      readonly outcome: 'ok' | 'error' | 'cancelled';
      readonly elements: number;
      readonly limit: number | undefined;
      readonly durationMs: number;
      readonly error?: unknown;
    };

/** Options of `client.activeContracts`. */
export interface ActiveContractsOptions extends CallOptions {
  /**
   * The way to read the snapshot (default `websocket`): `websocket` (`GET /v2/state/active-contracts`
   * upgraded to a WebSocket, one frame per entry), `page` (`GET /v2/state/active-contracts-page`, page after
   * page with the server's page tokens) or `list` (`POST /v2/state/active-contracts`, one list — for small
   * sets: more entries than the participant's list limit, 200 by default, is an HTTP 413 error).
   */
  readonly transport?: Exclude<Transport, 'auto'> | undefined;
  /**
   * Called once with the offset the snapshot is taken at, before the first entry: the request's
   * `activeAtOffset`, or the ledger end it defaulted to. Updates after the snapshot start after it.
   */
  readonly onActiveAtOffset?: ((offset: number) => void) | undefined;
  /** Entries per page of the `page` transport (`maxPageSize`). Default: the participant's (100). */
  readonly pageSize?: number | undefined;
  /**
   * @deprecated Ignored: `client.activeContracts` makes one attempt (like every client method, it retries
   * nothing but a 401). `activeContractsSnapshot(client, request, { retry })` resumes a failed snapshot at
   * the same offset after the last entry delivered.
   */
  readonly retry?: RetryConfig | false | undefined;
  /** @deprecated Ignored (there is no backoff to schedule): see `retry`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** @deprecated Never called: `activeContractsSnapshot`'s `onStatus` reports the statuses of a snapshot read. */
  readonly onStatus?: ((status: ActiveContractsStatus) => void) | undefined;
  /** Validate each entry against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /** Keep each entry's exact JSON text, readable with `elementText(element)`. Default false. */
  readonly rawText?: boolean | undefined;
  /** Called with the size of each chunk or frame as it is read (for metrics). */
  readonly onBytes?: ((bytes: number) => void) | undefined;
  /**
   * Flow control, as `updates`' `paused`: while `true` the WebSocket is not read, and the `page`
   * transport asks for no further page.
   */
  readonly paused?: Observable<boolean> | undefined;
}

/** Options of `client.activeContractsPage`. */
export interface ActiveContractsPageOptions extends CallOptions {
  /** Validate each entry (and the page's other members) against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /** Keep each entry's exact JSON text, readable with `elementText(element)`. Default false. */
  readonly rawText?: boolean | undefined;
  /** Called with the size of each chunk of the answer as it is read (for metrics). */
  readonly onBytes?: ((bytes: number) => void) | undefined;
}
