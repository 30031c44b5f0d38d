import type { Observable } from 'rxjs';
import { completionElementDecoder, type CompletionDecoding } from '../../completions/completion-element-decoder.js';
import type { CompletionStreamRequest, CompletionStreamResponse, GetCompletionsRequest } from '../../schemas/index.js';
import type { CompletionsOptions } from './completions-options.js';
import type { UpdatesDeps } from './create-updates-methods.js';
import { observeRead } from './observe-read.js';
import { validateCompletionsOptions, validateCompletionsRequest } from '../validation/index.js';

/** What the completions method uses of the client. */
export type CompletionsDeps = Omit<UpdatesDeps, 'requirePages'>;

/**
 * The client's `completions` method (see `LedgerClient.completions`): arguments validated before anything is
 * sent; one read over the WebSocket reader or the JSON list reader the update reads use, each element
 * through `completionElementDecoder` (validation, the order check after `beginExclusive`, `rawText`).
 */
export function createCompletionsMethod(deps: CompletionsDeps): (
  request: GetCompletionsRequest | CompletionStreamRequest,
  options?: CompletionsOptions,
) => Observable<CompletionStreamResponse> {
  const { resolved } = deps;
  return (request, callOptions) => {
    const options = validateCompletionsOptions(callOptions);
    const endpoint = options.endpoint ?? 'command-completions';
    const parsed = validateCompletionsRequest(request, endpoint);
    const decoding: CompletionDecoding = {
      validate: options.validate ?? resolved.validateResponses,
      rawText: options.rawText ?? false,
      order: { descending: false, beginExclusive: parsed.beginExclusive ?? 0, endInclusive: undefined },
    };
    const query = { limit: options.limit, stream_idle_timeout_ms: options.streamIdleTimeoutMs };
    const decoder = () => completionElementDecoder(decoding);
    return observeRead(deps, options.transport ?? 'websocket', { path: `/v2/commands/${endpoint}`, body: request, query, frameKey: 'completionResponse', bounded: false, decoder }, options);
  };
}
