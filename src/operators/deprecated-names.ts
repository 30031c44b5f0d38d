// The operators' names of the previous release, kept for one release as aliases of the names that replaced
// them (CHANGELOG.md, Deprecated). Remove this file in the next minor.
import type { ActiveContractsPage } from '../active-contracts/active-contracts-page.js';
import type { Transport } from '../updates/transport.js';
import type { UpdatesPage } from '../updates/updates-page.js';
import type { UpdatesOptions } from '../updates/updates-options.js';

/**
 * A way to fetch updates from a participant: `websocket`, `page` or `list`.
 *
 * @deprecated use `Transport` (`Exclude<Transport, 'auto'>`); removed in the next minor.
 */
export type ReadTransport = Exclude<Transport, 'auto'>;

/**
 * The `transport` option of the reads: `websocket`, `page`, `list`, or `auto` (WebSocket, falling back to
 * `page`, then `list`, when the participant refuses one).
 *
 * @deprecated use `Transport`; removed in the next minor.
 */
export type TransportOption = Transport;

/**
 * The options the operators pass to a WebSocket read of an `UpdatesSource`.
 *
 * @deprecated use `UpdatesOptions`; removed in the next minor.
 */
export type StreamReadOptions = UpdatesOptions;

/**
 * One page of `get-updates-page` as the operators read it.
 *
 * @deprecated use `UpdatesPage`; removed in the next minor.
 */
export type UpdatesPageAnswer = UpdatesPage;

/**
 * One page of `GET /v2/state/active-contracts-page` as `activeContractsSnapshot` reads it.
 *
 * @deprecated use `ActiveContractsPage`; removed in the next minor.
 */
export type ActiveContractsPageAnswer = ActiveContractsPage;
