import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { editScope, type ScopeEdit } from './edit-scope.js';
import { scopeChannel } from './scope-channel.js';
import { sameScope, type StreamScope } from './stream-scope.js';

/** What {@link requestScopeChange} asks for. */
export interface ScopeChangeRequest {
  /** Schema of the store. Default `public`. */
  readonly schema?: string | undefined;
  /** Default `default`. */
  readonly streamName?: string | undefined;
  /** The changes, applied in order to the scope already asked for (else the one recorded): see `editScope`. */
  readonly edits: readonly ScopeEdit[];
}

/** What {@link requestScopeChange} recorded. */
export interface ScopeChangeRequested {
  /** The scope the stream stores now. */
  readonly scope: StreamScope;
  /** The scope it is to store once the running ingester applied the request; `null` when that is `scope` (nothing pending). */
  readonly wanted: StreamScope | null;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * Asks a stream to change its scope (docs/query-store.md, "Scope changes without a re-seed"): in one transaction that
 * locks the stream's row of `ledger_rx_stream_scopes`, applies `edits` to the scope already asked for (`wanted`), else
 * to the recorded one, records the result as `wanted` (or clears `wanted` when the result is the recorded scope:
 * a request undone before it was applied), and notifies `scopeChannel(schema, streamName)`. The running ingester
 * of the stream hears it and applies it at its next batch boundary (backfill or removal, in one transaction with
 * the new scope); an ingester that is not running applies it at its next start with the same flags.
 *
 * Rejects with an {@link InvalidArgumentError} when the stream has no recorded scope (a new stream records it with
 * its first commit) or when an edit is refused (`editScope`); nothing is recorded then. `database` is the store,
 * any `search_path`. The ids are not checked against the participant: a template the participant does not know
 * stops the ingester's read with the participant's error.
 */
export async function requestScopeChange(database: SqlDatabase, request: ScopeChangeRequest): Promise<ScopeChangeRequested> {
  const schema = request.schema ?? 'public';
  const streamName = request.streamName ?? 'default';
  if (!identifier.test(schema)) throw new InvalidArgumentError('schema', `must be a plain lower-case SQL identifier, got '${schema}'`);
  if (request.edits.length === 0) throw new InvalidArgumentError('edits', 'name at least one party, template or interface to add or remove');
  return database.transaction(async (tx) => {
    const rows = (
      await tx.query<{ scope: StreamScope; wanted: StreamScope | null }>(`SELECT scope, wanted FROM ${schema}.ledger_rx_stream_scopes WHERE stream_name = $1 FOR UPDATE`, [streamName])
    ).rows;
    const row = rows[0];
    if (row === undefined) {
      throw new InvalidArgumentError('streamName', `stream '${streamName}' in schema '${schema}' has no recorded scope: ingest records it with the stream's first commit`);
    }
    const wanted = editScope(row.wanted ?? row.scope, request.edits);
    const pending = sameScope(wanted, row.scope) ? null : wanted;
    await tx.query(`UPDATE ${schema}.ledger_rx_stream_scopes SET wanted = $2::jsonb, wanted_at = now() WHERE stream_name = $1`, [
      streamName,
      pending === null ? null : JSON.stringify(pending),
    ]);
    await tx.query('SELECT pg_notify($1, $2)', [scopeChannel(schema, streamName), 'scope']);
    return { scope: row.scope, wanted: pending };
  });
}
