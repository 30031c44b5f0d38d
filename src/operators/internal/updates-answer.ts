import { NEVER, Subject, concatMap, defer, from, switchMap, takeUntil, throwError, timer } from 'rxjs';
import type { GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { UpdatesSource } from '../updates-source.js';
import { decodingOptions } from '../paged-read-options.js';
import { websocketUpdates } from './websocket-updates.js';
import type { AnswerContext, PageAnswer, StreamSettings } from './page-answer.js';
import { nextPageChain, type PageChain } from './page-chain.js';
import type { PagePlan } from './page-plan.js';
import { tokenRefreshDelay } from './token-refresh-delay.js';

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
export function updatesAnswer(source: UpdatesSource, stream: StreamSettings): (plan: PagePlan, context: AnswerContext) => PageAnswer<JsGetUpdatesResponse> {
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
            const delay = tokenRefreshDelay(expiresAt, context.scheduler.now(), stream.tokenRefreshMarginMs);
            return delay === undefined ? NEVER : timer(delay, context.scheduler);
          }),
        );
        const options = {
          ...decoding,
          paused: context.paused,
          onOpen: (connection: { readonly tokenExpiresAt: number | undefined }) => opened.next(connection.tokenExpiresAt),
          ...(stream.pingIntervalMs === undefined ? {} : { pingIntervalMs: stream.pingIntervalMs }),
          ...(stream.silenceTimeoutMs === undefined ? {} : { silenceTimeoutMs: stream.silenceTimeoutMs }),
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
        let next: PageChain | undefined;
        const elements = defer(() => from(source.updatesPage?.(page, decoding) ?? [])).pipe(
          concatMap((answer) => {
            next = nextPageChain(range, answer);
            return from(answer.updates);
          }),
        );
        return { elements, bounds: () => next };
      }
      default:
        return { elements: source.updates(plan.request, context.options), bounds: none };
    }
  };
}
