import type { Observable, ObservableInput } from 'rxjs';
import type { CheckpointStore } from '../../operators/checkpoint.js';
import { readDescending } from '../../operators/read-descending.js';
import type { Transport } from '../../updates/transport.js';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { TailStatus } from '../../operators/tail-status.js';
import { tailUpdates } from '../../operators/tail-updates.js';
import type { UpdatesSource } from '../../operators/updates-source.js';
import type { UpdateFormat } from '../../schemas/filters.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { TailReadPlan } from './plan-tail-read.js';

/** What every read of `tail` takes besides its plan. */
export interface TailReadContext {
  readonly updateFormat: UpdateFormat;
  /** Resume after the offset this store holds (ascending reads only). */
  readonly store?: CheckpointStore | undefined;
  readonly handler: (element: JsGetUpdatesResponse) => ObservableInput<unknown>;
  readonly onStatus: (status: TailStatus) => void;
  readonly validate: boolean;
  readonly retry?: RetryConfig | undefined;
  /** `--transport`; default `'auto'`. */
  readonly transport?: Transport | undefined;
}

/**
 * The cold Observable of the planned read (see `planTailRead`): `readDescending` or `tailUpdates` over
 * `source`, with the element's raw text kept (`rawText`, so NDJSON lines are the server's bytes); or
 * `undefined` when the plan reads nothing.
 */
export function openTailRead(source: UpdatesSource, plan: TailReadPlan, context: TailReadContext): Observable<JsGetUpdatesResponse> | undefined {
  const common = {
    updateFormat: context.updateFormat,
    handler: context.handler,
    onStatus: context.onStatus,
    validate: context.validate,
    rawText: true,
    ...(context.retry === undefined ? {} : { retry: context.retry }),
    ...(context.transport === undefined ? {} : { transport: context.transport }),
  };
  switch (plan.kind) {
    case 'nothing':
      return undefined;
    case 'descending':
      return readDescending(source, { ...common, endInclusive: plan.endInclusive, beginExclusive: plan.beginExclusive, pageLimit: plan.pageLimit });
    case 'ascending':
      return tailUpdates(source, {
        ...common,
        beginExclusive: plan.beginExclusive,
        ...(context.store ? { checkpointStore: context.store } : {}),
        ...(plan.endInclusive === undefined ? {} : { endInclusive: plan.endInclusive }),
        pageLimit: plan.pageLimit,
        ...(plan.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: plan.idleTimeoutMs }),
        ...(plan.longPollMs === undefined ? {} : { longPollMs: plan.longPollMs }),
      });
  }
}
