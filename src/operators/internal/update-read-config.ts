import { asyncScheduler } from 'rxjs';
import { resolveRetryConfig } from '../../retry/resolve-retry-config.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { PagedReadOptions } from '../paged-read-options.js';
import type { UpdatesSource } from '../updates-source.js';
import { updateOffsets } from './element-offsets.js';
import type { PagePlan } from './page-plan.js';
import type { ReadEngineConfig } from './read-engine.js';
import { updatesAnswer } from './updates-answer.js';

/** The read engine's settings for an update read of `source` with `options` (defaults applied: page limit 200, token margin 30 s). */
export function updateReadConfig(source: UpdatesSource, options: PagedReadOptions): ReadEngineConfig<JsGetUpdatesResponse, PagePlan['request']> {
  const stream = { pingIntervalMs: options.pingIntervalMs, silenceTimeoutMs: options.silenceTimeoutMs, tokenRefreshMarginMs: options.tokenRefreshMarginMs ?? 30_000 };
  return {
    pageLimit: options.pageLimit ?? 200,
    retry: resolveRetryConfig(options.retry),
    scheduler: options.scheduler ?? asyncScheduler,
    onStatus: options.onStatus,
    handler: options.handler,
    answer: updatesAnswer(source, stream),
    elements: updateOffsets,
    checksElementOrder: source.checksElementOrder === true,
  };
}
