import type { LedgerClient } from '../../client/ledger-client.js';
import { snapshotFormats } from '../../operators/internal/snapshot-formats.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import { streamScopeChange, type StreamScope } from '../../sinks/postgres/stream-scope.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import type { FilterOptions } from '../options/filter-options.js';
import { filterOfScope } from './scope-of-filter.js';
import { snapshotChunks } from './snapshot-chunks.js';
import type { SnapshotStartContext } from './start-from-snapshot.js';

/** What the scope changes read with: a snapshot start's context (its client the one of the read), on the ingest's `PostgresSink`, with the filter flags. */
export interface ScopeChangeContext extends Omit<SnapshotStartContext, 'sink' | 'updateFormat' | 'client'> {
  readonly sink: PostgresSink;
  /** The filter flags: the scope read with replaces their parties, templates and interfaces. */
  readonly filter: FilterOptions;
}

/**
 * Changes the stream's scope from `from` to `to` at `at` (its checkpoint, every batch committed): a widening reads the
 * active-contract snapshot at `at` with `to`'s filter and hands it to `sink.changeScope` (the contracts it did not
 * hold stored, in one transaction with the new scope), a narrowing removes what `to` no longer covers in that same
 * transaction. Resolves with the update format of `to`.
 */
export async function changeScopeAt(
  at: number,
  from: StreamScope,
  to: StreamScope,
  client: LedgerClient,
  context: ScopeChangeContext,
  record: { readonly flags?: StreamScope; readonly supersedeRequest?: boolean },
): Promise<UpdateFormat> {
  const { sink, run } = context;
  const updateFormat = buildUpdateFormat(filterOfScope(context.filter, to));
  const change = streamScopeChange(from, to);
  if (change.widened || change.narrowed) {
    run.logger.info({ offset: at, before: from, after: to, ...change }, change.widened ? 'the scope widened: backfilling from the active contracts at the checkpoint' : 'the scope narrowed');
  }
  const backfill = change.widened ? snapshotChunks({ ...context, client }, snapshotFormats({ updateFormat }).eventFormat, at) : undefined;
  const outcome = await sink.changeScope(at, to, { backfill, removeOutside: change.narrowed, ...record });
  if (change.widened || change.narrowed) run.logger.info({ offset: at, scope: to, ...outcome }, 'scope changed');
  return updateFormat;
}

