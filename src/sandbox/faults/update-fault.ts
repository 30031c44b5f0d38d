/**
 * A fault to inject into the next updates answer(s) (`Sandbox.injectFault`), for testing how clients
 * cope with a broken server. After `afterElements` good elements (or at the end, if the stream is
 * shorter) the answer gets:
 *
 * - `malformed-json`: one element whose bytes are not JSON; the answer then goes on normally;
 * - `schema-violation`: one element that is valid JSON but violates the spec (wrong field types);
 * - `unknown-variant`: one element `{"update": {"<unknown>": {"value": {...}}}}` with a variant name no
 *   Canton version has; it carries no offset, so it takes no position in the stream;
 * - `offset-regression`: an `OffsetCheckpoint` whose offset is below the previous element's;
 * - `duplicate-offset`: the previous element again (needs `afterElements` ≥ 1);
 * - `truncate`: the first bytes of the next element, then the connection is cut (over WebSocket: half
 *   of the next frame, written raw, so the client sees the connection end mid-frame).
 *
 * On `POST /v2/updates` the faulty bytes are written raw, mid-array, with status 200; over WebSocket
 * each faulty element is one text frame. Three kinds exist only for WebSocket streams
 * (`GET /v2/updates`):
 *
 * - `drop`: the TCP connection is destroyed without a close frame (the client sees 1006);
 * - `close-1011`: the server closes with 1011 "internal error", as the real one does when its stream
 *   handler fails;
 * - `stall`: the server stops sending but keeps the connection open (pings are still answered).
 *
 * `times` (default 1) is how many answers get the fault. `transport` says which answers it applies to:
 * `'http'` (`POST /v2/updates`), `'websocket'` (`GET /v2/updates`) or `'any'` (the default, except for
 * the three WebSocket-only kinds, which are always `'websocket'`).
 */
export interface UpdateFault {
  readonly kind:
    | 'malformed-json'
    | 'schema-violation'
    | 'unknown-variant'
    | 'offset-regression'
    | 'duplicate-offset'
    | 'truncate'
    | 'drop'
    | 'close-1011'
    | 'stall';
  readonly afterElements: number;
  readonly times?: number;
  readonly transport?: 'http' | 'websocket' | 'any';
}

/** The kinds that only a WebSocket stream can show. */
export const webSocketOnlyFaults: ReadonlySet<UpdateFault['kind']> = new Set(['drop', 'close-1011', 'stall']);
