/** A row of `updates`. */
export interface UpdateRow {
  readonly offset: number;
  readonly updateId: string;
  readonly kind: 'transaction' | 'reassignment' | 'topology_transaction' | 'unknown';
  readonly recordTime: string | null;
  readonly synchronizerId: string | null;
  readonly commandId: string | null;
  readonly workflowId: string | null;
  readonly effectiveAt: string | null;
  /** The element as the server sent it, serialized. */
  readonly elementJson: string;
}

/** A row of `created_events`; also what an active contract is made of. */
export interface CreatedRow {
  readonly offset: number;
  readonly nodeId: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  /** As `JSON.stringify` writes it (so is every `…Json` field of these rows but `UpdateRow.elementJson`). */
  readonly createArgumentJson: string;
  readonly contractKeyJson: string | null;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly witnessParties: readonly string[];
  readonly createdAt: string | null;
  readonly acsDelta: boolean;
  /** The event's interface views that the participant computed (`viewStatus` OK, a `viewValue`); usually none. */
  readonly interfaceViews: readonly InterfaceViewRow[];
}

/**
 * A row of `ledger_rx_interface_views` (migration 7): one interface view of the contract a created event (a
 * create, an assignment's, a snapshot entry's) shows, keyed by that event's offset, which is the contract's
 * `active_contracts.created_offset` (docs/query-store.md, "Typed views").
 */
export interface InterfaceViewRow {
  readonly offset: number;
  readonly contractId: string;
  readonly interfaceId: string;
  readonly viewValueJson: string;
}

/** A row of `archived_events`. */
export interface ArchivedRow {
  readonly offset: number;
  readonly nodeId: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly witnessParties: readonly string[];
}

/** A row of `exercised_events`. */
export interface ExercisedRow {
  readonly offset: number;
  readonly nodeId: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly interfaceId: string | null;
  readonly packageName: string;
  readonly choice: string;
  readonly choiceArgumentJson: string;
  readonly actingParties: readonly string[];
  readonly consuming: boolean;
  readonly witnessParties: readonly string[];
  readonly lastDescendantNodeId: number;
  readonly exerciseResultJson: string | null;
  readonly acsDelta: boolean;
}

/** A row of `reassignment_events`. */
export interface ReassignmentRow {
  readonly offset: number;
  readonly nodeId: number;
  readonly kind: 'assign' | 'unassign';
  readonly reassignmentId: string;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly source: string;
  readonly target: string;
  readonly reassignmentCounter: number;
  readonly submitter: string | null;
  readonly witnessParties: readonly string[];
}

/** A row of `active_contracts`. */
export interface ActiveContractRow {
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly createArgumentJson: string;
  readonly contractKeyJson: string | null;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly createdOffset: number;
  readonly createdAt: string | null;
  readonly synchronizerId: string;
  readonly reassignmentCounter: number;
}

/** A change of the active contract set, in event order: a contract became active here, or stopped being. */
export type AcsChange =
  /**
   * `replaces`: an assignment, which may find a row of the contract already there (an unseen unassignment).
   * `created`: the index in `IngestRows.created` of the row the contract was created by (a create; none for an
   * assignment), whose columns the contract's row shares.
   */
  | { readonly type: 'add'; readonly row: ActiveContractRow; readonly replaces: boolean; readonly created?: number }
  | { readonly type: 'remove'; readonly contractId: string };

/**
 * Everything one update element contributes to the ingestion tables (see `mapUpdateRows`). An
 * `OffsetCheckpoint` has no `update` row and no events; it only moves the stream's checkpoint (its
 * synchronizer times are the committer's: `synchronizerTimesOf`).
 */
export interface IngestRows {
  /** The element's offset; `undefined` when it has none (it is then skipped). */
  readonly offset: number | undefined;
  readonly update: UpdateRow | undefined;
  readonly created: readonly CreatedRow[];
  readonly archived: readonly ArchivedRow[];
  readonly exercised: readonly ExercisedRow[];
  readonly reassignments: readonly ReassignmentRow[];
  readonly acs: readonly AcsChange[];
  /** The interface views of its creates and assignments (`CreatedRow.interfaceViews`). */
  readonly views: readonly InterfaceViewRow[];
}
