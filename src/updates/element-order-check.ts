import { ErrorCodes, ProtocolError } from '../errors/index.js';
import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { isOffsetCheckpoint } from './is-offset-checkpoint.js';
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
 * never throws for an answer that keeps it.
 */
export function elementOrderCheck(order: OffsetOrder): (element: JsGetUpdatesResponse, index: number) => void {
  let last: number | undefined;
  return (element, index) => {
    const offset = updateOffset(element);
    if (offset === undefined) return;
    const checkpoint = isOffsetCheckpoint(element);
    const fail = (why: string): never => {
      throw new ProtocolError(ErrorCodes.OFFSET_NOT_INCREASING, `element ${index} has offset ${offset}, ${why}`, { offset, elementIndex: index });
    };
    if (offset < order.beginExclusive || (offset === order.beginExclusive && !checkpoint)) {
      fail(`not after beginExclusive ${order.beginExclusive}`);
    }
    if (order.endInclusive !== undefined && offset > order.endInclusive) fail(`after endInclusive ${order.endInclusive}`);
    if (last !== undefined) {
      const advances = order.descending ? offset < last : offset > last;
      if (!advances && !(offset === last && checkpoint)) {
        fail(`after ${last} in a${order.descending ? ' descending' : 'n ascending'} answer`);
      }
    }
    last = offset;
  };
}
