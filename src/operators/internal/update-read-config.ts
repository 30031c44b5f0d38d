import { NEVER, Subject, asyncScheduler, switchMap, takeUntil, throwError, timer } from 'rxjs';
import { resolveRetryConfig } from '../../retry/resolve-retry-config.js';
import type { GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdatesResponse } from '../../schemas/updates.js';
import { decodingOptions, type PagedReadOptions } from '../paged-read-options.js';
import type { UpdatesSource } from '../updates-source.js';
import { updateOffsets } from './element-offsets.js';
import { pageAnswer, type AnswerContext, type PageAnswer } from './page-answer.js';
import { nextPageChain } from './page-chain.js';
import type { PagePlan } from './page-plan.js';
import type { ReadEngineConfig } from './read-engine.js';
import { tokenRefreshDelay } from './token-refresh-delay.js';
import { websocketUpdates } from './websocket-updates.js';

/** The read engine's settings for an update read of `source` with `options` (defaults applied: page limit 200, token margin 30 s). */
export function updateReadConfig(source: UpdatesSource, options: PagedReadOptions): ReadEngineConfig<JsGetUpdatesResponse, PagePlan['request']> {
  return {
    pageLimit: options.pageLimit ?? 200,
    retry: resolveRetryConfig(options.retry),
    scheduler: options.scheduler ?? asyncScheduler,
    onStatus: options.onStatus,
    handler: options.handler,
    answer: updatesAnswer(source, options),
    elements: updateOffsets,
    checksElementOrder: source.checksElementOrder,
  };
}

/**
 * The transport strategies of the update reads, by the plan's transport, each giving the engine one answer:
 *
 * - `list`: one `POST /v2/updates` (`source.updates()`), no bounds;
 * - `page`: one `updatesPage()` call: a new chain over the plan's request, or the follow-up of its `chain`
 *   (the chain's offsets and token, `maxPageSize` the plan's limit); the bounds are the chain it continues
 *   with (`nextPageChain`), if any;
 * - `websocket`: one WebSocket connection (`websocketUpdates`), paused while the read's handler is behind; it ends by a
 *   failure, by the end of a bounded range, or by a planned reconnection `tokenRefreshMarginMs` before the
 *   token expires (`tokenRefreshDelay`, on the scheduler): it then completes, and the next plan resumes with
 *   a fresh token.
 */
function updatesAnswer(source: UpdatesSource, options: PagedReadOptions): (plan: PagePlan, context: AnswerContext) => PageAnswer<JsGetUpdatesResponse> {
  const { pingIntervalMs, silenceTimeoutMs, tokenRefreshMarginMs = 30_000 } = options;
  const none = () => undefined;
  const missing = (method: string) => ({ elements: throwError(() => new TypeError(`the source has no ${method}`)), bounds: none });
  return (plan, context) => {
    const decoding = decodingOptions(context.options);
    switch (plan.transport ?? 'list') {
      case 'websocket': {
        const websocket = websocketUpdates(source);
        if (!websocket) return missing("updates() over 'websocket'");
        const opened = new Subject<number | undefined>();
        const refresh = opened.pipe(
          switchMap((expiresAt) => {
            const delay = tokenRefreshDelay(expiresAt, context.scheduler.now(), tokenRefreshMarginMs);
            return delay === undefined ? NEVER : timer(delay, context.scheduler);
          }),
        );
        const options = {
          ...decoding,
          paused: context.paused,
          onOpen: (connection: { readonly tokenExpiresAt: number | undefined }) => opened.next(connection.tokenExpiresAt),
          ...(pingIntervalMs === undefined ? {} : { pingIntervalMs }),
          ...(silenceTimeoutMs === undefined ? {} : { silenceTimeoutMs }),
        };
        return { elements: websocket(plan.request, options).pipe(takeUntil(refresh)), bounds: none };
      }
      case 'page': {
        if (!source.updatesPage) return missing('updatesPage()');
        const { request, chain, options } = plan;
        const descending = request.descendingOrder === true;
        const range = { beginExclusive: chain?.beginExclusive ?? request.beginExclusive, endInclusive: chain ? chain.endInclusive : (request.endInclusive ?? undefined), descending };
        const page: GetUpdatesPageRequest = {
          updateFormat: request.updateFormat as NonNullable<GetUpdatesRequest['updateFormat']>,
          beginOffsetExclusive: range.beginExclusive,
          ...(range.endInclusive === undefined ? {} : { endOffsetInclusive: range.endInclusive }),
          ...(descending ? { descendingOrder: true } : {}),
          ...(options.limit === undefined ? {} : { maxPageSize: options.limit }),
          ...(chain === undefined ? {} : { pageToken: chain.token }),
        };
        return pageAnswer(() => source.updatesPage?.(page, decoding) ?? [], (answer) => ({ elements: answer.updates, bounds: nextPageChain(range, answer) }));
      }
      default:
        return { elements: source.updates(plan.request, context.options), bounds: none };
    }
  };
}
