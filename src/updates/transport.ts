/**
 * How a read reaches the participant. Every read of the library takes one of these as its `transport`
 * option; a read that supports only some of them narrows this type with `Extract`/`Exclude` (the client's
 * reads make one attempt over one transport, so they take no `'auto'`; `completions` has no paged endpoint):
 * - `websocket`: the endpoint upgraded to a WebSocket, one frame per element (`GET /v2/updates`,
 *   `/v2/state/active-contracts`, the completion endpoints);
 * - `page`: the paged endpoint with the server's page tokens (`POST /v2/updates/get-updates-page`,
 *   `GET /v2/state/active-contracts-page`);
 * - `list`: the bounded `POST` list (`POST /v2/updates`, `/v2/state/active-contracts`, the completion
 *   endpoints);
 * - `auto`: not a wire transport but a choice, taken by the resumable reads of ledger-rx/operators
 *   (`tailUpdates`, `readDescending`, `activeContractsSnapshot`, `tailCompletions`, ...): `websocket`, falling
 *   back at once to the next one (`page` where the participant's version has it, then `list`) when the
 *   participant or the path does not carry it — a refusal, a WebSocket handshake without an answer, an upgrade
 *   a proxy answered — once per subscription (docs/transports.md).
 */
export type Transport = 'websocket' | 'page' | 'list' | 'auto';
