import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { elementBytes, elementText } from '../../updates/element-text.js';
import type { InterfaceViewRow } from './ingest-rows.js';
import { mapUpdateRows } from './map-update-rows.js';
import { sqlString } from './sql-quote.js';
import { CopyBinary } from './write/copy-binary.js';
import { copyRows, type CopyTable, type SharedColumns } from './write/copy-rows.js';

/** A template a batch stored an event of (`ledger_rx_templates`). */
export interface NotedTemplate {
  readonly templateId: string;
  readonly packageName: string;
}

/** A choice a batch stored an exercise of (`ledger_rx_choices`). */
export interface NotedChoice extends NotedTemplate {
  readonly choice: string;
  readonly consuming: boolean;
}

/** The COPY data of one table of a batch (see {@link IngestBatch.copies}). */
export interface BatchCopy {
  readonly statement: string;
  readonly rows: number;
  readonly data: readonly Buffer[];
}

/**
 * A `timestamptz` value the binary format left NULL, to be set from its text after the COPY (`BatchScript`):
 * `UPDATE table SET column = text WHERE stream_name = … AND where`.
 */
export interface LateTimestampUpdate {
  readonly table: string;
  readonly column: string;
  readonly text: string;
  /** The row's key besides its stream, as SQL (`ledger_offset = 5 AND node_id = 0`). */
  readonly where: string;
}

type EventTable = 'updates' | 'created' | 'archived' | 'exercised' | 'reassignments';
const eventTables: readonly EventTable[] = ['updates', 'created', 'archived', 'exercised', 'reassignments'];

/**
 * The rows of consecutive update elements of stream `streamName`, written in one transaction with the checkpoint of
 * the last one (see `batchScript` and `PostgresSink`). Elements must be added in offset order.
 *
 * Each element's rows (`mapUpdateRows`) are encoded for COPY (`copyRows`) when it is added, into buffers outside
 * the JavaScript heap, so the element itself is garbage as soon as it is added. The `updates` row takes the
 * element's text from the bytes the transport received, when it kept them (`elementBytes`). The rows of
 * `active_contracts` are encoded as they come too, the columns they share with the contract's `created_events` row
 * copied from it, and the batch keeps per contract only where its row is:
 *
 * - the active-contract changes are netted per contract in event order, so that the batch needs one statement and
 *   one COPY for `active_contracts` whatever the order of creates, archives and (un)assignments inside it: delete
 *   every contract the batch removed, re-added or assigned (`acsDeletes`), copy every contract active at the end of
 *   the batch (the last row written for it, in the order the contracts first appeared: the data as written when
 *   every row written is still active, else only those rows);
 * - the interface views of its creates and assignments (usually none; stored with a statement that keeps a view
 *   already there);
 * - the templates and choices it stored events of (`templates`, `choices`: for the query functions' name lookup).
 */
export class IngestBatch {
  readonly streamName: string;
  /** The interface views of the batch's creates and assignments. */
  readonly views: InterfaceViewRow[] = [];
  /** Timestamps of the event tables the binary format left to PostgreSQL (see {@link lateTimestamps}). */
  private readonly late: LateTimestampUpdate[] = [];
  /** Those of `active_contracts`, with the row of {@link active} they belong to. */
  private readonly lateActive: { readonly row: number; readonly update: LateTimestampUpdate }[] = [];
  private readonly out = new Map<EventTable, CopyBinary>();
  /** The `active_contracts` rows written, of every contract added in the batch (a contract added twice: twice). */
  private readonly active: CopyBinary;
  /** Per contract touched: the index in {@link active} of its row at the end of the batch, or -1 (removed). */
  private readonly acsFinal = new Map<string, number>();
  /** Contracts whose row at the end of the batch is in {@link active}. */
  private acsActive = 0;
  private readonly acsTouched = new Set<string>();
  private readonly noted = new Map<string, NotedTemplate>();
  private readonly notedChoices = new Map<string, NotedChoice>();
  private elements = 0;
  private updateRows = 0;
  private last: number | undefined;
  private first: number | undefined;
  private jsonBytes = 0;

  constructor(streamName: string) {
    this.streamName = streamName;
    this.active = new CopyBinary(streamName, copyRows.active.columns);
  }

  /** Elements added (updates and checkpoints). */
  get size(): number {
    return this.elements;
  }

  /** Updates added (elements other than `OffsetCheckpoint`s). */
  get updates(): number {
    return this.updateRows;
  }

  /** Offset of the first and the last element added. */
  get firstOffset(): number | undefined {
    return this.first;
  }

  get lastOffset(): number | undefined {
    return this.last;
  }

  /** Serialized size of the stored elements. */
  get bytes(): number {
    return this.jsonBytes;
  }

  /** Adds an element (an element without an offset is ignored and returns false). */
  add(element: JsGetUpdatesResponse): boolean {
    const rows = mapUpdateRows(element);
    if (rows.offset === undefined) return false;
    if (this.last !== undefined && rows.offset <= this.last) throw new RangeError(`offset ${rows.offset} after ${this.last}: elements must be added in offset order`);
    this.elements++;
    this.first ??= rows.offset;
    this.last = rows.offset;
    if (rows.update) {
      const bytes = elementBytes(element);
      // the bytes are those of the element's text, which is the row's unless it was serialized again (see `wireJson`)
      const out = this.text('updates');
      copyRows.updates.write(out, rows.update, bytes !== undefined && elementText(element) === rows.update.elementJson ? bytes : undefined);
      this.lateOf(out, 'updates', `ledger_offset = ${rows.offset}`);
      this.updateRows++;
      this.jsonBytes += rows.update.elementJson.length;
    }
    let shared: SharedColumns[] | undefined;
    if (rows.created.length > 0) {
      const out = this.text('created');
      shared = [];
      for (const r of rows.created) {
        shared.push(copyRows.created.write(out, r));
        this.lateOf(out, 'created_events', `ledger_offset = ${r.offset} AND node_id = ${r.nodeId}`);
        this.note(r);
      }
    }
    for (const r of rows.archived) this.write('archived', copyRows.archived, r);
    for (const r of rows.exercised) {
      this.write('exercised', copyRows.exercised, r);
      const key = `${r.templateId}\u0000${r.choice}`;
      if (!this.notedChoices.has(key)) this.notedChoices.set(key, { templateId: r.templateId, packageName: r.packageName, choice: r.choice, consuming: r.consuming });
    }
    for (const r of rows.reassignments) {
      this.write('reassignments', copyRows.reassignments, r);
      this.note(r);
    }
    for (const r of rows.views) this.views.push(r);
    for (const change of rows.acs) {
      if (change.type === 'add') {
        const id = change.row.contractId;
        const before = this.acsFinal.get(id);
        if (change.replaces || before !== undefined) this.acsTouched.add(id);
        if (before === undefined || before < 0) this.acsActive++;
        this.acsFinal.set(id, this.active.rows);
        const from = change.created === undefined ? undefined : shared?.[change.created];
        const late = this.active.late.length;
        if (from === undefined) copyRows.active.write(this.active, change.row);
        else copyRows.activeOfCreated(this.active, change.row, this.out.get('created') as CopyBinary, from);
        for (const t of this.active.late.slice(late)) {
          this.lateActive.push({ row: t.row, update: { table: 'active_contracts', column: t.column, text: t.text, where: `contract_id = ${sqlString(id)}` } });
        }
      } else {
        const before = this.acsFinal.get(change.contractId);
        if (before !== undefined && before >= 0) this.acsActive--;
        this.acsTouched.add(change.contractId);
        this.acsFinal.set(change.contractId, -1);
      }
    }
    return true;
  }

  /** Contracts whose row must be deleted first: removed in the batch, or added again after a removal. */
  get acsDeletes(): string[] {
    return [...this.acsTouched];
  }

  /** Contracts active at the end of the batch, to insert (in the order of {@link copies}). */
  get acsInserts(): string[] {
    const out: string[] = [];
    for (const [id, row] of this.acsFinal) if (row >= 0) out.push(id);
    return out;
  }

  /**
   * The timestamps the binary format left NULL (a text it does not convert itself), to set after the COPYs: those of
   * the event tables' rows, and of the `active_contracts` rows copied (a contract's last row).
   */
  get lateTimestamps(): LateTimestampUpdate[] {
    if (this.lateActive.length === 0) return [...this.late];
    const final = new Set([...this.acsFinal.values()].filter((row) => row >= 0));
    return [...this.late, ...this.lateActive.filter((t) => final.has(t.row)).map((t) => t.update)];
  }

  /** The templates of the batch's created events and reassignments, once each. */
  get templates(): readonly NotedTemplate[] {
    return [...this.noted.values()];
  }

  /** The choices of the batch's exercised events, once per template and choice (the first exercise's). */
  get choices(): readonly NotedChoice[] {
    return [...this.notedChoices.values()];
  }

  /**
   * The COPY data of the batch, one entry per table with rows, in this order: `updates`, `created_events`,
   * `archived_events`, `exercised_events`, `reassignment_events`, `active_contracts` (the rows of
   * {@link acsInserts}). Finishes the batch: call it once, after the last `add`.
   */
  copies(): BatchCopy[] {
    const out: BatchCopy[] = [];
    for (const table of eventTables) {
      const text = this.out.get(table);
      if (text !== undefined) out.push({ statement: copyRows[table].statement, rows: text.rows, data: text.chunks() });
    }
    if (this.acsActive > 0) {
      // every row written still active, in the order written (the common case): the data as it is
      let asWritten = this.acsActive === this.active.rows;
      if (asWritten) {
        let i = 0;
        for (const row of this.acsFinal.values()) {
          if (row !== i++) {
            asWritten = false;
            break;
          }
        }
      }
      const rows: Iterable<number> = asWritten ? [] : [...this.acsFinal.values()].filter((row) => row >= 0);
      out.push({ statement: copyRows.active.statement, rows: this.acsActive, data: asWritten ? this.active.chunks() : this.active.chunksOfRows(rows) });
    }
    return out;
  }

  /** The writer of `table`'s rows (made at its first row). */
  private text(table: EventTable): CopyBinary {
    let text = this.out.get(table);
    if (text === undefined) {
      text = new CopyBinary(this.streamName, copyRows[table].columns);
      this.out.set(table, text);
    }
    return text;
  }

  private write<R>(table: EventTable, to: CopyTable<R>, row: R): void {
    to.write(this.text(table), row);
  }

  /** Notes the late timestamps of the row just written to `out`, of `table`, whose key is `where`. */
  private lateOf(out: CopyBinary, table: string, where: string): void {
    const row = out.rows - 1;
    for (const t of out.late) if (t.row === row) this.late.push({ table, column: t.column, text: t.text, where });
  }

  private note(r: NotedTemplate): void {
    if (!this.noted.has(r.templateId)) this.noted.set(r.templateId, { templateId: r.templateId, packageName: r.packageName });
  }
}
