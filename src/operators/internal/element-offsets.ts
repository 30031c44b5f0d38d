import { completionOffset } from '../../completions/completion-offset.js';
import { isCompletionCheckpoint } from '../../completions/is-completion-checkpoint.js';
import type { CompletionStreamResponse } from '../../schemas/index.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isOffsetCheckpoint } from '../../updates/is-offset-checkpoint.js';
import { updateOffset } from '../../updates/update-offset.js';
import { updateKind, updateRecordTime, type UpdateKind } from '../../updates/update-kind.js';

/** How an element is counted in `progress` statuses. */
export interface ElementMetrics<E> {
  readonly kind: (element: E) => UpdateKind;
  readonly recordTime: (element: E) => string | undefined;
}

/**
 * How the read engine reads its elements: the offset (`undefined`: none), whether one is an `OffsetCheckpoint`
 * (it may repeat the offset reached, and then carries nothing new), and the metrics statuses it reports:
 * `request` and `progress` (counted with `ElementMetrics`), only `request` (`'requests'`), or none.
 */
export interface ElementOffsets<E> {
  readonly offset: (element: E) => number | undefined;
  readonly isCheckpoint: (element: E) => boolean;
  readonly metrics?: ElementMetrics<E> | 'requests';
}

/** The update stream's elements, fully metered. */
export const updateOffsets: ElementOffsets<JsGetUpdatesResponse> = { offset: updateOffset, isCheckpoint: isOffsetCheckpoint, metrics: { kind: updateKind, recordTime: updateRecordTime } };

/** The completion stream's elements, not metered. */
export const completionOffsets: ElementOffsets<CompletionStreamResponse> = { offset: completionOffset, isCheckpoint: isCompletionCheckpoint };
