/**
 * The ways a read can fetch updates from a participant:
 * - `websocket`: `GET /v2/updates` upgraded to a WebSocket, one frame per element (`client.streamUpdates`);
 * - `page`: `POST /v2/updates/get-updates-page` with the server's page tokens (`client.updatesPage`);
 * - `list`: `POST /v2/updates`, the bounded list (`client.updates`).
 */
export type ReadTransport = 'websocket' | 'page' | 'list';

/**
 * The `transport` option of the reads: one {@link ReadTransport}, or `'auto'`: WebSocket, falling back at
 * once to the next one (`page` where the participant's version has it, then `list`) when the participant or
 * the path does not carry it — a refusal, a WebSocket handshake without an answer, an upgrade a proxy
 * answered — once per subscription (docs/transports.md).
 */
export type TransportOption = ReadTransport | 'auto';
