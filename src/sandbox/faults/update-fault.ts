/**
 * A fault to inject into the next `POST /v2/updates` answer(s) (`Sandbox.injectFault`), for testing how
 * clients cope with a broken server. After `afterElements` good elements (or at the end of the list, if
 * it is shorter) the answer gets:
 *
 * - `malformed-json`: one element whose bytes are not JSON; the array is then closed normally;
 * - `schema-violation`: one element that is valid JSON but violates the spec (wrong field types);
 * - `unknown-variant`: one element `{"update": {"<unknown>": {"value": {...}}}}` with a variant name no
 *   Canton version has; it carries no offset, so it takes no position in the stream;
 * - `offset-regression`: an `OffsetCheckpoint` whose offset is below the previous element's;
 * - `duplicate-offset`: the previous element again (needs `afterElements` ≥ 1);
 * - `truncate`: the first bytes of the next element, then the connection is cut.
 *
 * The faulty bytes are written raw, mid-array, with status 200. `times` (default 1) is how many
 * successful answers get the fault.
 */
export interface UpdateFault {
  readonly kind: 'malformed-json' | 'schema-violation' | 'unknown-variant' | 'offset-regression' | 'duplicate-offset' | 'truncate';
  readonly afterElements: number;
  readonly times?: number;
}
