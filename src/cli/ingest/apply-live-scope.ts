import type { LedgerClient } from '../../client/ledger-client.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import type { PostgresSink } from '../../sinks/postgres/postgres-sink.js';
import { sameScope } from '../../sinks/postgres/stream-scope.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { changeScopeAt, type ScopeChangeContext } from './change-scope-at.js';
import { filterOfScope } from './scope-of-filter.js';

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
  return changeScopeAt(position.offset, scope, stored.wanted, client, context, {});
}
