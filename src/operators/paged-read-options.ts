import type { ObservableInput, SchedulerLike } from 'rxjs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { TransactionFilter, UpdateFormat } from '../schemas/filters.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { Transport } from '../updates/transport.js';
import type { TailStatus } from './tail-status.js';
import { checkInteger } from './internal/check-integer.js';
import type { UpdatesOptions } from '../updates/updates-options.js';

/** The options every paged read (`tailUpdates`, `readDescending`) shares. */
export interface PagedReadOptions {
  /** What to read. Give this, or the deprecated `filter` (+ `verbose`), which the client converts. */
  readonly updateFormat?: UpdateFormat;
  readonly filter?: TransactionFilter;
  readonly verbose?: boolean;
  /** Elements asked for per request (the `limit` parameter). Lowered after a 413. Default 200. */
  readonly pageLimit?: number;
  /** Retry policy; `false` disables retries. */
  readonly retry?: RetryConfig | false;
  /** Scheduler for every delay (backoff, pacing). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Side channel for `resumed`, `retrying`, `caught-up` and `limit-lowered`. */
  readonly onStatus?: (status: TailStatus) => void;
  /**
   * Async processing that takes part in backpressure: each element is passed to `handler` and delivered only
   * when the returned Observable/Promise completes; the next page is requested only after the whole page was
   * handled. An array (e.g. `[]`) has nothing to wait for: the element is delivered at once, without a
   * subscription, which is the cheap way to say "done" for most elements. Without it, elements are delivered
   * as they are parsed and a synchronous consumer is enough.
   */
  readonly handler?: (element: JsGetUpdatesResponse) => ObservableInput<unknown>;
  /** Validate elements against the wire schema (default true). */
  readonly validate?: boolean;
  /** Keep each element's exact JSON text, readable with `elementText(element)` (default false). */
  readonly rawText?: boolean;
  /**
   * How to read: `'websocket'` (`GET /v2/updates` as a stream), `'page'` (`get-updates-page` with its
   * tokens), `'list'` (`POST /v2/updates` pages), or `'auto'` (the default): the first of these the source
   * offers and the participant's version has, falling back to the next at once when the path or the
   * participant does not carry it — an answer 404 that is not a Canton error, 405, 426 or 501; for the
   * WebSocket also a handshake without an answer (the client's `webSocketHandshakeTimeoutMs`) or an upgrade
   * answered without a Canton body (a proxy) — before its first answer (status `transport-selected`, with
   * the reason). See docs/transports.md.
   */
  readonly transport?: Transport;
  /**
   * `'auto'`: after a read of the same source (client) gave up its WebSocket, the reads that start within
   * this long (ms, scheduler time) skip it and start with the next transport; later ones try it again. 0
   * tries it every time. Default 300 000.
   */
  readonly webSocketCoolOffMs?: number;
  /** WebSocket: ping interval (ms; 0 = none). Default the client's, 10 000. */
  readonly pingIntervalMs?: number;
  /** WebSocket: a socket silent this long (ms) is closed and the read resumes. Default the client's, 30 000. */
  readonly silenceTimeoutMs?: number;
  /**
   * WebSocket: reconnect with a fresh token this long before the token's `exp` (ms; never before half of its
   * remaining lifetime), so the participant never ends the stream with `ACCESS_TOKEN_EXPIRED`. Default 30 000.
   */
  readonly tokenRefreshMarginMs?: number;
}

/** The per-element decoding options (`validate`, `rawText`, `onBytes`) of a read's options or of a page request's. */
export function decodingOptions(options: Pick<UpdatesOptions, 'validate' | 'rawText' | 'onBytes'>): Pick<UpdatesOptions, 'validate' | 'rawText' | 'onBytes'> {
  return {
    ...(options.validate === undefined ? {} : { validate: options.validate }),
    ...(options.rawText === undefined ? {} : { rawText: options.rawText }),
    ...(options.onBytes === undefined ? {} : { onBytes: options.onBytes }),
  };
}

/**
 * Checks the format options of a paged read (exactly one of `updateFormat` and `filter`; `verbose` only
 * with `filter`; `pageLimit` ≥ 1; `transport` one of the four; the WebSocket times and `webSocketCoolOffMs` ≥ 0) and returns the
 * format part of its requests. Throws
 * {@link InvalidArgumentError} naming the option.
 */
export function readFormat(options: PagedReadOptions): Partial<GetUpdatesRequest> {
  const { updateFormat, filter, verbose, pageLimit } = options;
  checkInteger('pageLimit', pageLimit, 1);
  const transports: readonly unknown[] = ['auto', 'websocket', 'page', 'list'];
  if (options.transport !== undefined && !transports.includes(options.transport)) throw new InvalidArgumentError('transport', "must be 'auto', 'websocket', 'page' or 'list'");
  for (const name of ['pingIntervalMs', 'silenceTimeoutMs', 'tokenRefreshMarginMs', 'webSocketCoolOffMs'] as const) checkInteger(name, options[name], 0);
  if (updateFormat && filter) throw new InvalidArgumentError('filter', 'give either updateFormat or the deprecated filter, not both');
  if (!updateFormat && !filter) throw new InvalidArgumentError('updateFormat', 'an updateFormat (or the deprecated filter) is required');
  if (updateFormat && verbose) throw new InvalidArgumentError('verbose', 'verbose belongs to the deprecated filter; set it in the updateFormat');
  if (updateFormat) return { updateFormat };
  return { filter: filter as TransactionFilter, ...(verbose === undefined ? {} : { verbose }) };
}
