import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { ActiveContractRow, ArchivedRow, CreatedRow, ExercisedRow, InterfaceViewRow, ReassignmentRow, UpdateRow } from './ingest-rows.js';
import { mapUpdateRows } from './map-update-rows.js';

/**
 * The rows of consecutive update elements, written in one transaction with the checkpoint of the last one
 * (see `writeBatch` and `PostgresSink`). Elements must be added in offset order.
 *
 * The active-contract changes are netted per contract in event order, so the batch needs only two
 * statements for `active_contracts` whatever the order of creates, archives and (un)assignments inside
 * it: delete every contract the batch removed, re-added or assigned (`acsDeletes`), insert every contract
 * active at the end of the batch (`acsInserts`).
 */
export class IngestBatch {
  readonly updates: UpdateRow[] = [];
  readonly created: CreatedRow[] = [];
  readonly archived: ArchivedRow[] = [];
  readonly exercised: ExercisedRow[] = [];
  readonly reassignments: ReassignmentRow[] = [];
  /** The interface views of the batch's creates and assignments. */
  readonly views: InterfaceViewRow[] = [];
  /** Per contract touched: its row at the end of the batch (and whether a create of this batch made it), or null. */
  private readonly acsFinal = new Map<string, { readonly row: ActiveContractRow; readonly created: boolean } | null>();
  private readonly acsTouched = new Set<string>();
  private elements = 0;
  private last: number | undefined;
  private first: number | undefined;
  private jsonBytes = 0;

  /** Elements added (updates and checkpoints). */
  get size(): number {
    return this.elements;
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
      this.updates.push(rows.update);
      this.jsonBytes += rows.update.elementJson.length;
    }
    for (const r of rows.created) this.created.push(r);
    for (const r of rows.archived) this.archived.push(r);
    for (const r of rows.exercised) this.exercised.push(r);
    for (const r of rows.reassignments) this.reassignments.push(r);
    for (const r of rows.views) this.views.push(r);
    for (const change of rows.acs) {
      if (change.type === 'add') {
        if (change.replaces || this.acsFinal.has(change.row.contractId)) this.acsTouched.add(change.row.contractId);
        this.acsFinal.set(change.row.contractId, { row: change.row, created: !change.replaces });
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
    for (const v of this.acsFinal.values()) if (v) out.push(v.row);
    return out;
  }

  /**
   * The part of {@link acsInserts} made active by a create of this batch, as contract ids (their rows are
   * copied from the batch's `created_events` rows); the rest, made active by an assignment, in
   * {@link acsAssigned}.
   */
  get acsCreated(): string[] {
    const out: string[] = [];
    for (const [id, v] of this.acsFinal) if (v?.created) out.push(id);
    return out;
  }

  /** Contracts active at the end of the batch through an assignment (see {@link acsCreated}). */
  get acsAssigned(): ActiveContractRow[] {
    const out: ActiveContractRow[] = [];
    for (const v of this.acsFinal.values()) if (v && !v.created) out.push(v.row);
    return out;
  }
}
