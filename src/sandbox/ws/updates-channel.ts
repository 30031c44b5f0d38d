import { openStreamGuard } from '../auth/open-stream-guard.js';
import { decodeGetUpdatesRequest, type DecodedGetUpdatesRequest } from '../decode/decode-get-updates-request.js';
import { readUpdates } from '../read/read-updates.js';
import { createUpdateRenderer } from '../render/create-update-renderer.js';
import { prepareUpdatesRead } from '../validate/prepare-updates-read.js';
import type { WebSocketChannel } from './websocket-channel.js';

/**
 * `GET /v2/updates` over WebSocket: the request frame is a `GetUpdatesRequest` (the same body as
 * `POST /v2/updates`, decoded the same way), validated in the same order ({@link prepareUpdatesRead});
 * then one `JsGetUpdatesResponse` frame per element. No element cap and no idle timeout: a bounded read
 * (`endInclusive` given) ends after its last element, an open-ended one never ends and carries
 * `OffsetCheckpoint`s — before the first update beyond the cached checkpoint, 500 ms after the start and
 * then after every `idleCheckpointIntervalMs` without new ledger records, when the stream is at rest at
 * the checkpoint. Faults queued for WebSocket answers apply. The ongoing authorization ends the stream
 * with `ACCESS_TOKEN_EXPIRED` or `STALE_STREAM_AUTHORIZATION` error frames.
 */
export const updatesChannel: WebSocketChannel<DecodedGetUpdatesRequest> = {
  path: '/v2/updates',
  decode: decodeGetUpdatesRequest,
  async run(request, { state, claims, sink, signal }) {
    const ledger = state.ledger;
    const read = await prepareUpdatesRead(ledger, request, claims);
    if (read.empty) return;
    const renderer = createUpdateRenderer(ledger, read.format);
    sink.encodeWith(renderer);
    sink.armFault(state.faults, renderer, read.beginExclusive);
    const guard = openStreamGuard(state, read.claims, signal, { transport: 'websocket', path: '/v2/updates' });
    try {
      await readUpdates(
        ledger,
        renderer,
        {
          beginExclusive: read.beginExclusive,
          endInclusive: read.endInclusive,
          descending: read.descending,
          cap: Number.POSITIVE_INFINITY,
          idleMs: undefined,
          checkpointProbeMs: state.options.idleCheckpointIntervalMs,
        },
        sink,
        guard.signal,
        guard,
      );
      if (guard.failure) throw guard.failure;
    } finally {
      guard.close();
    }
  },
};
