import { ErrorCodes, ProtocolError, type ProtocolIssue } from '../errors/index.js';
import type { ElementValidation } from '../schemas/element-validation.js';
import type { UnknownVariant } from '../schemas/index.js';
import { ownKeysOf } from './own-keys-of.js';

/** What {@link decodeVariantElement} needs to know about one kind of stream element. */
export interface VariantElementKind<T> {
  /**
   * The validation of the whole element (`elementValidation(JsGetActiveContractsResponse)`,
   * `elementValidation(CompletionStreamResponse)`): its schema and pass-through check, made on first use.
   */
  readonly validation: () => ElementValidation<T>;
  /** Its component name, for messages. */
  readonly component: string;
  /** The member holding the element's one variant (`contractEntry`, `completionResponse`). */
  readonly member: string;
  /** The variant's known alternatives. */
  readonly cases: object;
  /** What identifies the element in a message (`offset 12`, `contract 00ab…`), best effort from the raw value. */
  readonly describe: (value: unknown) => string | undefined;
  /** The offset of the raw element, best effort, for the error. */
  readonly offsetOf?: (value: unknown) => number | undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Turns one parsed element of a stream whose payload is a single variant member (an active-contracts entry,
 * a completion response) into its typed value.
 *
 * With `validate: true` the zod schema decides (unknown alternatives become `{ unknownVariant, payload }`); on
 * failure it throws `ProtocolError` `SCHEMA_MISMATCH` naming the element index and what identifies it, with
 * zod's issues. An element the schema would give back unchanged is recognised by the pass-through check
 * compiled from the same schema (`kind.validation`) and returned as it is, without zod's copy. With
 * `validate: false` (the documented opt-out) it only checks that the element is an object
 * whose `member` is an object with exactly one key, turns an unknown key into an `UnknownVariant` (a copy;
 * the input is never modified), and returns the value typed but unchecked.
 */
export function decodeVariantElement<T>(value: unknown, index: number, options: { readonly validate: boolean }, kind: VariantElementKind<T>): T {
  if (options.validate) {
    const { schema, passesUnchanged } = kind.validation();
    if (passesUnchanged(value)) return value as T;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues: ProtocolIssue[] = result.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
    throw mismatch(value, index, issues, kind, result.error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw mismatch(value, index, [{ path: [], message: 'expected an object' }], kind);
  }
  const variant = (value as Record<string, unknown>)[kind.member];
  if (typeof variant !== 'object' || variant === null || Array.isArray(variant)) {
    throw mismatch(value, index, [{ path: [kind.member], message: 'expected an object' }], kind);
  }
  const { tag, count } = ownKeysOf(variant);
  if (count !== 1 || tag === undefined) {
    throw mismatch(value, index, [{ path: [kind.member], message: `expected exactly one key, got ${count}` }], kind);
  }
  if (hasOwn.call(kind.cases, tag)) return value as T;
  const unknown: UnknownVariant = { unknownVariant: tag, payload: (variant as Record<string, unknown>)[tag] };
  return { ...value, [kind.member]: unknown } as T;
}

function mismatch<T>(value: unknown, index: number, issues: readonly ProtocolIssue[], kind: VariantElementKind<T>, cause?: unknown): ProtocolError {
  const shown = issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '$'}: ${i.message}`).join('; ');
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  const what = kind.describe(value);
  const offset = kind.offsetOf?.(value);
  return new ProtocolError(
    ErrorCodes.SCHEMA_MISMATCH,
    `element ${index}${what === undefined ? '' : ` (${what})`} does not match ${kind.component}: ${shown}${more}`,
    { issues, elementIndex: index, ...(offset === undefined ? {} : { offset }), ...(cause === undefined ? {} : { cause }) },
  );
}
