import type { CompletionStreamResponse } from '../schemas/index.js';

/**
 * The offset of an element of a completion stream: `value.offset` of a `Completion` or an `OffsetCheckpoint`;
 * `undefined` for `Empty`, an unknown kind, or a missing or unsafe number. Never throws, whatever the shape
 * (it also serves for elements that failed validation).
 */
export function completionOffset(element: CompletionStreamResponse): number | undefined {
  const response: unknown = (element as { completionResponse?: unknown } | null | undefined)?.completionResponse;
  if (typeof response !== 'object' || response === null || 'unknownVariant' in response) return undefined;
  for (const key in response) {
    const payload = (response as Record<string, unknown>)[key];
    const value = typeof payload === 'object' && payload !== null ? (payload as { value?: unknown }).value : undefined;
    const offset = typeof value === 'object' && value !== null ? (value as { offset?: unknown }).offset : undefined;
    return typeof offset === 'number' && Number.isSafeInteger(offset) ? offset : undefined;
  }
  return undefined;
}
