import type { Ledger } from '../ledger/ledger.js';
import { formatInstant } from './format-instant.js';
import type { UpdateRecord } from '../ledger/update-record.js';

/** A created event of {@link LedgerUpdate}: everything needed to decide who sees it under which shape. */
export interface LedgerCreatedEvent {
  readonly kind: 'Created';
  readonly nodeId: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  /** Ledger-effects witnesses (all parties, hosted or not). */
  readonly witnesses: readonly string[];
  /** False for a contract created and archived in the same transaction (transient). */
  readonly acsDelta: boolean;
}

/** An exercised event of {@link LedgerUpdate}. */
export interface LedgerExercisedEvent {
  readonly kind: 'Exercised';
  readonly nodeId: number;
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly choice: string;
  readonly consuming: boolean;
  readonly actingParties: readonly string[];
  readonly witnesses: readonly string[];
  /** Stakeholders of the exercised contract (who see its archival in the ACS delta). */
  readonly stakeholders: readonly string[];
  /** True when the ACS delta shows this as an `ArchivedEvent`. */
  readonly acsDelta: boolean;
}

/** An (un)assignment of {@link LedgerUpdate}. */
export interface LedgerReassignmentEvent {
  readonly kind: 'Unassigned' | 'Assigned';
  readonly contractId: string;
  readonly templateId: string;
  readonly reassignmentId: string;
  readonly source: string;
  readonly target: string;
  readonly reassignmentCounter: number;
  readonly stakeholders: readonly string[];
}

interface Common {
  readonly offset: number;
  readonly updateId: string;
  readonly synchronizerId: string;
  readonly recordTime: string;
}

/**
 * One update of the sandbox's own log, unfiltered, as `Sandbox.updates()` returns it: what tests compare
 * the answers of `POST /v2/updates` against.
 */
export type LedgerUpdate =
  | (Common & {
      readonly kind: 'Transaction';
      readonly commandId: string;
      readonly workflowId: string;
      readonly actAs: readonly string[];
      readonly events: readonly (LedgerCreatedEvent | LedgerExercisedEvent)[];
    })
  | (Common & { readonly kind: 'Reassignment'; readonly commandId: string; readonly events: readonly LedgerReassignmentEvent[] })
  | (Common & { readonly kind: 'TopologyTransaction'; readonly party: string; readonly participantId: string; readonly participantPermission: string });

/** The {@link LedgerUpdate} of a log record. */
export function summarizeUpdate(ledger: Ledger, u: UpdateRecord): LedgerUpdate {
  const ids = ledger.ids;
  const sync = (i: number) => ledger.synchronizers[i]?.id ?? '';
  const common: Common = { offset: u.offset, updateId: ids.updateId(u.offset), synchronizerId: sync(u.synchronizer), recordTime: formatInstant(u.recordTimeMs) };
  switch (u.kind) {
    case 'transaction':
      return {
        ...common,
        kind: 'Transaction',
        commandId: u.submission.derivedCommandId ? `seed-${u.offset}` : u.submission.commandId,
        workflowId: u.submission.workflowId,
        actAs: u.submission.actAs,
        events: u.nodes.map((n) =>
          n.kind === 'create'
            ? {
                kind: 'Created' as const,
                nodeId: n.nodeId,
                contractId: ids.contractId(n.createdOffset, n.nodeId),
                templateId: n.template.templateId,
                packageName: n.template.packageName,
                signatories: n.signatories,
                observers: n.observers,
                witnesses: n.witnesses,
                acsDelta: n.archivedOffset !== u.offset,
              }
            : {
                kind: 'Exercised' as const,
                nodeId: n.nodeId,
                contractId: ids.contractId(n.target.createdOffset, n.target.nodeId),
                templateId: n.target.template.templateId,
                packageName: n.target.template.packageName,
                choice: n.choice,
                consuming: n.consuming,
                actingParties: n.actingParties,
                witnesses: n.witnesses,
                stakeholders: n.target.stakeholders,
                acsDelta: n.consuming && n.target.createdOffset !== u.offset,
              },
        ),
      };
    case 'reassignment':
      return {
        ...common,
        kind: 'Reassignment',
        commandId: u.submission.commandId,
        events: u.events.map((e) => ({
          kind: e.type === 'unassign' ? ('Unassigned' as const) : ('Assigned' as const),
          contractId: ids.contractId(e.contract.createdOffset, e.contract.nodeId),
          templateId: e.contract.template.templateId,
          reassignmentId: e.reassignmentId,
          source: sync(e.source),
          target: sync(e.target),
          reassignmentCounter: e.reassignmentCounter,
          stakeholders: e.contract.stakeholders,
        })),
      };
    case 'topology':
      return { ...common, kind: 'TopologyTransaction', party: u.party, participantId: u.participantId, participantPermission: u.permission };
  }
}
