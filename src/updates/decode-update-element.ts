import { ErrorCodes, ProtocolError, type ProtocolIssue } from '../errors/index.js';
import { elementValidation } from '../schemas/element-validation.js';
import { JsGetUpdatesResponse, type UnknownVariant } from '../schemas/index.js';
import { eventCases, reassignmentEventCases, topologyEventCases } from '../schemas/events.js';
import { updateCases } from '../schemas/updates.js';
import { updateOffset } from './update-offset.js';
import { ownKeysOf } from './own-keys-of.js';

/** Options of {@link decodeUpdateElement}. */
export interface DecodeUpdateElementOptions {
  /**
   * `true`: check the element against the zod `JsGetUpdatesResponse` schema (and normalise it: numeric
   * strings become numbers). `false`: the documented opt-out for trusted hot paths, a cheap structural check
   * only.
   */
  readonly validate: boolean;
}

/** The built schema and its pass-through check, made on the first validated element (see `elementValidation`). */
const validation = elementValidation<JsGetUpdatesResponse>(JsGetUpdatesResponse);

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Turns one parsed element of the `POST /v2/updates` array into a `JsGetUpdatesResponse`.
 *
 * With `validate: true` the zod schema decides; on failure it throws `ProtocolError` `SCHEMA_MISMATCH`
 * whose message names the element index and its offset (best effort, read from the raw value), carrying
 * zod's issues, `elementIndex` and `offset`. An element that the schema would give back unchanged (the common
 * case: no numeric string, no unknown variant, keys in the schema's order) is recognised by a check compiled
 * from the same schema (`compilePassThroughCheck`) and returned as it is, without zod's copy; every other
 * element is parsed by zod, so the result and the errors are the same either way.
 *
 * With `validate: false` it only checks that the element is an object whose `update` is an object with exactly
 * one key (else the same `SCHEMA_MISMATCH`), then returns the value as is, typed but unchecked. Both modes
 * return the same shape for variants: an unknown update kind, and an unknown event kind inside a
 * transaction, reassignment or topology transaction, become `{ unknownVariant, payload }` (copies are made
 * only when such a variant is present; the input is never modified). Unlike validation, numeric strings are
 * not converted.
 */
export function decodeUpdateElement(value: unknown, index: number, options: DecodeUpdateElementOptions): JsGetUpdatesResponse {
  if (options.validate) {
    const { schema, passesUnchanged } = validation();
    if (passesUnchanged(value)) return value as JsGetUpdatesResponse;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues: ProtocolIssue[] = result.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
    throw schemaMismatch(value, index, issues, result.error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw schemaMismatch(value, index, [{ path: [], message: 'expected an object' }]);
  }
  const update = (value as { update?: unknown }).update;
  if (typeof update !== 'object' || update === null || Array.isArray(update)) {
    throw schemaMismatch(value, index, [{ path: ['update'], message: 'expected an object' }]);
  }
  const { tag, count } = ownKeysOf(update);
  if (count !== 1 || tag === undefined) {
    throw schemaMismatch(value, index, [{ path: ['update'], message: `Update: expected exactly one key, got ${count}` }]);
  }
  const payload = (update as Record<string, unknown>)[tag];
  if (!hasOwn.call(updateCases, tag)) {
    return { ...value, update: { unknownVariant: tag, payload } satisfies UnknownVariant } as JsGetUpdatesResponse;
  }
  const normalized = normalizePayload(tag, payload);
  if (normalized === payload) return value as JsGetUpdatesResponse;
  return { ...value, update: { [tag]: normalized } } as JsGetUpdatesResponse;
}

function schemaMismatch(value: unknown, index: number, issues: readonly ProtocolIssue[], cause?: unknown): ProtocolError {
  const offset = updateOffset(value as JsGetUpdatesResponse);
  const shown = issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '$'}: ${i.message}`).join('; ');
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return new ProtocolError(
    ErrorCodes.SCHEMA_MISMATCH,
    `element ${index} (offset ${offset ?? 'unknown'}) of the updates array does not match JsGetUpdatesResponse: ${shown}${more}`,
    { issues, elementIndex: index, ...(offset === undefined ? {} : { offset }), ...(cause === undefined ? {} : { cause }) },
  );
}

/** Unvalidated mode: replaces unknown nested variants of a known update kind; returns `payload` when none. */
function normalizePayload(tag: string, payload: unknown): unknown {
  if (tag === 'OffsetCheckpoint' || !isObject(payload) || !isObject(payload['value'])) return payload;
  const inner = payload['value'];
  const events = inner['events'];
  if (!Array.isArray(events)) return payload;
  const normalized = tag === 'TopologyTransaction'
    ? mapChanged(events, normalizeTopologyEvent)
    : mapChanged(events, (event) => normalizeVariant(event, tag === 'Transaction' ? eventCases : reassignmentEventCases));
  if (normalized === events) return payload;
  return { ...payload, value: { ...inner, events: normalized } };
}

function normalizeTopologyEvent(event: unknown): unknown {
  if (!isObject(event)) return event;
  const inner = event['event'];
  const normalized = normalizeVariant(inner, topologyEventCases);
  return normalized === inner ? event : { ...event, event: normalized };
}

/** `{ "<unknown key>": payload }` → `{ unknownVariant, payload }`; anything else is returned as is. */
function normalizeVariant(variant: unknown, cases: object): unknown {
  if (!isObject(variant)) return variant;
  const { tag, count } = ownKeysOf(variant);
  if (count !== 1 || tag === undefined || hasOwn.call(cases, tag)) return variant;
  return { unknownVariant: tag, payload: variant[tag] } satisfies UnknownVariant;
}

/** Maps `items`, returning the same array when no item changed. */
function mapChanged(items: readonly unknown[], map: (item: unknown) => unknown): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const mapped = map(item);
    if (mapped !== item && out === undefined) out = items.slice(0, i);
    if (out !== undefined) out.push(mapped);
  }
  return out ?? items;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
