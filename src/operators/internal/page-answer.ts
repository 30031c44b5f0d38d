import type { Observable, SchedulerLike } from 'rxjs';
import type { UpdatesPageOptions } from '../updates-source.js';

/** What a `get-updates-page` answer says beyond its updates. */
export interface PageBounds {
  readonly highestPageOffsetInclusive: number;
  readonly nextPageToken: string | undefined;
}

/**
 * The one answer shape every transport strategy gives the read engine for one planned request: its elements
 * as a cold Observable (unsubscribing aborts the request), and, read once the elements completed, what the
 * answer said beyond them (`bounds`: what a page of a paged endpoint says: its token, its offset).
 */
export interface PageAnswer<E, B = PageBounds> {
  readonly elements: Observable<E>;
  readonly bounds: () => B | undefined;
}

/** How a WebSocket strategy runs its stream (the read's options, with defaults applied). */
export interface StreamSettings {
  readonly pingIntervalMs: number | undefined;
  readonly silenceTimeoutMs: number | undefined;
  /** Reconnect this long before the token's `exp` (see `tokenRefreshDelay`). */
  readonly tokenRefreshMarginMs: number;
}

/** What the engine hands a strategy along with the plan. */
export interface AnswerContext {
  /** The plan's options, with the engine's byte counter as `onBytes` when it meters the read. */
  readonly options: UpdatesPageOptions;
  /** While `true`, a streaming answer stops reading its socket (the read's `handler` is behind). */
  readonly paused: Observable<boolean>;
  readonly scheduler: SchedulerLike;
}

/** The per-element decoding options (`validate`, `rawText`, `onBytes`) of `options`, without the list's query parameters. */
export function decodingOf(options: UpdatesPageOptions): Pick<UpdatesPageOptions, 'validate' | 'rawText' | 'onBytes'> {
  return {
    ...(options.validate === undefined ? {} : { validate: options.validate }),
    ...(options.rawText === undefined ? {} : { rawText: options.rawText }),
    ...(options.onBytes === undefined ? {} : { onBytes: options.onBytes }),
  };
}
