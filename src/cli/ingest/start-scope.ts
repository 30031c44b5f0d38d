import type { LedgerClient } from '../../client/ledger-client.js';
import type { UpdateFormat } from '../../schemas/index.js';
import type { SinkPosition } from '../../sinks/ledger-sink.js';
import { sameScope, type StreamScope } from '../../sinks/postgres/stream-scope.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { changeScopeAt, type ScopeChangeContext } from './change-scope-at.js';
import { filterOfScope } from './scope-of-filter.js';

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
  return changeScopeAt(resumed.offset, stored.scope, target, client, context, flagsChanged ? { flags, supersedeRequest: true } : {});
}

