import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { asyncSpecAvailable, type SpecVersion } from './shared-dir.js';
import { frameProblems } from './spec-validator.js';

/** How the server ended a connection, as a plain `ws` client sees it. */
export interface WsClose {
  readonly code: number;
  readonly reason: string;
}

/** Options of {@link openStream}. */
export interface WsStreamOptions {
  /** Offered as `jwt.token.<token>` beside `daml.ws.auth`. */
  readonly token?: string;
  /** The subprotocols to offer instead (default: the token entry, if any, and `daml.ws.auth`). */
  readonly protocols?: readonly string[];
  readonly headers?: Record<string, string>;
  /** Do not validate frames against asyncapi.yaml (fault tests). Default false. */
  readonly skipSpecCheck?: boolean;
  /** Validate frames against the components of this release line's OpenAPI spec (see `frameProblems`). */
  readonly specVersion?: SpecVersion;
  /** Send this request frame as binary instead of text. */
  readonly binary?: boolean;
}

/** An open raw WebSocket stream and everything it received. */
export interface WsStream {
  readonly ws: WebSocket;
  /** Every frame's text, in order. */
  readonly texts: string[];
  /** Every frame parsed as JSON (`undefined` for a frame that is not JSON). */
  readonly frames: unknown[];
  /** The subprotocol the server answered with. */
  readonly protocol: string;
  /** Resolves when the connection is closed. */
  readonly closed: Promise<WsClose>;
  /** Resolves once at least `n` frames arrived (rejects after `timeoutMs`). */
  waitFrames(n: number, timeoutMs?: number): Promise<void>;
}

/**
 * Opens a WebSocket on the sandbox with a plain `ws` client (not ledger-rx's client), sends `request` as
 * the one request frame (a string is sent as is), and collects the frames. Every JSON frame is validated
 * against the `subscribe` message of `path` in asyncapi.yaml unless `skipSpecCheck` (without ../shared: an
 * error under CI, a skip with its reason on stderr elsewhere).
 */
export function openStream(baseUrl: string, path: string, request: unknown, options: WsStreamOptions = {}): Promise<WsStream> {
  const checkFrames = !options.skipSpecCheck && asyncSpecAvailable();
  const protocols = options.protocols ?? [...(options.token ? [`jwt.token.${options.token}`] : []), 'daml.ws.auth'];
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, [...protocols], { headers: options.headers ?? {}, perMessageDeflate: false });
  const texts: string[] = [];
  const frames: unknown[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? '<binary>' : String(data);
    texts.push(text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    frames.push(json);
    if (checkFrames) {
      expect(json, `frame ${texts.length} on ${path} must be JSON`).not.toBeUndefined();
      expect(frameProblems(path, json, 'subscribe', options.specVersion), `frame ${texts.length} on ${path} must match the spec`).toEqual([]);
    }
    for (const w of waiters) w();
  });
  const closed = new Promise<WsClose>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.off('error', reject);
      ws.on('error', () => {});
      const text = typeof request === 'string' ? request : JSON.stringify(request);
      ws.send(options.binary ? Buffer.from(text) : text, { binary: options.binary ?? false });
      resolve({
        ws,
        texts,
        frames,
        protocol: ws.protocol,
        closed,
        waitFrames(n, timeoutMs = 5_000) {
          if (frames.length >= n) return Promise.resolve();
          return new Promise<void>((ok, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`${frames.length} frames after ${timeoutMs} ms, expected ${n}`));
            }, timeoutMs);
            const check = () => {
              if (frames.length < n) return;
              clearTimeout(timer);
              waiters.delete(check);
              ok();
            };
            waiters.add(check);
            void closed.then(check);
          });
        },
      });
    });
  });
}

/** Opens a stream, waits for the server to close it, and returns the frames and the close. */
export async function readToClose(baseUrl: string, path: string, request: unknown, options: WsStreamOptions = {}): Promise<{ frames: unknown[]; texts: string[]; close: WsClose }> {
  const s = await openStream(baseUrl, path, request, options);
  const close = await s.closed;
  return { frames: s.frames, texts: s.texts, close };
}
