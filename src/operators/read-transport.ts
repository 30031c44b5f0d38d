/**
 * The ways a read can fetch updates from a participant:
 * - `websocket`: `GET /v2/updates` upgraded to a WebSocket, one frame per element (`client.streamUpdates`);
 * - `page`: `POST /v2/updates/get-updates-page` with the server's page tokens (`client.updatesPage`);
 * - `list`: `POST /v2/updates`, the bounded list (`client.updates`).
 */
export type ReadTransport = 'websocket' | 'page' | 'list';

/**
 * The `transport` option of the reads: one {@link ReadTransport}, or `'auto'`: WebSocket, falling back to
 * the next one (`page`, then `list`) when the participant (or a proxy) refuses it, once per subscription.
 */
export type TransportOption = ReadTransport | 'auto';
