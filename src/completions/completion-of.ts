import type { Completion, CompletionStreamResponse } from '../schemas/index.js';

/** The `Completion` an element of a completion stream carries, or `undefined` for a checkpoint, `Empty` or an unknown kind. */
export function completionOf(element: CompletionStreamResponse): Completion | undefined {
  const response: unknown = element.completionResponse;
  if (typeof response !== 'object' || response === null || !('Completion' in response)) return undefined;
  const payload = (response as { Completion?: { value?: Completion } }).Completion;
  return payload?.value;
}
