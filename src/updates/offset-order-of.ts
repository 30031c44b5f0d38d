import type { OffsetOrder } from './element-order-check.js';

/** The offset fields of a request for updates, as numbers (a parsed `GetUpdatesRequest`, or one built in code). */
export interface OffsetRequest {
  readonly beginExclusive: number;
  readonly endInclusive?: number | null | undefined;
  readonly descendingOrder?: boolean | null | undefined;
}

/**
 * The range and order a request for updates asks for, as {@link elementOrderCheck} checks an answer against
 * it: `(beginExclusive, endInclusive]` (no upper bound when `endInclusive` is absent or `null`), descending
 * only when `descendingOrder` is `true`. Pure; never throws.
 */
export function offsetOrderOf(request: OffsetRequest): OffsetOrder {
  return {
    descending: request.descendingOrder === true,
    beginExclusive: request.beginExclusive,
    endInclusive: request.endInclusive ?? undefined,
  };
}
