import { describe, expect, it } from 'vitest';
import { decodeCompletionElement } from '../../src/completions/decode-completion-element.js';
import { ProtocolError } from '../../src/errors/index.js';
import { CompletionStreamResponse } from '../../src/schemas/index.js';

/** A completion as the server sends it (every field present, in the schema's order). */
function completion(offset: number): Record<string, unknown> {
  return {
    completionResponse: {
      Completion: {
        value: {
          commandId: `cmd-${offset}`, status: { code: 0, message: '', details: [] }, updateId: `1220${'ab'.repeat(32)}`, userId: 'alice',
          actAs: ['Alice::1220'], submissionId: null, deduplicationPeriod: { Empty: {} }, traceContext: null, offset,
          synchronizerTime: { synchronizerId: 'sync::1220', recordTime: '2026-11-25T09:00:00Z' }, paidTrafficCost: 12, transactionHash: null,
        },
      },
    },
  };
}

describe('decodeVariantElement (validated): the pass-through fast path', () => {
  it('returns a valid element as it is, equal to what zod gives back', () => {
    for (const element of [completion(7), { completionResponse: { OffsetCheckpoint: { value: { offset: 9, synchronizerTimes: [] } } } }]) {
      const decoded = decodeCompletionElement(element, 0, { validate: true });
      expect(decoded).toBe(element);
      expect(CompletionStreamResponse.parse(structuredClone(element))).toEqual(element);
    }
  });

  it('leaves what it does not pass through to zod: numeric strings, unknown variants, and errors with zod\'s issues', () => {
    const numeric = completion(7);
    ((numeric['completionResponse'] as { Completion: { value: Record<string, unknown> } }).Completion.value)['offset'] = '7';
    const decoded = decodeCompletionElement(numeric, 0, { validate: true });
    expect(decoded).not.toBe(numeric);
    expect(decoded).toEqual(completion(7));
    expect(decodeCompletionElement({ completionResponse: { Future: { x: 1 } } }, 1, { validate: true }))
      .toEqual({ completionResponse: { unknownVariant: 'Future', payload: { x: 1 } } });
    const bad = completion(7);
    delete (bad['completionResponse'] as { Completion: { value: Record<string, unknown> } }).Completion.value['userId'];
    const error = (() => {
      try {
        decodeCompletionElement(bad, 3, { validate: true });
      } catch (e) {
        return e;
      }
      return undefined;
    })() as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.elementIndex).toBe(3);
    expect(error.offset).toBe(7);
    const zod = CompletionStreamResponse.safeParse(bad);
    expect(zod.success).toBe(false);
    expect(error.issues).toEqual(zod.error?.issues.map((i) => ({ path: i.path, message: i.message, code: i.code })));
    expect(error.message).toMatch(/^element 3 \(offset 7\) does not match CompletionStreamResponse: completionResponse\.Completion\.value\.userId: /);
  });
});
