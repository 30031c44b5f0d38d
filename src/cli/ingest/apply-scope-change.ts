import { activeContractsSnapshot } from '../../operators/active-contracts-snapshot.js';
import { snapshotFormats } from '../../operators/internal/snapshot-formats.js';
import type { TransportOption } from '../../operators/read-transport.js';
import type { SnapshotSource } from '../../operators/snapshot-source.js';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import { streamScopeChange, type StreamScope } from '../../sinks/postgres/stream-scope.js';
import type { FilterOptions } from '../options/filter-options.js';
import type { StreamingRun } from '../process/streaming-run.js';
import { pullChunks } from './pull-chunks.js';

/** The scope of the filter flags (`--party`, `--any-party`, `--template`, `--interface`), sorted, as the store records it. */
export function scopeOfFilter(filter: FilterOptions): StreamScope {
  const sorted = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])].sort();
  const parties = filter.anyParty === true || (filter.parties ?? []).length === 0 ? null : sorted(filter.parties);
  return { parties, templates: sorted(filter.templates), interfaces: sorted(filter.interfaces) };
}

/** What {@link applyScopeChange} reads with. */
export interface ScopeChangeContext {
  readonly client: SnapshotSource;
  readonly sink: PostgresSink;
  readonly updateFormat: UpdateFormat;
  readonly transport: TransportOption;
  /** Entries per insert statement (`--batch`). */
  readonly chunkSize: number;
  readonly retry: RetryConfig | undefined;
  readonly validate: boolean;
  readonly run: Pick<StreamingRun, 'logger' | 'onStatus' | 'stops'>;
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
  const backfill = change.widened
    ? pullChunks(
        (paused) =>
          activeContractsSnapshot(
            context.client,
            { eventFormat: snapshotFormats({ updateFormat: context.updateFormat }).eventFormat, activeAtOffset: at },
            { transport: context.transport, paused, onStatus: run.onStatus, validate: context.validate, ...(context.retry === undefined ? {} : { retry: context.retry }) },
          ),
        context.chunkSize,
        run.stops.signal,
      )
    : undefined;
  const outcome = await sink.changeScope(at, scope, { backfill, removeOutside: change.narrowed });
  run.logger.info({ offset: at, ...outcome }, 'scope changed');
}
