import type { Claims } from '../auth/claims.js';
import { openStreamGuard } from '../auth/open-stream-guard.js';
import type { Ledger } from '../ledger/ledger.js';
import { readCompletions } from '../read/read-completions.js';
import type { PreparedCompletionsRead } from '../validate/prepare-completions-read.js';
import type { WebSocketChannel } from './websocket-channel.js';

/**
 * A completion stream over WebSocket (`/v2/commands/completions`, `/v2/commands/command-completions`):
 * `decode` reads the request frame, `prepare` validates it like the list does; then one
 * `CompletionStreamResponse` frame per completion and checkpoint, open-ended (the stream never ends on its
 * own), under the stream's ongoing authorization.
 */
export function completionChannel<R>(
  path: string,
  decode: (value: unknown) => R,
  prepare: (ledger: Ledger, request: R, claims: () => Promise<Claims>) => Promise<PreparedCompletionsRead>,
): WebSocketChannel<R> {
  return {
    path,
    decode,
    async run(request, { state, claims, sink, signal }) {
      const read = await prepare(state.ledger, request, claims);
      const guard = openStreamGuard(state, read.claims, signal, { transport: 'websocket', path });
      try {
        const plan = {
          beginExclusive: read.beginExclusive,
          endInclusive: undefined,
          descending: false,
          cap: Number.POSITIVE_INFINITY,
          idleMs: undefined,
          checkpointProbeMs: state.options.idleCheckpointIntervalMs,
        };
        await readCompletions(state.ledger, read.filter, plan, sink, guard.signal, guard);
        if (guard.failure) throw guard.failure;
      } finally {
        guard.close();
      }
    },
  };
}
