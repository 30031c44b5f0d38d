import { NEVER, Subject, switchMap, takeUntil, throwError, timer } from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { UpdatesSource } from '../updates-source.js';
import { decodingOf, type AnswerContext, type PageAnswer, type StreamSettings } from './page-answer.js';
import type { PagePlan } from './page-plan.js';
import { tokenRefreshDelay } from './token-refresh-delay.js';

/**
 * The WebSocket strategy: one `streamUpdates()` connection for the plan's request, paused while the read's
 * handler is behind. The answer ends by a failure, by the end of a bounded range, or by a planned
 * reconnection `stream.tokenRefreshMarginMs` before the token expires (`tokenRefreshDelay`, on the
 * scheduler): then it completes, and the next plan resumes with a fresh token. No bounds.
 */
export function websocketAnswer(source: UpdatesSource, plan: PagePlan, context: AnswerContext, stream: StreamSettings): PageAnswer<JsGetUpdatesResponse> {
  const bounds = () => undefined;
  if (!source.streamUpdates) return { elements: throwError(() => new TypeError('the source has no streamUpdates()')), bounds };
  const opened = new Subject<number | undefined>();
  const refresh = opened.pipe(
    switchMap((expiresAt) => {
      const delay = tokenRefreshDelay(expiresAt, context.scheduler.now(), stream.tokenRefreshMarginMs);
      return delay === undefined ? NEVER : timer(delay, context.scheduler);
    }),
  );
  const elements = source
    .streamUpdates(plan.request, {
      ...decodingOf(context.options),
      paused: context.paused,
      onOpen: (connection) => opened.next(connection.tokenExpiresAt),
      ...(stream.pingIntervalMs === undefined ? {} : { pingIntervalMs: stream.pingIntervalMs }),
      ...(stream.silenceTimeoutMs === undefined ? {} : { silenceTimeoutMs: stream.silenceTimeoutMs }),
    })
    .pipe(takeUntil(refresh));
  return { elements, bounds };
}
