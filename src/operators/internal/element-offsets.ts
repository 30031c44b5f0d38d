import { completionOffset } from '../../completions/completion-offset.js';
import { isCompletionCheckpoint } from '../../completions/is-completion-checkpoint.js';
import type { CompletionStreamResponse } from '../../schemas/index.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isOffsetCheckpoint } from '../../updates/is-offset-checkpoint.js';
import { updateOffset } from '../../updates/update-offset.js';
import { updateKind, updateRecordTime, type UpdateKind } from '../../updates/update-kind.js';

/**
 * How the read engine reads the elements of an offset stream: an element's offset (`undefined`: none) and
 * whether it is an `OffsetCheckpoint` (it may repeat the offset reached, and then carries nothing new); and
 * what the read reports for metrics: `progress` (by the element's kind and record time) and `request`
 * statuses, only `request` statuses (`'requests'`), or none (left out).
 */
export interface ElementOffsets<E> {
  readonly offset: (element: E) => number | undefined;
  readonly isCheckpoint: (element: E) => boolean;
  readonly metrics?: ElementMetrics<E> | 'requests';
}

/** How an element is counted in `progress` statuses. */
export interface ElementMetrics<E> {
  readonly kind: (element: E) => UpdateKind;
  readonly recordTime: (element: E) => string | undefined;
}

/** The update stream's elements (`JsGetUpdatesResponse`), metered by kind. */
export const updateOffsets: ElementOffsets<JsGetUpdatesResponse> = {
  offset: updateOffset,
  isCheckpoint: isOffsetCheckpoint,
  metrics: { kind: updateKind, recordTime: updateRecordTime },
};

/** The completion stream's elements (`CompletionStreamResponse`), not metered. */
export const completionOffsets: ElementOffsets<CompletionStreamResponse> = {
  offset: completionOffset,
  isCheckpoint: isCompletionCheckpoint,
};
