import { snapshotFormats } from '../../operators/internal/snapshot-formats.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import { streamScopeChange, type StreamScope } from '../../sinks/postgres/stream-scope.js';
import type { FilterOptions } from '../options/filter-options.js';
import { snapshotChunks } from './snapshot-chunks.js';
import type { SnapshotStartContext } from './start-from-snapshot.js';

/** The scope of the filter flags (`--party`, `--any-party`, `--template`, `--interface`), sorted, as the store records it. */
export function scopeOfFilter(filter: FilterOptions): StreamScope {
  const sorted = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])].sort();
  const parties = filter.anyParty === true || (filter.parties ?? []).length === 0 ? null : sorted(filter.parties);
  return { parties, templates: sorted(filter.templates), interfaces: sorted(filter.interfaces) };
}

/** What {@link applyScopeChange} reads with: a snapshot start's context, on the ingest's `PostgresSink`. */
export interface ScopeChangeContext extends Omit<SnapshotStartContext, 'sink'> {
  readonly sink: PostgresSink;
}

/**
 * Before a stream resumes at `resumed`, compares the scope of its filter flags with the one the store recorded
 * (docs/query-store.md, "Scope changes"). None recorded (a store of an older version): records this one. The same:
 * nothing. Widened (a party, template or interface added, or a narrowing flag dropped): reads the active-contract
 * snapshot at `resumed.offset` with the new filter and hands it to `sink.changeScope`, which stores the contracts
 * it did not hold, in one transaction with the new scope (a crash or a stop during it leaves nothing: the next
 * start backfills again). Narrowed: the rows of `active_contracts` the new scope no longer covers are removed in
 * that same transaction. The read then goes on after `resumed.offset` with the new filter.
 */
export async function applyScopeChange(resumed: SinkPosition, scope: StreamScope, context: ScopeChangeContext): Promise<void> {
  const { sink, run } = context;
  const recorded = await sink.recordedScope();
  const change = recorded === undefined ? { widened: false, narrowed: false } : streamScopeChange(recorded, scope);
  if (recorded !== undefined && !change.widened && !change.narrowed) return;
  if (recorded === undefined) {
    await sink.changeScope(resumed.offset, scope);
    run.logger.info({ scope }, 'recorded the stream\'s scope');
    return;
  }
  run.logger.info({ offset: resumed.offset, before: recorded, after: scope, ...change }, change.widened ? 'the filter widened: backfilling from the active contracts at the checkpoint' : 'the filter narrowed');
  const at = resumed.offset;
  const backfill = change.widened ? snapshotChunks(context, snapshotFormats({ updateFormat: context.updateFormat }).eventFormat, at) : undefined;
  const outcome = await sink.changeScope(at, scope, { backfill, removeOutside: change.narrowed });
  run.logger.info({ offset: at, ...outcome }, 'scope changed');
}
