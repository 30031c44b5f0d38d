import type { SqlScriptStep } from '../../../checkpoints/sql-database.js';
import type { SinkPosition } from '../../ledger-sink.js';
import type { IngestBatch } from '../ingest-batch.js';
import { pgArrayLiteral } from '../pg-array-literal.js';
import { sqlString } from '../sql-quote.js';

/** What {@link batchScript} writes besides the batch's rows. */
export interface BatchScriptContext {
  /** Where the batch starts: the checkpoint the sink expects to find (-1 for a new stream). */
  readonly after: number;
  /** The position the checkpoint moves to. */
  readonly position: SinkPosition;
  /** The checkpoint's `updated_at` (ISO 8601). */
  readonly updatedAt: string;
  /** The channel notified with the position (`storeChannel`). */
  readonly channel: string;
  /** The stream's scope as JSON, recorded with a new stream's first batch. */
  readonly firstScopeJson?: string | undefined;
  /** Templates (their ids) and choices (`BatchScript.choiceKey`) already noted since the sink started: not noted again. */
  readonly notedTemplates: ReadonlySet<string>;
  readonly notedChoices: ReadonlySet<string>;
}

const int = (n: number): string => String(Math.trunc(n));

/**
 * The transaction of one batch, as script steps (`SqlDatabase.script`; docs/ingest.md): statements carry their values
 * as constants (`sqlString`), the event tables their rows as COPY data.
 *
 * 1. `ledger_rx_move_checkpoint` (migration 12): locks the checkpoint row, and fails the script (`LRX01`: already
 *    stored; `LRX02`: another writer stored part of it) unless it stands at `after`; moves it to the position and
 *    notifies the channel;
 * 2. for a new stream with a scope, the scope (`ledger_rx_stream_scopes`);
 * 3. the `active_contracts` rows the batch archived, unassigned or (re)assigned are deleted;
 * 4. COPY of `updates`, `created_events`, `archived_events`, `exercised_events`, `reassignment_events`, and of the
 *    contracts active at the end of the batch into `active_contracts` (`IngestBatch.copies`), then the timestamps
 *    the binary format left to PostgreSQL (`IngestBatch.lateTimestamps`: rare, a text not in the participant's form);
 * 5. the interface views of its creates and assignments (a view already there is kept);
 * 6. the templates and choices of its events not noted before (`ledger_rx_templates`, `ledger_rx_choices`).
 *
 * The constructor finishes the batch and prepares steps 3 to 5, which depend on the batch alone (so they are ready
 * while an earlier batch still commits); {@link steps} adds the others, which depend on where the stream stands.
 */
export class BatchScript {
  private readonly batch: IngestBatch;
  private readonly stream: string;
  private readonly rows: SqlScriptStep[] = [];

  constructor(batch: IngestBatch) {
    this.batch = batch;
    const stream = sqlString(batch.streamName);
    this.stream = stream;
    const deletes = batch.acsDeletes;
    if (deletes.length > 0) {
      this.rows.push({ sql: `DELETE FROM active_contracts WHERE stream_name = ${stream} AND contract_id = ANY (${sqlString(pgArrayLiteral(deletes))}::text[])` });
    }
    for (const copy of batch.copies()) this.rows.push({ copy: copy.statement, data: copy.data });
    for (const t of batch.lateTimestamps) {
      this.rows.push({ sql: `UPDATE ${t.table} SET ${t.column} = ${sqlString(t.text)}::timestamptz WHERE stream_name = ${stream} AND ${t.where}` });
    }
    if (batch.views.length > 0) {
      const values = batch.views.map((v) => `(${stream}, ${int(v.offset)}, ${sqlString(v.contractId)}, ${sqlString(v.interfaceId)}, ${sqlString(v.viewValueJson)}::jsonb)`);
      this.rows.push({ sql: `INSERT INTO ledger_rx_interface_views (stream_name, ledger_offset, contract_id, interface_id, view_value) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING` });
    }
  }

  /** The whole script, for a batch that starts at `context.after`. */
  steps(context: BatchScriptContext): SqlScriptStep[] {
    const { stream, batch } = this;
    const { position } = context;
    const steps: SqlScriptStep[] = [
      {
        sql: `SELECT ledger_rx_move_checkpoint(${stream}, ${int(context.after)}, ${int(position.offset)}, ${sqlString(JSON.stringify(position.synchronizerTimes))}::jsonb, ${sqlString(context.updatedAt)}::timestamptz, ${sqlString(context.channel)})`,
      },
    ];
    if (context.firstScopeJson !== undefined && context.after === -1) {
      steps.push({ sql: `INSERT INTO ledger_rx_stream_scopes (stream_name, scope, updated_at) VALUES (${stream}, ${sqlString(context.firstScopeJson)}::jsonb, now()) ON CONFLICT DO NOTHING` });
    }
    steps.push(...this.rows);
    const templates = batch.templates.filter((t) => !context.notedTemplates.has(t.templateId));
    if (templates.length > 0) {
      const values = templates.map((t) => `(${sqlString(t.templateId)}, ${sqlString(t.packageName)})`);
      steps.push({
        sql: `INSERT INTO ledger_rx_templates (stream_name, template_id, package_name, module_name, entity_name)
              SELECT ${stream}, t, p, split_part(t, ':', 2), split_part(t, ':', 3) FROM (VALUES ${values.join(', ')}) AS v(t, p) ON CONFLICT DO NOTHING`,
      });
    }
    const choices = batch.choices.filter((c) => !context.notedChoices.has(BatchScript.choiceKey(c.templateId, c.choice)));
    if (choices.length > 0) {
      const values = choices.map((c) => `(${sqlString(c.templateId)}, ${sqlString(c.choice)}, ${sqlString(c.packageName)}, ${c.consuming ? 'true' : 'false'})`);
      steps.push({
        sql: `INSERT INTO ledger_rx_choices (stream_name, template_id, choice, package_name, module_name, entity_name, consuming)
              SELECT ${stream}, t, ch, p, split_part(t, ':', 2), split_part(t, ':', 3), co FROM (VALUES ${values.join(', ')}) AS v(t, ch, p, co) ON CONFLICT DO NOTHING`,
      });
    }
    return steps;
  }

  /** The key of a choice in {@link BatchScriptContext.notedChoices}. */
  static choiceKey(templateId: string, choice: string): string {
    return `${templateId}\u0000${choice}`;
  }
}
