import type { Ledger } from './ledger.js';
import type { ContractRecord, ReassignmentEventRecord, SubmissionRecord } from './update-record.js';

/** The update that last activated a contract (its create, or its latest assignment). */
export interface Activation {
  readonly offset: number;
  readonly nodeId: number;
  readonly submission: SubmissionRecord;
}

/** One entry of an active contract set at an offset. */
export type AcsEntry =
  | {
      readonly kind: 'active';
      readonly contract: ContractRecord;
      readonly synchronizer: number;
      readonly reassignmentCounter: number;
      readonly activation: Activation;
    }
  | {
      readonly kind: 'incomplete-unassigned';
      readonly contract: ContractRecord;
      readonly activation: Activation;
      readonly unassign: ReassignmentEventRecord;
      /** Offset and submission of the unassignment. */
      readonly unassignedAt: Activation;
    };

type State = Extract<AcsEntry, { kind: 'active' }> | Extract<AcsEntry, { kind: 'incomplete-unassigned' }>;

const byPosition = (a: Activation, b: Activation) => a.offset - b.offset || a.nodeId - b.nodeId;

/**
 * The participant's contracts at `activeAt`, computed from the update log up to it: the contracts
 * created at or before it, not archived by then, and assigned to a synchronizer — ordered by the update
 * that last activated them (creation or assignment) — followed by the incomplete reassignments: contracts
 * unassigned at or before `activeAt` whose assignment comes later (or not yet), ordered by their
 * unassignment. The sandbox sees every unassignment before its assignment (both synchronizers are
 * connected to it), so it has no incomplete assignments.
 */
export function activeContractsAt(ledger: Ledger, activeAt: number): readonly AcsEntry[] {
  const end = ledger.indexAfter(activeAt);
  const recent = computed.get(ledger) ?? [];
  const hit = recent.find((r) => r.activeAt === activeAt && r.end === end);
  if (hit !== undefined) return hit.entries;
  const entries = compute(ledger, end);
  computed.set(ledger, [{ activeAt, end, entries }, ...recent].slice(0, keptPerLedger));
  return entries;
}

/**
 * The last sets computed per ledger. The log is append-only (pruning only moves the pruning offset) and
 * offsets only grow, so the set at an offset never changes once computed: a page read of a large set
 * (a page per request, each at the same offset) computes it once, not once per page.
 */
const computed = new WeakMap<Ledger, readonly { readonly activeAt: number; readonly end: number; readonly entries: readonly AcsEntry[] }[]>();
const keptPerLedger = 4;

function compute(ledger: Ledger, end: number): readonly AcsEntry[] {
  const states = new Map<ContractRecord, State>();
  for (let i = 0; i < end; i++) {
    const u = ledger.at(i);
    if (!u) break;
    if (u.kind === 'transaction') {
      for (const node of u.nodes) {
        if (node.kind === 'create') {
          states.set(node, { kind: 'active', contract: node, synchronizer: u.synchronizer, reassignmentCounter: 0, activation: { offset: u.offset, nodeId: node.nodeId, submission: u.submission } });
        } else if (node.consuming) {
          states.delete(node.target);
        }
      }
    } else if (u.kind === 'reassignment') {
      for (const e of u.events) {
        const current = states.get(e.contract);
        if (e.type === 'unassign') {
          if (current?.kind === 'active') {
            states.set(e.contract, { kind: 'incomplete-unassigned', contract: e.contract, activation: current.activation, unassign: e, unassignedAt: { offset: u.offset, nodeId: e.nodeId, submission: u.submission } });
          }
        } else {
          states.set(e.contract, {
            kind: 'active',
            contract: e.contract,
            synchronizer: e.target,
            reassignmentCounter: e.reassignmentCounter,
            activation: { offset: u.offset, nodeId: e.nodeId, submission: u.submission },
          });
        }
      }
    }
  }
  const all = [...states.values()];
  const active = all.filter((s) => s.kind === 'active').sort((a, b) => byPosition(a.activation, b.activation));
  const incomplete = all
    .filter((s): s is Extract<AcsEntry, { kind: 'incomplete-unassigned' }> => s.kind === 'incomplete-unassigned')
    .sort((a, b) => byPosition(a.unassignedAt, b.unassignedAt));
  return [...active, ...incomplete];
}
