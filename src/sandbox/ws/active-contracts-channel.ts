import { openStreamGuard } from '../auth/open-stream-guard.js';
import { decodeGetActiveContractsRequest, type DecodedGetActiveContractsRequest } from '../decode/decode-get-active-contracts-request.js';
import { readActiveContracts } from '../read/read-active-contracts.js';
import { prepareActiveContracts } from '../validate/prepare-active-contracts.js';
import type { WebSocketChannel } from './websocket-channel.js';

/**
 * `GET /v2/state/active-contracts` over WebSocket: the request frame is a `GetActiveContractsRequest`,
 * validated as the list validates it; then one `JsGetActiveContractsResponse` frame per entry (each with
 * its `streamContinuationToken`, with which a new request resumes after it), and the close 1000 after the
 * last: the snapshot is bounded.
 */
export const activeContractsChannel: WebSocketChannel<DecodedGetActiveContractsRequest> = {
  path: '/v2/state/active-contracts',
  decode: decodeGetActiveContractsRequest,
  async run(request, { state, claims, sink, signal }) {
    const read = await prepareActiveContracts(state, request, claims);
    const guard = openStreamGuard(state, read.claims, signal, { transport: 'websocket', path: '/v2/state/active-contracts' });
    try {
      await readActiveContracts(state.ledger, read, sink, guard.signal, { withTokens: true, guard });
      if (guard.failure) throw guard.failure;
    } finally {
      guard.close();
    }
  },
};
