import type { ObservableInput, SchedulerLike } from 'rxjs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { TransactionFilter, UpdateFormat } from '../schemas/filters.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { TailStatus } from './tail-status.js';
import type { UpdatesPageOptions } from './updates-source.js';

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
   * handled. Without it, elements are delivered as they are parsed and a synchronous consumer is enough.
   */
  readonly handler?: (element: JsGetUpdatesResponse) => ObservableInput<unknown>;
  /** Validate elements against the wire schema (default true). */
  readonly validate?: boolean;
  /** Keep each element's exact JSON text, readable with `elementText(element)` (default false). */
  readonly rawText?: boolean;
}

/** The per-element decoding options of a paged read, as page-request options. */
export function decodingOptions(options: PagedReadOptions): UpdatesPageOptions {
  return {
    ...(options.validate === undefined ? {} : { validate: options.validate }),
    ...(options.rawText === undefined ? {} : { rawText: options.rawText }),
  };
}

/**
 * Checks the format options of a paged read (exactly one of `updateFormat` and `filter`; `verbose` only
 * with `filter`; `pageLimit` ≥ 1) and returns the format part of its requests. Throws
 * {@link InvalidArgumentError} naming the option.
 */
export function readFormat(options: PagedReadOptions): Partial<GetUpdatesRequest> {
  const { updateFormat, filter, verbose, pageLimit } = options;
  if (pageLimit !== undefined && (!Number.isSafeInteger(pageLimit) || pageLimit < 1)) throw new InvalidArgumentError('pageLimit', 'must be an integer >= 1');
  if (updateFormat && filter) throw new InvalidArgumentError('filter', 'give either updateFormat or the deprecated filter, not both');
  if (!updateFormat && !filter) throw new InvalidArgumentError('updateFormat', 'an updateFormat (or the deprecated filter) is required');
  if (updateFormat && verbose) throw new InvalidArgumentError('verbose', 'verbose belongs to the deprecated filter; set it in the updateFormat');
  if (updateFormat) return { updateFormat };
  return { filter: filter as TransactionFilter, ...(verbose === undefined ? {} : { verbose }) };
}
