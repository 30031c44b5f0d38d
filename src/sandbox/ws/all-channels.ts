import { decodeCompletionStreamRequest } from '../decode/decode-completion-stream-request.js';
import { decodeGetCompletionsRequest } from '../decode/decode-get-completions-request.js';
import { prepareCompletionStream, prepareGetCompletions } from '../validate/prepare-completions-read.js';
import { activeContractsChannel } from './active-contracts-channel.js';
import { completionChannel } from './completion-channel.js';
import { updatesChannel } from './updates-channel.js';
import type { WebSocketChannel } from './websocket-channel.js';

const channel = <R>(c: WebSocketChannel<R>) => c as WebSocketChannel<unknown>;

/** Every WebSocket endpoint the sandbox serves. */
export const allChannels: readonly WebSocketChannel<unknown>[] = [
  channel(updatesChannel),
  channel(activeContractsChannel),
  channel(completionChannel('/v2/commands/completions', decodeCompletionStreamRequest, prepareCompletionStream)),
  channel(completionChannel('/v2/commands/command-completions', decodeGetCompletionsRequest, prepareGetCompletions)),
];
