/**
 * What `tail` does with an element its read hands over (see {@link deliveryAction}):
 * - `repeat`: handled before (the read was retried while it waited for the output to drain, and delivers
 *   the element again): nothing to do, it is written already;
 * - `pass`: an `OffsetCheckpoint` that is not written (`--checkpoints` absent): it moves the position and
 *   counts as delivered for the checkpoint, but writes no line;
 * - `write`: write its line; it counts as delivered once written.
 */
export type DeliveryAction = 'repeat' | 'pass' | 'write';

/** The facts {@link deliveryAction} decides on. */
export interface DeliveryFacts {
  /** The element's offset (`undefined` for an element without one, which is never a repeat). */
  readonly offset: number | undefined;
  /** The offset of the last element handled, if any. */
  readonly handledOffset: number | undefined;
  /** Offsets decrease (a `--descending` read). */
  readonly descending: boolean;
  readonly isCheckpoint: boolean;
  /** `--checkpoints`: write `OffsetCheckpoint` elements too. */
  readonly includeCheckpoints: boolean;
}

/**
 * Decides what to do with one element (a pure function): a `repeat` when its offset is not past the last
 * handled one (at or below it ascending, at or above it descending), else `pass` for an unwritten
 * checkpoint, else `write`.
 */
export function deliveryAction(f: DeliveryFacts): DeliveryAction {
  if (f.offset !== undefined && f.handledOffset !== undefined && (f.descending ? f.offset >= f.handledOffset : f.offset <= f.handledOffset)) return 'repeat';
  if (f.isCheckpoint && !f.includeCheckpoints) return 'pass';
  return 'write';
}
