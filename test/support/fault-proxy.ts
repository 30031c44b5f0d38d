import { createRandom } from '../../src/sandbox/state/ids.js';
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A fault-injecting HTTP proxy for tests: a `node:http` server on 127.0.0.1 between a client and the
 * sandbox (or any HTTP server), which applies one {@link Fault} per request, in arrival order.
 *
 * Faults are scheduled per request: either a list (entry `i` applies to the `i`-th request that matches,
 * then every later request passes) or a policy function of the request index (see {@link randomFaults}
 * for a seeded random one). Every request and what was done to it is recorded in {@link FaultProxy.log}.
 */

/** Where a body is cut: a byte index, a fraction of the body length, or a random byte (seeded). */
export type CutPoint = number | { readonly fraction: number } | 'random';

/** What the proxy does to one request. */
export type Fault =
  /** Forward the request and stream the answer back untouched. */
  | { readonly kind: 'pass' }
  /**
   * Forward the request, then send the answer's status and headers (its `content-length` included) and only
   * the body bytes before `at` — always at least one byte short — and close the connection (`reset`: with a
   * TCP RST).
   */
  | { readonly kind: 'cut'; readonly at: CutPoint; readonly reset?: boolean }
  /** Hold the request `ms` before anything happens, then forward it (`pass`, default) or close the connection (`cut`). */
  | { readonly kind: 'stall-headers'; readonly ms: number; readonly then?: 'pass' | 'cut' }
  /** Send the headers and the body bytes before `at`, stall `ms`, then send the rest (`pass`, default) or close (`cut`). */
  | { readonly kind: 'stall-body'; readonly at: CutPoint; readonly ms: number; readonly then?: 'pass' | 'cut' }
  /**
   * Answer without forwarding: 503 with the plain-text body of the server's request timeout; 429 and 504
   * with Canton error bodies (all ten keys, `retryInfo` set); 413 with the list-overflow body; 401 with
   * the redacted body.
   */
  | { readonly kind: 'status'; readonly status: 503 | 429 | 504 | 413 | 401; readonly retryInfo?: string }
  /**
   * The caller's token expires now: this request and every later one carrying the same token (in the
   * `Authorization` header, or the `jwt.token.` subprotocol of a WebSocket upgrade) get the redacted 401
   * (later ones without consuming a schedule entry). A fresh token passes.
   */
  | { readonly kind: 'expire-token' }
  /** The server restarts (state kept) while this request is in flight: the connection is cut, the restart runs. */
  | { readonly kind: 'restart' }
  /** Reset the connection (TCP RST) as soon as the request arrived, before anything is forwarded. */
  | { readonly kind: 'reset' }
  /**
   * Refuse the request as a participant (or proxy) without that endpoint would: 404 with the participant's
   * legacy not-found body, 405, 426 or 501 — for a WebSocket upgrade too (the upgrade is not accepted).
   */
  | { readonly kind: 'refuse'; readonly status: 404 | 405 | 426 | 501 }
  /**
   * WebSocket upgrades only (a plain request passes): forward `afterFrames` frames from the server, then
   * the first half of the next one, and destroy the connection (the client sees 1006 mid-frame).
   */
  | { readonly kind: 'ws-cut'; readonly afterFrames: number }
  /** WebSocket upgrades only: forward `afterFrames` frames, then send a close frame with `code` and end. */
  | { readonly kind: 'ws-close'; readonly afterFrames: number; readonly code: 1000 | 1001 | 1011 }
  /**
   * WebSocket upgrades only: forward `afterFrames` frames, then nothing more from the server — pongs
   * included — while the connection stays open (a participant that hangs).
   */
  | { readonly kind: 'ws-stall'; readonly afterFrames: number }
  /**
   * WebSocket upgrades only: forward `afterFrames` frames, then the participant's error frame for a token
   * that expired mid-stream (`ACCESS_TOKEN_EXPIRED`), then close 1000, as the participant ends such a stream;
   * from then on that token is refused with 401 (on upgrades and plain requests alike).
   */
  | { readonly kind: 'ws-token-expired'; readonly afterFrames: number }
  /**
   * WebSocket upgrades only (a plain request passes): accept the connection and read the upgrade, then never
   * answer it — a proxy that swallows upgrades. The connection stays open until the client gives up (or the
   * proxy closes).
   */
  | { readonly kind: 'swallow-upgrade' }
  /**
   * WebSocket upgrades only (a plain request passes): answer the upgrade with a bare 502 (an HTML page, no
   * Canton error body), as a proxy does that cannot pass it on.
   */
  | { readonly kind: 'upgrade-502' };

/** A fault for each request index (0-based among the matching requests). */
export type FaultPolicy = (index: number, request: { readonly method: string; readonly path: string }) => Fault;

/** One request seen by the proxy. */
export interface ProxyRecord {
  /** Arrival number among all requests. */
  readonly n: number;
  /** Index among the requests that consumed a schedule entry, or `undefined`. */
  readonly index: number | undefined;
  readonly method: string;
  readonly path: string;
  /** The fault applied (`expired-token` for a request refused because of an expired token). */
  readonly fault: Fault['kind'] | 'expired-token';
  /** True for a WebSocket upgrade. */
  upgrade?: true;
  /** Upstream status, when the request was forwarded and answered. */
  upstreamStatus?: number | undefined;
  /** Bytes of the body sent downstream before a cut, when cut. */
  cutAt?: number;
  /** Length of the upstream body, when it was read whole. */
  bodyLength?: number;
}

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** Base URL of the server to forward to, e.g. `sandbox.url`. */
  readonly target: string;
  /** Restarts the server behind the proxy (e.g. `() => sandbox.restart()`), for the `restart` fault. */
  readonly restart?: () => Promise<void>;
  /** Seed of the random cut points. Default 1. */
  readonly seed?: number;
}

/** Options of {@link FaultProxy.schedule}. */
export interface ScheduleOptions {
  /** Only requests for which this is true consume schedule entries; the others pass. Default: every request. */
  readonly match?: (method: string, path: string) => boolean;
  /** Reseeds the random cut points. */
  readonly seed?: number;
}

/** A running fault proxy. */
export interface FaultProxy {
  /** Base URL to give the client, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every request since the last {@link schedule}. */
  readonly log: ProxyRecord[];
  /** Installs a schedule (a list or a policy), clears the log and forgets expired tokens. */
  schedule(faults: readonly Fault[] | FaultPolicy, options?: ScheduleOptions): void;
  /** Schedule entries not consumed yet (0 for a policy). */
  pending(): number;
  /** Faults other than `pass` applied since the last {@link schedule}. */
  applied(): number;
  /** Called after an `expire-token` fault, so a test's token source can mint a new token. */
  onTokenExpired: (() => void) | undefined;
  /** Stops the proxy, cuts its connections and waits for a restart in progress. */
  close(): Promise<void>;
}

/** The sandbox's deterministic PRNG (mulberry32), re-exported for the fault tests. */
export const mulberry32 = createRandom;

/** The body of the server's request timeout (pekko-http's default 503 text). */
export const requestTimeoutText = 'The server was not able to produce a timely response to your request.\r\nPlease try again in a short while!';

const hex = () => randomBytes(16).toString('hex');

/** A Canton error body with all ten keys. */
export function cantonErrorBody(fields: {
  code: string;
  cause: string;
  errorCategory: number;
  grpcCodeValue: number | null;
  retryInfo: string | null;
  context?: Record<string, string>;
  definiteAnswer?: boolean | null;
}): Record<string, unknown> {
  const traceId = hex();
  return {
    code: fields.code,
    cause: fields.cause,
    correlationId: fields.definiteAnswer === undefined || fields.definiteAnswer === null ? null : traceId,
    traceId,
    context: fields.context ?? {},
    resources: [],
    errorCategory: fields.errorCategory,
    grpcCodeValue: fields.grpcCodeValue,
    retryInfo: fields.retryInfo,
    definiteAnswer: fields.definiteAnswer ?? null,
  };
}

/** The redacted 401 body of the real server. */
export function redacted401Body(): Record<string, unknown> {
  const traceId = hex();
  return {
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    correlationId: traceId,
    traceId,
    context: {},
    resources: [],
    errorCategory: -1,
    grpcCodeValue: 16,
    retryInfo: null,
    definiteAnswer: null,
  };
}

/** Status, content type and body of a `status` fault. */
export function statusAnswer(status: 503 | 429 | 504 | 413 | 401, retryInfo = '1 second'): { status: number; contentType: string; body: string } {
  const json = (body: unknown) => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
  switch (status) {
    case 503:
      return { status, contentType: 'text/plain; charset=UTF-8', body: requestTimeoutText };
    case 429:
      return json(
        cantonErrorBody({
          code: 'PARTICIPANT_BACKPRESSURE',
          cause: 'The participant is overloaded: too many requests in flight',
          errorCategory: 2,
          grpcCodeValue: 8,
          retryInfo,
          context: { category: '2', definite_answer: 'false', reason: 'too many requests in flight' },
        }),
      );
    case 504:
      return json(
        cantonErrorBody({
          code: 'REQUEST_TIME_OUT',
          cause: 'Timed out while awaiting for a response for the request',
          errorCategory: 3,
          grpcCodeValue: 4,
          retryInfo,
          context: { category: '3', definite_answer: 'false' },
        }),
      );
    case 413:
      return json(
        cantonErrorBody({
          code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
          cause: 'The number of matching elements (201) is greater than the node limit (200).',
          errorCategory: 2,
          grpcCodeValue: 10,
          retryInfo,
          definiteAnswer: false,
        }),
      );
    case 401:
      return json(redacted401Body());
  }
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer']);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !hopByHop.has(k)) out[k] = v;
  return out;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.on('close', () => {
      if (!stream.complete) reject(new Error('the upstream body ended early'));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A proxy's bare 502 page (nginx's wording), the body of an `upgrade-502` fault. */
const bareBadGateway = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

/** The participant's legacy not-found body, as it answers a route it does not have. */
const legacyNotFound = (method: string, path: string) => JSON.stringify({ errors: [`${method}, uri: ${path}`], status: 404 });

/** The status, content type and body of a `refuse` fault. */
function refusal(status: 404 | 405 | 426 | 501, method: string, path: string): { status: number; contentType: string; body: string } {
  if (status === 404) return { status, contentType: 'application/json', body: legacyNotFound(method, path) };
  return { status, contentType: 'text/plain; charset=UTF-8', body: status === 426 ? 'Upgrade Required' : status === 405 ? 'Method Not Allowed' : 'Not Implemented' };
}

/**
 * Splits the server → client byte stream of a WebSocket into frames as it passes (frames from a server are
 * not masked): `feed(chunk)` returns the chunk's pieces, each tagged with the index of the frame it belongs
 * to and whether it ends that frame.
 */
class FrameSplitter {
  private frame = 0;
  private header: number[] = [];
  private remaining = -1; // payload bytes left in the current frame; -1 while reading a header

  feed(chunk: Buffer): { bytes: Buffer; frame: number; ends: boolean }[] {
    const out: { bytes: Buffer; frame: number; ends: boolean }[] = [];
    let i = 0;
    let start = 0;
    while (i < chunk.length) {
      if (this.remaining < 0) {
        this.header.push(chunk[i] as number);
        i++;
        const need = this.headerLength();
        if (need !== undefined && this.header.length === need) {
          this.remaining = this.payloadLength();
          this.header = [];
          if (this.remaining === 0) {
            out.push({ bytes: chunk.subarray(start, i), frame: this.frame++, ends: true });
            start = i;
            this.remaining = -1;
          }
        }
      } else {
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) {
          out.push({ bytes: chunk.subarray(start, i), frame: this.frame++, ends: true });
          start = i;
          this.remaining = -1;
        }
      }
    }
    if (start < chunk.length) out.push({ bytes: chunk.subarray(start), frame: this.frame, ends: false });
    return out;
  }

  private headerLength(): number | undefined {
    if (this.header.length < 2) return undefined;
    const len7 = (this.header[1] as number) & 0x7f;
    return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0);
  }

  private payloadLength(): number {
    const h = Buffer.from(this.header);
    const len7 = (h[1] as number) & 0x7f;
    if (len7 === 126) return h.readUInt16BE(2);
    if (len7 === 127) return Number(h.readBigUInt64BE(2));
    return len7;
  }
}

/** A server text frame (unmasked) holding `text`. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const head = payload.length < 126 ? Buffer.from([0x81, payload.length]) : Buffer.alloc(4);
  if (payload.length >= 126) {
    head[0] = 0x81;
    head[1] = 126;
    head.writeUInt16BE(payload.length, 2);
  }
  return Buffer.concat([head, payload]);
}

/** The error frame of a stream whose token expired (`ACCESS_TOKEN_EXPIRED`, category 2, as the participant sends it). */
export function tokenExpiredBody(): Record<string, unknown> {
  return cantonErrorBody({ code: 'ACCESS_TOKEN_EXPIRED', cause: 'JWT token has expired', errorCategory: 2, grpcCodeValue: 10, retryInfo: '1 second', context: { category: '2' } });
}

/**
 * The JWT a request carries: `Authorization: Bearer <JWT>` on plain requests, the `jwt.token.<JWT>`
 * subprotocol on WebSocket upgrades.
 */
function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string') return auth.replace(/^Bearer\s+/i, '');
  const protocols = headers['sec-websocket-protocol'];
  const jwt = (typeof protocols === 'string' ? protocols.split(',') : []).map((p) => p.trim()).find((p) => p.startsWith('jwt.token.'));
  return jwt?.slice('jwt.token.'.length);
}

/** A server close frame with `code`. */
function closeFrame(code: number): Buffer {
  const frame = Buffer.alloc(4);
  frame[0] = 0x88;
  frame[1] = 2;
  frame.writeUInt16BE(code, 2);
  return frame;
}

/** Starts a fault proxy in front of `options.target`, on a free loopback port. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const sockets = new Set<Socket>();
  let faults: readonly Fault[] | FaultPolicy = [];
  let match: (method: string, path: string) => boolean = () => true;
  let consumed = 0;
  let arrivals = 0;
  let random = mulberry32(options.seed ?? 1);
  let log: ProxyRecord[] = [];
  let expired = new Set<string>();
  let restarting: Promise<void> = Promise.resolve();

  const cutIndex = (at: CutPoint, length: number): number => {
    if (length === 0) return 0;
    const raw = at === 'random' ? Math.floor(random() * length) : typeof at === 'number' ? at : Math.floor(at.fraction * length);
    return Math.max(0, Math.min(length - 1, raw));
  };

  /** Closes the client's connection without an answer, or after what was written (`reset`: with RST). */
  const kill = (res: ServerResponse, reset = false) => {
    const socket = res.socket;
    if (!socket || socket.destroyed) return;
    if (reset) socket.resetAndDestroy();
    else socket.destroy();
  };

  /**
   * Forwards the request on a fresh upstream connection; resolves with the upstream answer (its body
   * unread). During a restart the upstream refuses the connection: the caller then cuts the client's.
   */
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const up = httpRequest(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...forwardHeaders(req.headers), host: target.host, 'content-length': String(body.length) },
          agent: false,
        },
        resolve,
      );
      up.on('error', reject);
      res.on('close', () => up.destroy());
      up.end(body);
    });

  const send = (res: ServerResponse, status: number, contentType: string, body: string) => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  /** Sends the upstream answer's head and `head` bytes of its body; resolves once they were handed to the socket. */
  const sendPartial = (res: ServerResponse, up: IncomingMessage, whole: Buffer, bytes: number): Promise<void> =>
    new Promise((resolve) => {
      res.writeHead(up.statusCode ?? 502, { ...forwardHeaders(up.headers), 'content-length': String(whole.length) });
      res.flushHeaders();
      if (bytes === 0) setTimeout(resolve, 5);
      else res.write(whole.subarray(0, bytes), () => resolve());
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readAll(req);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const n = arrivals++;
    const auth = bearerToken(req.headers);
    if (auth !== undefined && expired.has(auth)) {
      log.push({ n, index: undefined, method, path, fault: 'expired-token' });
      const a = statusAnswer(401);
      send(res, a.status, a.contentType, a.body);
      return;
    }
    let index: number | undefined;
    let fault: Fault = { kind: 'pass' };
    if (match(method, path)) {
      index = consumed++;
      fault = typeof faults === 'function' ? faults(index, { method, path }) : (faults[index] ?? { kind: 'pass' });
    }
    const record: ProxyRecord = { n, index, method, path, fault: fault.kind };
    log.push(record);

    switch (fault.kind) {
      case 'refuse': {
        const a = refusal(fault.status, method, path);
        send(res, a.status, a.contentType, a.body);
        return;
      }
      case 'ws-cut':
      case 'ws-close':
      case 'ws-stall':
      case 'ws-token-expired':
      case 'swallow-upgrade':
      case 'upgrade-502':
        break; // WebSocket faults: a plain request passes
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'status': {
        const a = statusAnswer(fault.status, fault.retryInfo);
        send(res, a.status, a.contentType, a.body);
        return;
      }
      case 'expire-token': {
        if (auth !== undefined) expired.add(auth);
        const a = statusAnswer(401);
        send(res, a.status, a.contentType, a.body);
        proxy.onTokenExpired?.();
        return;
      }
      case 'restart': {
        kill(res);
        if (options.restart) {
          const restart = options.restart;
          restarting = restarting.then(() => restart());
        }
        return;
      }
      case 'stall-headers': {
        await sleep(fault.ms);
        if (res.destroyed || res.socket?.destroyed) return;
        if (fault.then === 'cut') {
          kill(res);
          return;
        }
        break; // then forward as `pass`
      }
      case 'pass':
        break;
      case 'cut':
      case 'stall-body': {
        const up = await forward(req, body, res);
        record.upstreamStatus = up.statusCode;
        const whole = await readAll(up);
        record.bodyLength = whole.length;
        const at = cutIndex(fault.at, whole.length);
        record.cutAt = at;
        await sendPartial(res, up, whole, at);
        if (fault.kind === 'cut') {
          kill(res, fault.reset);
          return;
        }
        await sleep(fault.ms);
        if (res.destroyed) return;
        if (fault.then === 'cut') kill(res);
        else res.end(whole.subarray(at));
        return;
      }
    }

    // pass: stream the answer through as it comes (a cut upstream is a cut downstream)
    const up = await forward(req, body, res);
    record.upstreamStatus = up.statusCode;
    res.writeHead(up.statusCode ?? 502, forwardHeaders(up.headers));
    up.on('data', (chunk: Buffer) => res.write(chunk));
    up.on('end', () => res.end());
    up.on('error', () => kill(res));
    up.on('close', () => {
      if (!up.complete) kill(res);
    });
  };

  /**
   * A WebSocket upgrade: forwarded to the server on a fresh connection, then the two byte streams are piped,
   * the server's through a {@link FrameSplitter} so that `ws-*` faults act at frame boundaries.
   */
  const handleUpgrade = (req: IncomingMessage, client: Duplex, head: Buffer): void => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const n = arrivals++;
    client.on('error', () => undefined);
    const refuseWith = (status: number, contentType: string, body: string) =>
      client.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : status === 502 ? 'Bad Gateway' : 'Refused'}\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    // the token travels in the subprotocols; one that expired is refused as the participant refuses it
    const token = bearerToken(req.headers);
    if (token !== undefined && expired.has(token)) {
      log.push({ n, index: undefined, method, path, fault: 'expired-token', upgrade: true });
      const a = statusAnswer(401);
      refuseWith(a.status, a.contentType, a.body);
      return;
    }
    let index: number | undefined;
    let fault: Fault = { kind: 'pass' };
    if (match(method, path)) {
      index = consumed++;
      fault = typeof faults === 'function' ? faults(index, { method, path }) : (faults[index] ?? { kind: 'pass' });
    }
    log.push({ n, index, method, path, fault: fault.kind, upgrade: true });
    switch (fault.kind) {
      case 'expire-token': {
        if (token !== undefined) expired.add(token);
        const a = statusAnswer(401);
        refuseWith(a.status, a.contentType, a.body);
        proxy.onTokenExpired?.();
        return;
      }
      case 'refuse': {
        const a = refusal(fault.status, method, path);
        refuseWith(a.status, a.contentType, a.body);
        return;
      }
      case 'status': {
        const a = statusAnswer(fault.status, fault.retryInfo);
        refuseWith(a.status, a.contentType, a.body);
        return;
      }
      case 'swallow-upgrade':
        return; // read, never answered: the socket is held (and destroyed by close())
      case 'upgrade-502':
        refuseWith(502, 'text/html', bareBadGateway);
        return;
      case 'reset':
        if (typeof (client as Socket).resetAndDestroy === 'function') (client as Socket).resetAndDestroy();
        else client.destroy();
        return;
      case 'restart':
        client.destroy();
        if (options.restart) {
          const restart = options.restart;
          restarting = restarting.then(() => restart());
        }
        return;
      default:
        break;
    }
    const up = httpRequest({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method,
      path,
      headers: { ...req.headers, host: target.host },
      agent: false,
    });
    up.on('error', () => client.destroy());
    up.on('response', (res) => {
      // not upgraded (an error answer): pass it on as it is
      const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`, ...Object.entries(forwardHeaders(res.headers)).map(([k, v]) => `${k}: ${String(v)}`), 'connection: close'];
      readAll(res).then(
        (body) => client.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body])),
        () => client.destroy(),
      );
    });
    up.on('upgrade', (res, upSocket, upHead) => {
      const lines = [`HTTP/1.1 101 Switching Protocols`];
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      upSocket.on('error', () => client.destroy());
      client.on('close', () => upSocket.destroy());
      upSocket.on('close', () => client.destroy());
      if (head.length > 0) upSocket.write(head);
      client.pipe(upSocket);
      const splitter = new FrameSplitter();
      let stopped = false;
      const downstream = (chunk: Buffer) => {
        if (stopped) return;
        for (const piece of splitter.feed(chunk)) {
          const after = 'afterFrames' in fault ? fault.afterFrames : Infinity;
          if (piece.frame < after || fault.kind === 'pass') {
            if (!client.write(piece.bytes)) {
              upSocket.pause();
              client.once('drain', () => upSocket.resume());
            }
            continue;
          }
          stopped = true;
          if (fault.kind === 'ws-cut') {
            client.write(piece.bytes.subarray(0, Math.max(1, Math.floor(piece.bytes.length / 2))));
            setTimeout(() => client.destroy(), 5);
          } else if (fault.kind === 'ws-close') {
            client.end(closeFrame(fault.code));
            setTimeout(() => client.destroy(), 50);
          } else if (fault.kind === 'ws-token-expired') {
            // from now on the participant refuses this token: the client must come back with a fresh one
            if (token !== undefined) expired.add(token);
            proxy.onTokenExpired?.();
            client.write(textFrame(JSON.stringify(tokenExpiredBody())));
            client.end(closeFrame(1000));
            setTimeout(() => client.destroy(), 50);
          }
          // ws-stall: nothing more is forwarded; the connection stays open until someone closes it
          return;
        }
      };
      if (upHead.length > 0) downstream(upHead);
      upSocket.on('data', downstream);
    });
    up.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => kill(res));
  });
  server.on('upgrade', handleUpgrade);
  server.requestTimeout = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    get log() {
      return log;
    },
    schedule(next, scheduleOptions = {}) {
      faults = next;
      match = scheduleOptions.match ?? (() => true);
      consumed = 0;
      arrivals = 0;
      log = [];
      expired = new Set();
      if (scheduleOptions.seed !== undefined) random = mulberry32(scheduleOptions.seed);
    },
    pending() {
      return typeof faults === 'function' ? 0 : Math.max(0, faults.length - consumed);
    },
    applied() {
      return log.filter((r) => r.fault !== 'pass').length;
    },
    onTokenExpired: undefined,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
      });
      await restarting.catch(() => undefined);
    },
  };
  return proxy;
}

/** Options of {@link randomFaults}. */
export interface RandomFaultsOptions {
  readonly seed: number;
  /** Probability that a request gets a fault. Default 0.3. */
  readonly rate?: number;
  /** The faults to draw from (uniformly). Default: every transient fault kind, with short stalls. */
  readonly kinds?: readonly Fault[];
}

/** The transient faults a reader must survive without loss or duplicate. */
export const transientFaults: readonly Fault[] = [
  { kind: 'cut', at: 'random' },
  { kind: 'cut', at: 'random', reset: true },
  { kind: 'stall-headers', ms: 15 },
  { kind: 'stall-headers', ms: 5, then: 'cut' },
  { kind: 'stall-body', at: 'random', ms: 15 },
  { kind: 'stall-body', at: 'random', ms: 5, then: 'cut' },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 429, retryInfo: '5 milliseconds' },
  { kind: 'status', status: 504 },
  { kind: 'status', status: 413 },
  { kind: 'expire-token' },
  { kind: 'restart' },
  { kind: 'reset' },
];

/** A seeded random policy: each request gets a fault with probability `rate`, drawn from `kinds`. */
export function randomFaults(options: RandomFaultsOptions): FaultPolicy {
  const rate = options.rate ?? 0.3;
  const kinds = options.kinds ?? transientFaults;
  const cache = new Map<number, Fault>();
  const random = mulberry32(options.seed);
  let next = 0;
  return (index) => {
    while (next <= index) {
      const hit = random() < rate;
      const pick = kinds[Math.floor(random() * kinds.length)] ?? { kind: 'pass' };
      cache.set(next, hit ? pick : { kind: 'pass' });
      next++;
    }
    return cache.get(index) ?? { kind: 'pass' };
  };
}
