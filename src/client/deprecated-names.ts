// The client's names of the previous release, kept for one release as aliases of the names that replaced
// them (CHANGELOG.md, Deprecated). Remove this file in the next minor.
import type { Transport } from '../updates/transport.js';
import type { UpdatesOptions } from '../updates/updates-options.js';
import type { UpdatesPageOptions } from './reads/updates-page-options.js';

/**
 * Options of `client.updates()` and `client.iterateUpdates()`: `limit`, `streamIdleTimeoutMs`, `validate`,
 * `rawText`, `onBytes` and the call's `signal`.
 *
 * @deprecated use `UpdatesOptions`; removed in the next minor.
 */
export type UpdatesCallOptions = UpdatesOptions;

/**
 * Options of a WebSocket read of updates: `validate`, `rawText`, `onBytes`, `paused`, `onOpen`,
 * `pingIntervalMs`, `silenceTimeoutMs` and the call's `signal`.
 *
 * @deprecated use `UpdatesOptions` (with `transport: 'websocket'`); removed in the next minor.
 */
export type StreamUpdatesOptions = UpdatesOptions;

/**
 * Options of `client.updatesPage()`: `validate`, `rawText`, `onBytes` and the call's `signal`.
 *
 * @deprecated use `UpdatesPageOptions`; removed in the next minor.
 */
export type UpdatesPageCallOptions = UpdatesPageOptions;

/**
 * The transports of `client.activeContracts`: `websocket`, `page` or `list`.
 *
 * @deprecated use `Transport` (`Exclude<Transport, 'auto'>`); removed in the next minor.
 */
export type ActiveContractsTransport = Exclude<Transport, 'auto'>;

/**
 * The transports of `client.completions`: `websocket` or `list`.
 *
 * @deprecated use `Transport` (`Extract<Transport, 'websocket' | 'list'>`); removed in the next minor.
 */
export type CompletionsTransport = Extract<Transport, 'websocket' | 'list'>;
