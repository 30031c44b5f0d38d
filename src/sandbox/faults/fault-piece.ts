import type { UpdateRenderer } from '../render/create-update-renderer.js';
import type { UpdateFault } from './update-fault.js';

/**
 * The text a fault of `kind` puts in place of element number `afterElements` + 1, given the element
 * before it (`undefined` at the start) and the one it replaces (`undefined` at the end). `cut` means the
 * piece is the first half of the next element and the connection ends right after it; the WebSocket-only
 * kinds, which send no element, are treated like `truncate` (their transports handle them first).
 */
export function faultPiece(
  kind: UpdateFault['kind'],
  renderer: UpdateRenderer,
  previous: { json: string; offset: number } | undefined,
  next: string | undefined,
  beginExclusive: number,
): { piece: string; cut: boolean } {
  const prevOffset = previous?.offset ?? beginExclusive;
  switch (kind) {
    case 'malformed-json':
      return { piece: `{"update":{"Transaction":{"value":{"offset":${prevOffset + 1},"events":[}}}}`, cut: false };
    case 'schema-violation':
      return { piece: `{"update":{"Transaction":{"value":{"updateId":42,"offset":"not-an-offset","events":{"CreatedEvent":null}}}}}`, cut: false };
    case 'unknown-variant':
      return { piece: '{"update":{"LedgerRxFutureUpdate":{"value":{"note":"an update kind from a newer server"}}}}', cut: false };
    case 'offset-regression':
      return { piece: renderer.checkpoint({ offset: prevOffset - 1, synchronizerTimes: [] }), cut: false };
    case 'duplicate-offset':
      return { piece: previous?.json ?? '', cut: false };
    case 'truncate':
    case 'drop':
    case 'close-1011':
    case 'stall': {
      const whole = next ?? renderer.checkpoint({ offset: prevOffset + 1, synchronizerTimes: [] });
      return { piece: whole.slice(0, Math.max(1, Math.floor(whole.length / 2))), cut: true };
    }
  }
}

