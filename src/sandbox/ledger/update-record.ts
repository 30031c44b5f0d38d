import type { InterfaceInfo, TemplateInfo } from './template-catalog.js';

/**
 * The create node of a transaction, which is also the contract it created (the ledger keeps no other
 * copy). Immutable parts are shared between contracts where possible (seeded contracts share their
 * argument JSON and party arrays); `archivedOffset`, `synchronizer`, `reassignmentCounter` and
 * `unassignedIn` change over the contract's life.
 */
export interface ContractRecord {
  readonly kind: 'create';
  readonly nodeId: number;
  /** Offset of the transaction that created the contract (its id derives from this and `nodeId`). */
  readonly createdOffset: number;
  readonly template: TemplateInfo;
  /** The create argument, and its JSON (serialized once). */
  readonly argument: unknown;
  readonly argumentJson: string;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  /** Signatories and observers. */
  readonly stakeholders: readonly string[];
  /** Informees of the create node plus those of its ancestors (ledger-effects visibility). */
  readonly witnesses: readonly string[];
  /** The contract key as JSON, for templates with a key. */
  readonly key: string | undefined;
  /** Offset of the transaction that archived it; 0 while active. Equal to `createdOffset` when transient. */
  archivedOffset: number;
  /** Index of the synchronizer it is assigned to. */
  synchronizer: number;
  reassignmentCounter: number;
  /** The reassignment id while unassigned and not yet assigned again. */
  unassignedIn: string | undefined;
}

/** An exercise node of a transaction. */
export interface ExerciseRecord {
  readonly kind: 'exercise';
  readonly nodeId: number;
  readonly target: ContractRecord;
  /** Set when the choice was exercised through an interface. */
  readonly interface: InterfaceInfo | undefined;
  readonly choice: string;
  readonly choiceArgumentJson: string;
  readonly actingParties: readonly string[];
  readonly consuming: boolean;
  readonly lastDescendantNodeId: number;
  readonly witnesses: readonly string[];
}

/** A node of a transaction, in pre-order (node ids increase in the order of this list). */
export type NodeRecord = ContractRecord | ExerciseRecord;

/**
 * Who submitted a transaction or reassignment. Seeded and generated updates share one of these per
 * submitting party and derive their command id from the offset (`derivedCommandId`).
 */
export interface SubmissionRecord {
  readonly userId: string;
  readonly actAs: readonly string[];
  readonly commandId: string;
  readonly derivedCommandId: boolean;
  readonly workflowId: string;
  readonly submissionId: string;
  readonly traceparent: string | undefined;
  readonly tracestate: string | undefined;
  /**
   * For a submission recorded as an externally signed one (`Sandbox.submit(..., { externallySigned })`):
   * the base64 transaction hash its transaction and completion carry (docs/participant-versions.md).
   */
  readonly transactionHash?: string | undefined;
}

/** A committed Daml transaction. */
export interface TransactionRecord {
  readonly kind: 'transaction';
  readonly offset: number;
  readonly recordTimeMs: number;
  readonly synchronizer: number;
  readonly submission: SubmissionRecord;
  readonly nodes: readonly NodeRecord[];
}

/** One (un)assignment of a reassignment update. */
export interface ReassignmentEventRecord {
  readonly type: 'unassign' | 'assign';
  readonly nodeId: number;
  readonly contract: ContractRecord;
  readonly reassignmentId: string;
  readonly source: number;
  readonly target: number;
  readonly submitter: string;
  readonly reassignmentCounter: number;
}

/** A reassignment update: unassignments (recorded on the source) or assignments (on the target). */
export interface ReassignmentRecord {
  readonly kind: 'reassignment';
  readonly offset: number;
  readonly recordTimeMs: number;
  readonly synchronizer: number;
  readonly submission: SubmissionRecord;
  readonly events: readonly ReassignmentEventRecord[];
}

/** A topology transaction: a party got hosted on a participant. */
export interface TopologyRecord {
  readonly kind: 'topology';
  readonly offset: number;
  readonly recordTimeMs: number;
  readonly synchronizer: number;
  readonly party: string;
  readonly participantId: string;
  readonly permission: 'PARTICIPANT_PERMISSION_SUBMISSION' | 'PARTICIPANT_PERMISSION_CONFIRMATION' | 'PARTICIPANT_PERMISSION_OBSERVATION';
}

/** An entry of the ledger's update log. */
export type UpdateRecord = TransactionRecord | ReassignmentRecord | TopologyRecord;
