import { elementValidation } from '../schemas/element-validation.js';
import { CompletionStreamResponse } from '../schemas/index.js';
import { completionResponseCases } from '../schemas/completions.js';
import { decodeVariantElement, type VariantElementKind } from '../updates/decode-variant-element.js';
import { completionOffset } from './completion-offset.js';

const kind: VariantElementKind<CompletionStreamResponse> = {
  validation: elementValidation<CompletionStreamResponse>(CompletionStreamResponse),
  component: 'CompletionStreamResponse',
  member: 'completionResponse',
  cases: completionResponseCases,
  describe: (value) => {
    const offset = completionOffset(value as CompletionStreamResponse);
    return offset === undefined ? undefined : `offset ${offset}`;
  },
  offsetOf: (value) => completionOffset(value as CompletionStreamResponse),
};

/**
 * Turns one parsed element of a completion stream (a WebSocket frame, an element of the list) into a
 * `CompletionStreamResponse`. With `validate: true` the zod schema decides; with `false` (the documented
 * opt-out) only the shape is checked (`completionResponse` an object with one key). Either way an unknown
 * response kind becomes `{ unknownVariant, payload }`. Throws `ProtocolError` `SCHEMA_MISMATCH` naming the
 * element index and its offset when it can be read.
 */
export function decodeCompletionElement(value: unknown, index: number, options: { readonly validate: boolean }): CompletionStreamResponse {
  return decodeVariantElement(value, index, options, kind);
}
