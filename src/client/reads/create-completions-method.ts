import type { Observable } from 'rxjs';
import { completionElementDecoder, type CompletionDecoding } from '../../completions/completion-element-decoder.js';
import type { CompletionStreamRequest, CompletionStreamResponse, GetCompletionsRequest } from '../../schemas/index.js';
import type { CompletionsOptions } from './completions-options.js';
import type { UpdatesDeps } from './create-updates-methods.js';
import { observeJsonList } from '../http/observe-json-list.js';
import { observeWebSocketStream } from '../websocket/observe-websocket-stream.js';
import { streamFrameDecoder } from '../websocket/stream-frame-decoder.js';
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
  const { http, sockets, resolved } = deps;
  return (request, callOptions) => {
    const options = validateCompletionsOptions(callOptions);
    const endpoint = options.endpoint ?? 'command-completions';
    const parsed = validateCompletionsRequest(request, endpoint);
    const decoding: CompletionDecoding = {
      validate: options.validate ?? resolved.validateResponses,
      rawText: options.rawText ?? false,
      order: { descending: false, beginExclusive: parsed.beginExclusive ?? 0, endInclusive: undefined },
    };
    const path = `/v2/commands/${endpoint}`;
    if (options.transport === 'list') {
      const query = { limit: options.limit, stream_idle_timeout_ms: options.streamIdleTimeoutMs };
      return observeJsonList(http, { method: 'POST', path, query, body: request }, () => completionElementDecoder(decoding), options.signal, options.onBytes);
    }
    return observeWebSocketStream(sockets, {
      path,
      body: request,
      bounded: false,
      frameDecoder: (label) => streamFrameDecoder('completionResponse', completionElementDecoder(decoding), label),
      options,
      refreshableToken: resolved.refreshableToken,
    });
  };
}
