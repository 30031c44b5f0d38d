import type { CompletionStreamResponse } from '../schemas/index.js';

/** True when the element of a completion stream is an `OffsetCheckpoint` (a position marker, not a completion). */
export function isCompletionCheckpoint(element: CompletionStreamResponse): boolean {
  const response: unknown = element.completionResponse;
  return typeof response === 'object' && response !== null && 'OffsetCheckpoint' in response;
}
