import type { OffsetOrder } from './element-order-check.js';
import { offsetOrderOf, type OffsetRequest } from './offset-order-of.js';

/** How the elements of one answer to a request for updates are decoded (see `updateElementDecoder`). */
export interface UpdateDecoding {
  /** Check each element against the wire schema. */
  readonly validate: boolean;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. */
  readonly rawText: boolean;
  /** The range and order the request asked for: each element is checked against it (`elementOrderCheck`). */
  readonly order: OffsetOrder;
}

/**
 * The {@link UpdateDecoding} of a request (already validated, its offsets numbers) and the call's options:
 * `validate` defaults to `validateByDefault` (the client's `validateResponses`), `rawText` to `false`, and the
 * order is the request's (`offsetOrderOf`). The same for every transport. Pure; never throws.
 */
export function updateDecoding(
  request: OffsetRequest,
  options: { readonly validate?: boolean | undefined; readonly rawText?: boolean | undefined },
  validateByDefault: boolean,
): UpdateDecoding {
  return { validate: options.validate ?? validateByDefault, rawText: options.rawText ?? false, order: offsetOrderOf(request) };
}
