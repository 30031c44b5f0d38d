import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { isOffsetCheckpoint } from './is-offset-checkpoint.js';
import { offsetOrderCheck } from './offset-order-check.js';
import { updateOffset } from './update-offset.js';

/** The offset range and order one request for updates asked for (see `offsetOrderOf`), whatever its transport. */
export interface OffsetOrder {
  readonly descending: boolean;
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
}

/**
 * A stateful check, for the elements of ONE answer in the order they arrive (one HTTP list, one WebSocket
 * stream, or the pages of one paged read), that the server kept the promise of the request: every offset
 * lies in `(beginExclusive, endInclusive]`, and the offsets strictly increase (ascending) or strictly
 * decrease (descending). An `OffsetCheckpoint` may repeat the offset of the
 * element before it (or `beginExclusive`): it reports a position, it is not new data. Elements without an
 * offset are not checked. The returned function throws a `ProtocolError` `OFFSET_NOT_INCREASING` (not
 * retryable), naming the element index and its offset, for the first element that breaks the promise; it
 * never throws for an answer that keeps it (`offsetOrderCheck` with the update's offset and checkpoint test).
 */
export function elementOrderCheck(order: OffsetOrder): (element: JsGetUpdatesResponse, index: number) => void {
  return offsetOrderCheck(order, updateOffset, isOffsetCheckpoint);
}
