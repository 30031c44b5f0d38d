import { defer, identity, takeWhile, type MonoTypeOperatorFunction } from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isOffsetCheckpoint } from '../../updates/is-offset-checkpoint.js';

/**
 * `--limit`: lets elements through until the `limit`-th update (an element other than an
 * `OffsetCheckpoint`) was emitted, then completes (unsubscribing from the read); checkpoints do not count.
 * Without a limit, the identity. Each subscription counts on its own.
 */
export function takeUpdates(limit: number | undefined): MonoTypeOperatorFunction<JsGetUpdatesResponse> {
  if (limit === undefined) return identity;
  return (source) =>
    defer(() => {
      let seen = 0;
      return source.pipe(takeWhile((e) => isOffsetCheckpoint(e) || ++seen < limit, true));
    });
}
