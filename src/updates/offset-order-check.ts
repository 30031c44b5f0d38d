import { ErrorCodes, ProtocolError } from '../errors/index.js';
import type { OffsetOrder } from './element-order-check.js';

/**
 * The order check of {@link elementOrderCheck} for elements of any offset stream (updates, completions):
 * `offsetOf` reads an element's offset (`undefined`: not checked), `isCheckpoint` says whether it is an
 * `OffsetCheckpoint`, which may repeat the offset just reached. The returned function throws a
 * `ProtocolError` `OFFSET_NOT_INCREASING` (naming the element index and its offset) for the first element
 * outside `(beginExclusive, endInclusive]` or not strictly advancing; it never throws for an answer that
 * keeps the order.
 */
export function offsetOrderCheck<T>(
  order: OffsetOrder,
  offsetOf: (element: T) => number | undefined,
  isCheckpoint: (element: T) => boolean,
): (element: T, index: number) => void {
  let last: number | undefined;
  return (element, index) => {
    const offset = offsetOf(element);
    if (offset === undefined) return;
    const checkpoint = isCheckpoint(element);
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
