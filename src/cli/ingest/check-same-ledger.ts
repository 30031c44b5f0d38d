import { filter, lastValueFrom, take } from 'rxjs';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { PrunedOffsetError } from '../../errors/pruned-offset-error.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { NewStreamStart } from '../sink/drain-into-sink.js';

/** The update id of an update element (any kind), or `undefined` for an offset checkpoint or a malformed one. */
function updateIdOf(element: JsGetUpdatesResponse): string | undefined {
  const update = element.update as Record<string, { value?: { updateId?: unknown } }> | undefined;
  if (!update || 'OffsetCheckpoint' in update) return undefined;
  const id = Object.values(update)[0]?.value?.updateId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Before a stream resumes, checks that the participant's ledger is the one the store was filled from, and rejects
 * with `SINK_CONFLICT` (exit 1) when it is not (docs/query-store.md, "A store knows whose ledger it holds"):
 *
 * - the stream's checkpoint is after the participant's ledger end (a participant's end never moves back): the
 *   store holds another ledger, e.g. a second `ingest --sandbox` into the same `--data-dir`;
 * - the stream's last stored update (at or below the checkpoint) is not the participant's update at that offset
 *   (another update id, or none): another ledger whose end happens to be further.
 *
 * The second check reads one update, with the stream's own filter; when the participant has pruned that offset
 * it cannot be made and is skipped (the first still holds).
 */
export async function checkSameLedger(sink: PostgresSink, streamName: string, resumed: SinkPosition, start: NewStreamStart): Promise<void> {
  const where = `the store's stream '${streamName}'`;
  const fix = 'ingest into another --data-dir (or --schema, or --stream-name), or point --url at the participant this store was filled from';
  const end = await start.bounds.ledgerEnd();
  if (resumed.offset > end) {
    throw new LedgerRxError(
      ErrorCodes.SINK_CONFLICT,
      `${where} is at offset ${resumed.offset}, after the participant's ledger end (${end}): the store was filled from another ledger; ${fix}`,
    );
  }
  const stored = await sink.storedUpdateAtOrBelow(resumed.offset);
  if (stored === undefined || stored.offset <= (await start.bounds.prunedUpTo())) return;
  let theirs: string | undefined;
  try {
    const element = await lastValueFrom(
      start.client
        .updates({ beginExclusive: stored.offset - 1, endInclusive: stored.offset, updateFormat: start.updateFormat })
        .pipe(filter((e) => updateIdOf(e) !== undefined), take(1)),
      { defaultValue: undefined },
    );
    theirs = element === undefined ? undefined : updateIdOf(element);
  } catch (error) {
    if (error instanceof PrunedOffsetError) return; // pruned meanwhile: nothing left to compare
    throw error;
  }
  if (theirs !== stored.updateId) {
    throw new LedgerRxError(
      ErrorCodes.SINK_CONFLICT,
      `${where} holds update ${stored.updateId} at offset ${stored.offset}, but the participant's update at that offset is ${theirs ?? 'none (for this stream\'s filter)'}: the store was filled from another ledger; ${fix}`,
    );
  }
}
