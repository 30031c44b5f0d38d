import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { ActiveContractRow, InterfaceViewRow } from './ingest-rows.js';
import { mapUpdateRows } from './map-update-rows.js';
import { copyRows, type CopyTable } from './write/copy-rows.js';
import { CopyText } from './write/copy-text.js';

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

type EventTable = 'updates' | 'created' | 'archived' | 'exercised' | 'reassignments';
const eventTables: readonly EventTable[] = ['updates', 'created', 'archived', 'exercised', 'reassignments'];

/**
 * The rows of consecutive update elements of stream `streamName`, written in one transaction with the checkpoint of
 * the last one (see `batchScript` and `PostgresSink`). Elements must be added in offset order.
 *
 * Each element's rows (`mapUpdateRows`) are encoded for COPY (`copyRows`) when it is added, into buffers outside
 * the JavaScript heap, so the element itself is garbage as soon as it is added. What stays in objects is what the
 * batch decides at its end:
 *
 * - the active-contract changes, netted per contract in event order, so that the batch needs one statement and
 *   one COPY for `active_contracts` whatever the order of creates, archives and (un)assignments inside it: delete
 *   every contract the batch removed, re-added or assigned (`acsDeletes`), copy every contract active at the end of
 *   the batch (`acsInserts`);
 * - the interface views of its creates and assignments (usually none; stored with a statement that keeps a view
 *   already there);
 * - the templates and choices it stored events of (`templates`, `choices`: for the query functions' name lookup).
 */
export class IngestBatch {
  readonly streamName: string;
  /** The interface views of the batch's creates and assignments. */
  readonly views: InterfaceViewRow[] = [];
  private readonly out = new Map<EventTable, CopyText>();
  /** Per contract touched: its row at the end of the batch, or null. */
  private readonly acsFinal = new Map<string, ActiveContractRow | null>();
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
      this.write('updates', copyRows.updates, rows.update);
      this.updateRows++;
      this.jsonBytes += rows.update.elementJson.length;
    }
    for (const r of rows.created) {
      this.write('created', copyRows.created, r);
      this.note(r);
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
        if (change.replaces || this.acsFinal.has(change.row.contractId)) this.acsTouched.add(change.row.contractId);
        this.acsFinal.set(change.row.contractId, change.row);
      } else {
        this.acsTouched.add(change.contractId);
        this.acsFinal.set(change.contractId, null);
      }
    }
    return true;
  }

  /** Contracts whose row must be deleted first: removed in the batch, or added again after a removal. */
  get acsDeletes(): string[] {
    return [...this.acsTouched];
  }

  /** Contracts active at the end of the batch, to insert. */
  get acsInserts(): ActiveContractRow[] {
    const out: ActiveContractRow[] = [];
    for (const v of this.acsFinal.values()) if (v) out.push(v);
    return out;
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
    const active = new CopyText(this.streamName);
    for (const row of this.acsFinal.values()) if (row) copyRows.active.write(active, row);
    if (active.rows > 0) out.push({ statement: copyRows.active.statement, rows: active.rows, data: active.chunks() });
    return out;
  }

  private write<R>(table: EventTable, to: CopyTable<R>, row: R): void {
    let text = this.out.get(table);
    if (text === undefined) {
      text = new CopyText(this.streamName);
      this.out.set(table, text);
    }
    to.write(text, row);
  }

  private note(r: NotedTemplate): void {
    if (!this.noted.has(r.templateId)) this.noted.set(r.templateId, { templateId: r.templateId, packageName: r.packageName });
  }
}
