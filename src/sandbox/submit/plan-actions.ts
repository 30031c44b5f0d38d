import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import { contractKeyOf } from '../ledger/contract-key-of.js';
import type { TemplateInfo } from '../ledger/template-catalog.js';
import type { ContractRecord } from '../ledger/update-record.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { noSynchronizerError } from './no-synchronizer-error.js';
import type { ResolvedChoice, TranscodedCommand } from './transcode-command.js';

/** A contract to create. */
export interface CreatePlan {
  readonly template: TemplateInfo;
  readonly argument: unknown;
  /** The argument's JSON text when the participant renders it otherwise than `JSON.stringify` (a DAR template). */
  readonly argumentJson?: string;
}

/** A choice to exercise. */
export interface ExercisePlan {
  readonly choice: string;
  readonly choiceArgument: unknown;
  /** The argument's JSON text when the participant renders it otherwise than `JSON.stringify` (a DAR choice). */
  readonly choiceArgumentJson?: string;
  readonly resolved: ResolvedChoice;
}

/**
 * The sandbox runs no Daml code (docs/sandbox.md#typed-creates): of the choices read from a DAR only `Archive`
 * runs (its body is known: it archives the contract and returns `()`); any other is refused where the engine
 * would interpret it, as a `DAML_INTERPRETATION_ERROR`, never with a made-up result.
 */
function checkRunnable(templateId: string, choice: string, resolved: ResolvedChoice, correlation: CantonErrorOptions): void {
  if (resolved.def.argument === undefined || choice === 'Archive') return;
  const owner = resolved.iface ? `interface ${resolved.iface.interfaceId}` : `template ${templateId}`;
  throw SandboxError.grpc(
    ErrorDefs.DAML_INTERPRETATION_ERROR,
    `Interpretation error: Error: the ledger-rx sandbox does not run Daml code: choice ${choice} of ${owner} cannot be exercised (only Archive can; see docs/sandbox.md in ledger-rx)`,
    correlation,
  );
}

function createPlan(template: TemplateInfo, t: TranscodedCommand, argument: unknown): CreatePlan {
  return t.createArguments ? { template, argument: t.createArguments.value, argumentJson: t.createArguments.json } : { template, argument };
}

function exercisePlan(t: TranscodedCommand, choice: string, choiceArgument: unknown): ExercisePlan {
  const resolved = t.choice as ResolvedChoice;
  return t.choiceArgument
    ? { choice, choiceArgument: t.choiceArgument.value, choiceArgumentJson: t.choiceArgument.json, resolved }
    : { choice, choiceArgument, resolved };
}

/** One command, interpreted against the ledger. */
export type Action =
  | { readonly kind: 'create'; readonly create: CreatePlan }
  | { readonly kind: 'exercise'; readonly target: ContractRecord; readonly exercise: ExercisePlan }
  | { readonly kind: 'create-and-exercise'; readonly create: CreatePlan; readonly exercise: ExercisePlan };

/** The interpreted submission: its actions, the contracts it consumes and the synchronizer (index) it runs on. */
export interface ActionPlan {
  readonly actions: readonly Action[];
  readonly consumed: ReadonlySet<ContractRecord>;
  readonly synchronizer: number;
}

/**
 * The sandbox's structural interpretation of transcoded commands (it has no Daml engine): an exercise
 * needs an active contract visible to `readers` (a stakeholder among them) — `CONTRACT_NOT_FOUND`
 * otherwise, also for a contract consumed earlier in the same submission or currently unassigned — whose
 * template is the named one (or implements the named interface; else `DAML_INTERPRETATION_ERROR`);
 * ExerciseByKey takes the oldest such contract with the key (`CONTRACT_KEY_NOT_FOUND`). A choice read from a DAR
 * other than `Archive` is refused (`DAML_INTERPRETATION_ERROR`: the sandbox runs no Daml code). All contracts must
 * sit on one synchronizer (`requestedSync` when given), and every package used must be vetted there
 * (`NO_SYNCHRONIZER_FOR_SUBMISSION`). Errors carry `correlation`.
 */
export function planActions(
  state: ParticipantState,
  transcoded: readonly TranscodedCommand[],
  readers: ReadonlySet<string>,
  requestedSync: number | undefined,
  correlation: CantonErrorOptions,
): ActionPlan {
  const ledger = state.ledger;
  const consumed = new Set<ContractRecord>();
  let txSync = requestedSync;

  const visible = (contract: ContractRecord | undefined): contract is ContractRecord =>
    contract !== undefined &&
    contract.archivedOffset === 0 &&
    contract.unassignedIn === undefined &&
    !consumed.has(contract) &&
    contract.stakeholders.some((p) => readers.has(p));

  const onSynchronizer = (contract: ContractRecord) => {
    if (txSync === undefined) txSync = contract.synchronizer;
    else if (txSync !== contract.synchronizer) {
      const id = ledger.ids.contractId(contract.createdOffset, contract.nodeId);
      throw noSynchronizerError(`contract ${id} is assigned to synchronizer ${state.synchronizers[contract.synchronizer]?.id}`, correlation);
    }
  };

  const exerciseOn = (contract: ContractRecord, t: TranscodedCommand, choice: string, choiceArgument: unknown): Action => {
    onSynchronizer(contract);
    const plan = exercisePlan(t, choice, choiceArgument);
    checkRunnable(contract.template.templateId, choice, plan.resolved, correlation);
    if (plan.resolved.consuming) consumed.add(contract);
    return { kind: 'exercise', target: contract, exercise: plan };
  };

  const actions: Action[] = [];
  for (const t of transcoded) {
    const c = t.command;
    switch (c.kind) {
      case 'CreateCommand':
        actions.push({ kind: 'create', create: createPlan((t.target as { template: TemplateInfo }).template, t, c.value.createArguments) });
        break;
      case 'CreateAndExerciseCommand': {
        const template = (t.target as { template: TemplateInfo }).template;
        const exercise = exercisePlan(t, c.value.choice, c.value.choiceArgument);
        checkRunnable(template.templateId, c.value.choice, exercise.resolved, correlation);
        actions.push({ kind: 'create-and-exercise', create: createPlan(template, t, c.value.createArguments), exercise });
        break;
      }
      case 'ExerciseCommand': {
        const contract = ledger.contract(c.value.contractId);
        if (!visible(contract)) throw requestErrors.contractNotFound(c.value.contractId, correlation);
        const ct = contract.template;
        const target = t.target;
        const fits =
          target.kind === 'template'
            ? target.template.packageName === ct.packageName && target.template.qualifiedName === ct.qualifiedName
            : ct.interfaces.some((i) => i.filterKey === target.iface.filterKey);
        if (!fits) {
          const expected = target.kind === 'template' ? target.template.templateId : target.iface.interfaceId;
          throw SandboxError.grpc(
            ErrorDefs.DAML_INTERPRETATION_ERROR,
            `Interpretation error: Error: contract ${c.value.contractId} has template ${ct.templateId}, which does not match ${expected}`,
            correlation,
          );
        }
        actions.push(exerciseOn(contract, t, c.value.choice, c.value.choiceArgument));
        break;
      }
      case 'ExerciseByKeyCommand': {
        const template = (t.target as { template: TemplateInfo }).template;
        const key = contractKeyOf(template, c.value.contractKey).json as string;
        const contract = ledger.contractsByKey(template, key).find((k) => visible(k));
        if (!contract) {
          throw SandboxError.grpc(ErrorDefs.CONTRACT_KEY_NOT_FOUND, `Couldn't find key ${key} for template ${template.templateId}`, {
            ...correlation,
            resources: [['TEMPLATE_ID', template.templateId]],
          });
        }
        actions.push(exerciseOn(contract, t, c.value.choice, c.value.choiceArgument));
        break;
      }
    }
  }
  const synchronizer = txSync ?? 0;
  const syncId = state.synchronizers[synchronizer]?.id as string;
  const vetted = state.vetting.vettedPackageIds(syncId);
  const used = actions.map((a) => (a.kind === 'exercise' ? a.target.template : a.create.template));
  const unvetted = [...new Set(used.filter((t) => !vetted.has(t.packageId)).map((t) => t.packageId))];
  if (unvetted.length > 0) throw noSynchronizerError(`packages not vetted on synchronizer ${syncId}: [${unvetted.join(', ')}]`, correlation);
  return { actions, consumed, synchronizer };
}
