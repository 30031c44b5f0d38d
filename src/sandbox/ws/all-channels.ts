import { updatesChannel } from './updates-channel.js';
import type { WebSocketChannel } from './websocket-channel.js';

/** Every WebSocket endpoint the sandbox serves. */
export const allChannels: readonly WebSocketChannel<unknown>[] = [updatesChannel as WebSocketChannel<unknown>];
