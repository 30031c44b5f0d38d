import type { LedgerClient } from '../../client/ledger-client.js';
import { snapshotFormats } from '../../operators/internal/snapshot-formats.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import { sameScope, streamScopeChange, type StreamScope } from '../../sinks/postgres/stream-scope.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import type { FilterOptions } from '../options/filter-options.js';
import { snapshotChunks } from './snapshot-chunks.js';
import type { SnapshotStartContext } from './start-from-snapshot.js';

/** The scope of the filter flags (`--party`, `--any-party`, `--template`, `--interface`), sorted, as the store records it. */
export function scopeOfFilter(filter: FilterOptions): StreamScope {
  const sorted = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])].sort();
  const parties = filter.anyParty === true || (filter.parties ?? []).length === 0 ? null : sorted(filter.parties);
  return { parties, templates: sorted(filter.templates), interfaces: sorted(filter.interfaces) };
}

/** The filter flags with their scope replaced by `scope` (the other flags, shape, reassignments, topology, verbose, kept). */
export function filterOfScope(filter: FilterOptions, scope: StreamScope): FilterOptions {
  return { ...filter, parties: scope.parties ?? undefined, anyParty: scope.parties === null, templates: scope.templates, interfaces: scope.interfaces };
}

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
async function changeScope(
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

/**
 * Before a stream resumes at `resumed`, decides its scope from the flags' scope `flags` and what the store recorded
 * (docs/query-store.md, "Scope changes without a re-seed"), makes the change, and resolves with the update format to
 * read with:
 *
 * - none recorded (a store of an older version): records the flags' scope;
 * - flags other than those of the start that last set the scope: the flags set it (as they always did; a pending
 *   live request is superseded, with a warning);
 * - the same flags: the scope changed live stays, and a request not applied yet (`ledger-rx store scope` while no
 *   ingester ran, or one killed during its backfill) is applied now.
 *
 * A widening is backfilled from the active-contract snapshot at `resumed.offset`, a narrowing removed from
 * `active_contracts`, in one transaction with the new scope (a crash or a stop during it leaves nothing: the next
 * start does it again). The read then goes on after `resumed.offset` with the new filter.
 */
export async function startScope(resumed: SinkPosition, flags: StreamScope, client: LedgerClient, context: ScopeChangeContext): Promise<UpdateFormat> {
  const { sink, run } = context;
  const stored = await sink.storedScope();
  if (stored === undefined) {
    await sink.changeScope(resumed.offset, flags, { flags });
    run.logger.info({ scope: flags }, "recorded the stream's scope");
    return buildUpdateFormat(filterOfScope(context.filter, flags));
  }
  const flagsChanged = !sameScope(stored.flags ?? stored.scope, flags);
  if (flagsChanged && stored.wanted !== null) {
    run.logger.warn({ wanted: stored.wanted, flags }, 'the filter flags changed since the last start: they set the scope, and the scope change asked for with store scope is dropped');
  }
  const target = flagsChanged ? flags : (stored.wanted ?? stored.scope);
  if (!flagsChanged && !sameScope(target, flags)) run.logger.info({ scope: target, flags }, 'reading with the scope the store holds (changed with store scope), not the flags');
  if (!flagsChanged && stored.wanted === null) return buildUpdateFormat(filterOfScope(context.filter, target));
  return changeScope(resumed.offset, stored.scope, target, client, context, flagsChanged ? { flags, supersedeRequest: true } : {});
}

/** Whether a scope change was asked for and not applied yet (`ledger_rx_stream_scopes.wanted`). One query. */
export async function scopeChangePending(sink: PostgresSink): Promise<boolean> {
  const stored = await sink.storedScope();
  return stored !== undefined && stored.wanted !== null && !sameScope(stored.wanted, stored.scope);
}

/**
 * A live scope change: with every batch committed at `position` and the read stopped, applies the pending request
 * (`ledger_rx_stream_scopes.wanted`: backfill, removal and the new scope in one transaction with the checkpoint row
 * locked at `position.offset`) and resolves with the update format of the scope the store now holds, which the read
 * continues with after `position.offset`.
 */
export async function applyLiveScope(position: SinkPosition, client: LedgerClient, context: ScopeChangeContext): Promise<UpdateFormat> {
  const stored = await context.sink.storedScope();
  const scope = stored?.scope;
  if (stored === undefined || scope === undefined) throw new Error('a live scope change of a stream without a recorded scope'); // requestScopeChange refuses those
  if (stored.wanted === null) return buildUpdateFormat(filterOfScope(context.filter, scope)); // undone meanwhile
  context.run.logger.info({ offset: position.offset, before: scope, after: stored.wanted }, 'a scope change was asked for: applying it between two batches');
  return changeScope(position.offset, scope, stored.wanted, client, context, {});
}
