import type { Observable, ObservableInput, SchedulerLike } from 'rxjs';
import type { RetryConfig } from '../retry/retry-config.js';
import type { EventFormat, GetActiveContractsPageRequest, JsGetActiveContractsResponse } from '../schemas/index.js';
import type { ActiveContractsPage } from '../active-contracts/active-contracts-page.js';
import type { Transport } from '../updates/transport.js';
import type { TailStatus } from './tail-status.js';
import type { PageReadOptions, UpdatesSource } from './updates-source.js';

/** The request `snapshotThenUpdates` sends for the snapshot (a type, not an interface: the client's request is an open object). */
export type ActiveContractsSnapshotRequest = {
  readonly eventFormat: EventFormat;
  readonly activeAtOffset?: number;
  /** Where a streamed read resumes: the `streamContinuationToken` of the last entry delivered. */
  readonly streamContinuationToken?: string;
};

/** The options `snapshotThenUpdates` passes to {@link SnapshotSource.activeContracts} (a subset of the client's). */
export interface ActiveContractsSnapshotOptions {
  readonly transport?: Exclude<Transport, 'auto'>;
  /** Entries per page of the `page` transport (`maxPageSize`). Default: the participant's. */
  readonly pageSize?: number;
  /** Called once, before the first entry, with the offset the snapshot is taken at. */
  readonly onActiveAtOffset?: (offset: number) => void;
  readonly retry?: RetryConfig | false;
  readonly scheduler?: SchedulerLike;
  readonly onStatus?: (status: TailStatus) => void;
  readonly validate?: boolean;
  readonly rawText?: boolean;
  /**
   * Flow control for a consumer slower than the participant: while it is `true` the WebSocket is not read
   * and no further page is requested (a list is read whole).
   */
  readonly paused?: Observable<boolean>;
}

/**
 * What `snapshotThenUpdates` and `liveContracts` need from a client: the update reads of {@link UpdatesSource},
 * and the active contracts at an offset (`LedgerClient.activeContracts`: one read, which reports the offset
 * through `onActiveAtOffset` before the first entry; `activeContractsSnapshot` resumes it).
 */
export interface SnapshotSource extends UpdatesSource {
  activeContracts(request: ActiveContractsSnapshotRequest, options?: ActiveContractsSnapshotOptions): Observable<JsGetActiveContractsResponse>;
  /** One page of `GET /v2/state/active-contracts-page` (`LedgerClient.activeContractsPage`): with it, a paged snapshot resumes at its page token. */
  activeContractsPage?(request: GetActiveContractsPageRequest, options?: PageReadOptions): ObservableInput<ActiveContractsPage>;
}
