import { contractKeyOf } from '../ledger/contract-key-of.js';
import type { LedgerIds } from '../ledger/ledger-ids.js';
import type { PartyLists } from '../ledger/party-lists.js';
import { unionParties } from '../ledger/union-parties.js';
import type { ContractRecord, ExerciseRecord, NodeRecord } from '../ledger/update-record.js';
import { observersOf } from './observers-of.js';
import type { Action, CreatePlan, ExercisePlan } from './plan-actions.js';

/** Where and by whom the transaction is built. */
export interface NodeContext {
  readonly offset: number;
  readonly synchronizer: number;
  /** The distinct `actAs` parties: signatories of creates, acting parties of exercises. */
  readonly actors: readonly string[];
  readonly isKnownParty: (party: string) => boolean;
  readonly ids: LedgerIds;
  /** The ledger's shared party lists: every list a node holds is interned. */
  readonly partyLists: PartyLists;
}

/**
 * The nodes of the transaction an {@link Action} list produces, in pre-order: a create's signatories are
 * the actors and its observers the other known parties found in its argument ({@link observersOf}); an
 * exercise's informees are the target's stakeholders (signatories for a non-consuming choice) and the
 * actors; a consuming choice whose argument names a known `newOwner` creates the successor contract with
 * `owner` replaced, as a child node. Also returns the ids of the contracts created, in node order.
 */
export function buildTransactionNodes(actions: readonly Action[], ctx: NodeContext): { nodes: NodeRecord[]; contractIds: string[] } {
  const nodes: NodeRecord[] = [];
  const contractIds: string[] = [];
  const intern = (parties: readonly string[]) => ctx.partyLists.intern(parties);
  const actors = intern(ctx.actors);
  const create = (plan: CreatePlan, signatories: readonly string[], parentWitnesses: readonly string[]): ContractRecord => {
    const observers = intern(observersOf(plan.argument, ctx.isKnownParty, signatories));
    const stakeholders = intern(unionParties(signatories, observers));
    const contract: ContractRecord = {
      kind: 'create',
      nodeId: nodes.length,
      createdOffset: ctx.offset,
      template: plan.template,
      argument: plan.argument,
      argumentJson: plan.argumentJson ?? JSON.stringify(plan.argument),
      signatories,
      observers,
      stakeholders,
      witnesses: intern(unionParties(stakeholders, parentWitnesses)),
      key: contractKeyOf(plan.template, plan.argument).json,
      archivedOffset: 0,
      synchronizer: ctx.synchronizer,
      reassignmentCounter: 0,
      unassignedIn: undefined,
    };
    nodes.push(contract);
    contractIds.push(ctx.ids.contractId(ctx.offset, contract.nodeId));
    return contract;
  };
  const exercise = (target: ContractRecord, plan: ExercisePlan) => {
    const informees = intern(unionParties(plan.resolved.consuming ? target.stakeholders : target.signatories, actors));
    const nodeId = nodes.length;
    nodes.push(target); // reserved slot, replaced below once the descendants are known
    const arg = plan.choiceArgument;
    const newOwner = typeof arg === 'object' && arg !== null && !Array.isArray(arg) ? (arg as Record<string, unknown>)['newOwner'] : undefined;
    const targetArg = target.argument as Record<string, unknown>;
    if (plan.resolved.consuming && typeof newOwner === 'string' && ctx.isKnownParty(newOwner) && Object.prototype.hasOwnProperty.call(targetArg, 'owner')) {
      create({ template: target.template, argument: { ...targetArg, owner: newOwner } }, target.signatories, informees);
    }
    const node: ExerciseRecord = {
      kind: 'exercise',
      nodeId,
      target,
      interface: plan.resolved.iface,
      choice: plan.choice,
      choiceArgumentJson: plan.choiceArgumentJson ?? JSON.stringify(plan.choiceArgument),
      actingParties: actors,
      consuming: plan.resolved.consuming,
      lastDescendantNodeId: nodes.length - 1,
      witnesses: informees,
    };
    nodes[nodeId] = node;
  };
  for (const a of actions) {
    if (a.kind === 'create') create(a.create, actors, []);
    else if (a.kind === 'exercise') exercise(a.target, a.exercise);
    else exercise(create(a.create, actors, []), a.exercise);
  }
  return { nodes, contractIds };
}
