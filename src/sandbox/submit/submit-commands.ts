import { randomUUID } from 'node:crypto';
import { matchUserId, requireActAs } from '../auth/authorize.js';
import type { Claims } from '../auth/claims.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { isLedgerString, isPartyIdString, isUid } from '../state/ids.js';
import { contractKeyOf } from '../ledger/contract-key-of.js';
import type { DecodedCommand, DecodedJsCommands } from '../decode/decode-js-commands.js';
import { exceedsNestingDepth } from './exceeds-nesting-depth.js';
import { observersOf } from './observers-of.js';
import { requestErrors } from '../errors/request-errors.js';
import type { InterfaceInfo, TemplateInfo } from '../ledger/template-catalog.js';
import { unionParties } from '../ledger/union-parties.js';
import type { ContractRecord, ExerciseRecord, NodeRecord, SubmissionRecord } from '../ledger/update-record.js';

/** What an accepted submission produced. */
export interface SubmitResult {
  readonly updateId: string;
  readonly offset: number;
  /** Ids of the contracts the transaction created, in node order (transient ones included). */
  readonly contractIds: readonly string[];
}

/** Per-submission inputs besides the body. */
export interface SubmitOptions {
  /** The caller's claims; resolved after the JSON-layer checks, as the server authorizes at that point. */
  readonly claims: () => Promise<Claims> | Claims;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

/** The maximum nesting of a Daml value in a command (the JSON layer's depth limit). */
export const maxDamlValueDepth = 100;

/** The participant's maximum deduplication duration (used when a submission gives none), in seconds. */
export const maxDeduplicationSeconds = 7 * 24 * 3600;

type Target = { readonly kind: 'template'; readonly template: TemplateInfo } | { readonly kind: 'interface'; readonly iface: InterfaceInfo };

interface ResolvedChoice {
  readonly consuming: boolean;
  /** The interface the choice belongs to, when it is an interface choice. */
  readonly iface: InterfaceInfo | undefined;
}

interface CreatePlan {
  readonly template: TemplateInfo;
  readonly argument: unknown;
}

interface ExercisePlan {
  readonly choice: string;
  readonly choiceArgument: unknown;
  readonly resolved: ResolvedChoice;
}

type Action =
  | { readonly kind: 'create'; readonly create: CreatePlan }
  | { readonly kind: 'exercise'; readonly target: ContractRecord; readonly exercise: ExercisePlan }
  | { readonly kind: 'create-and-exercise'; readonly create: CreatePlan; readonly exercise: ExercisePlan };

const packageIdPattern = /^[0-9a-f]{64}$/;
const packageNamePattern = /^[A-Za-z][A-Za-z0-9_-]*$/;

function splitIdentifier(id: string): { pkg: string; qualifiedName: string } {
  const i = id.indexOf(':');
  return { pkg: id.slice(0, i), qualifiedName: id.slice(i + 1) };
}

/** Step 2: the JSON layer resolves package references (server-behavior §5.2). */
function resolveTarget(state: ParticipantState, templateId: string, synchronizerId: string, allowInterface: boolean): Target {
  const { pkg, qualifiedName } = splitIdentifier(templateId);
  let packageId: string;
  if (pkg.startsWith('#')) {
    const name = pkg.slice(1);
    if (!packageNamePattern.test(name)) throw requestErrors.invalidArgument(`Value does not match the package-id or package-name formats: ${pkg}`);
    const vetted = state.vetting.vettedPackageIds(synchronizerId);
    const newest = state.ledger.catalog.packagesNamed(name).find((p) => vetted.has(p.packageId));
    if (!newest) {
      throw SandboxError.grpc(
        ErrorDefs.JSON_API_PACKAGE_SELECTION_FAILED,
        `Package selection failed for package-name '${name}': no package of that name is vetted by this participant on synchronizer ${synchronizerId}`,
      );
    }
    packageId = newest.packageId;
  } else if (packageIdPattern.test(pkg)) {
    packageId = pkg;
  } else {
    throw requestErrors.invalidArgument(`Value does not match the package-id or package-name formats: ${pkg}`);
  }
  const template = state.ledger.catalog.template(packageId, qualifiedName);
  if (template) return { kind: 'template', template };
  const iface = allowInterface ? state.ledger.catalog.interface(packageId, qualifiedName) : undefined;
  if (iface) return { kind: 'interface', iface };
  const id = `${packageId}:${qualifiedName}`;
  throw SandboxError.grpc(ErrorDefs.TEMPLATES_OR_INTERFACES_NOT_FOUND, `Templates do not exist: [${id}].`, { resources: [['TEMPLATE_ID', id]] });
}

function resolveChoice(target: Target, templateId: string, choice: string): ResolvedChoice {
  if (target.kind === 'interface') {
    const c = target.iface.def.choices[choice];
    if (c) return { consuming: c.consuming, iface: target.iface };
  } else {
    const own = target.template.def.choices[choice];
    if (own) return { consuming: own.consuming, iface: undefined };
    for (const iface of target.template.interfaces) {
      const c = iface.def.choices[choice];
      if (c) return { consuming: c.consuming, iface };
    }
  }
  throw requestErrors.jsonInvalidArgument(`Invalid template:${templateId} or choice:${choice}`);
}

function checkValue(value: unknown): void {
  if (exceedsNestingDepth(value, maxDamlValueDepth)) {
    throw requestErrors.jsonInvalidArgument(`JSON nesting exceeds the maximum allowed depth of ${maxDamlValueDepth}`);
  }
}

function checkRecord(template: TemplateInfo, argument: unknown): void {
  checkValue(argument);
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) {
    throw requestErrors.jsonInvalidArgument(`Expected a record of type ${template.qualifiedName}, got ${JSON.stringify(argument)}`);
  }
  const { missing } = contractKeyOf(template, argument);
  if (missing.length > 0) throw SandboxError.jsonLayer(ErrorDefs.COMMAND_PREPROCESSING_FAILED, `Missing non-optional fields: ${missing.join(', ')}`);
}

interface Transcoded {
  readonly command: DecodedCommand;
  readonly target: Target;
  readonly choice: ResolvedChoice | undefined;
}

/** Step 2 for one command: package resolution, choice lookup and payload checks (JSON-layer errors). */
function transcode(state: ParticipantState, command: DecodedCommand, synchronizerId: string): Transcoded {
  const v = command.value;
  const target = resolveTarget(state, v.templateId, synchronizerId, command.kind === 'ExerciseCommand');
  let choice: ResolvedChoice | undefined;
  if (command.kind !== 'CreateCommand') choice = resolveChoice(target, v.templateId, command.value.choice);
  if (command.kind === 'CreateCommand' || command.kind === 'CreateAndExerciseCommand') {
    checkRecord((target as { template: TemplateInfo }).template, command.value.createArguments);
  }
  if (command.kind === 'ExerciseByKeyCommand') {
    const template = (target as { template: TemplateInfo }).template;
    checkValue(command.value.contractKey);
    if (!template.def.keyFields) throw requestErrors.jsonInvalidArgument(`Template ${template.templateId} has no contract key`);
    const { missing } = contractKeyOf(template, command.value.contractKey);
    if (missing.length > 0) throw SandboxError.jsonLayer(ErrorDefs.COMMAND_PREPROCESSING_FAILED, `Missing non-optional fields: ${missing.join(', ')}`);
  }
  if (command.kind !== 'CreateCommand') checkValue(command.value.choiceArgument);
  return { command, target, choice };
}

/** Step 4: the gRPC validator's checks, in its order. */
function validate(request: DecodedJsCommands, userId: string, submissionId: string, correlation: CantonErrorOptions): void {
  const workflowId = request.workflowId ?? '';
  if (workflowId !== '' && !isLedgerString(workflowId)) throw requestErrors.invalidArgument(`Invalid workflow_id "${workflowId}"`, correlation);
  if (userId === '') throw requestErrors.missingField('user_id', correlation);
  if (!isLedgerString(userId)) throw requestErrors.invalidField('user_id', `"${userId}" is not a valid user id`, correlation);
  if (request.commandId === '') throw requestErrors.missingField('command_id', correlation);
  if (!isLedgerString(request.commandId)) throw requestErrors.invalidField('command_id', `"${request.commandId}" is not a valid ledger string`, correlation);
  if (!isLedgerString(submissionId)) throw requestErrors.invalidField('submission_id', `"${submissionId}" is not a valid ledger string`, correlation);
  for (const p of [...request.actAs, ...(request.readAs ?? [])]) {
    if (!isPartyIdString(p)) throw requestErrors.invalidArgument(`Invalid party "${p}" in act_as/read_as`, correlation);
  }
  const sync = request.synchronizerId ?? '';
  if (sync !== '' && !isUid(sync)) throw requestErrors.invalidField('synchronizer_id', `"${sync}" is not a valid synchronizer id`, correlation);
  if (request.commands.length === 0) throw requestErrors.missingField('commands', correlation);
  for (const c of request.commands) {
    if (c.kind === 'ExerciseCommand' && c.value.contractId === '') throw requestErrors.missingField('contract_id', correlation);
  }
  if (request.minLedgerTimeAbs !== undefined && request.minLedgerTimeRel !== undefined) {
    throw requestErrors.invalidArgument('min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel', correlation);
  }
  const dedup = request.deduplicationPeriod;
  if (dedup?.kind === 'DeduplicationDuration' && (dedup.value.seconds < 0 || (dedup.value.seconds === 0 && dedup.value.nanos < 0))) {
    throw requestErrors.invalidField('deduplication_period', 'Duration must be positive', correlation);
  }
  if (dedup?.kind === 'DeduplicationOffset' && dedup.value < 0) throw requestErrors.negativeOffset('deduplication_period', dedup.value, correlation);
  for (const k of request.prefetchContractKeys ?? []) {
    if (k.limit !== undefined && k.limit <= 0) throw requestErrors.invalidArgument('prefetch_contract_keys.limit must be positive', correlation);
  }
  if (request.tapsMaxPasses !== undefined && request.tapsMaxPasses <= 0) throw requestErrors.invalidArgument('taps_max_passes must be positive', correlation);
}

/** The change id (`userId`, `actAs` as a set, `commandId`) as a map key. */
export function changeIdKey(userId: string, actAs: readonly string[], commandId: string): string {
  return JSON.stringify([userId, [...new Set(actAs)].sort(), commandId]);
}

/**
 * `POST /v2/commands/async/submit` without HTTP: validates in the server's order (server-behavior §5.2)
 * and, when accepted, appends the transaction before returning.
 *
 * 1. (decoding is the caller's)
 * 2. JSON layer: `actAs` non-empty and its first party valid, `packageIdSelectionPreference` ids,
 *    templates (`#name` resolves to the newest package of that name this participant vetted on the
 *    synchronizer, else `JSON_API_PACKAGE_SELECTION_FAILED`; unknown template
 *    `TEMPLATES_OR_INTERFACES_NOT_FOUND`), choices (`INVALID_ARGUMENT`), payloads (records, key fields,
 *    nesting ≤ 100);
 * 3. `MatchUserId`, `ActAs` for every `actAs`, `ReadAs` for every `readAs`;
 * 4. the gRPC validator; from here on errors carry `correlationId` = the submission id (generated when
 *    absent);
 * 5. submission: synchronizer and hosting (`NO_SYNCHRONIZER_FOR_SUBMISSION` when a submitter is not
 *    hosted here, a package is not vetted or `synchronizerId` is unknown — the sandbox's stand-in for
 *    Canton's routing errors), the deduplication period (`INVALID_DEDUPLICATION_PERIOD` beyond 7 days, or
 *    for an offset outside the ledger), interpretation, then deduplication.
 *
 * Interpretation is structural (no Daml interpreter): a create's signatories are the `actAs` parties
 * and its observers the other known parties that appear as values anywhere in its argument
 * ({@link observersOf}); an exercise needs an active contract of the named template visible to
 * `actAs`/`readAs` (else `CONTRACT_NOT_FOUND`, also for a contract consumed earlier in the same
 * submission or currently unassigned), archives it unless the
 * choice is non-consuming, and has `actingParties` = `actAs`; a consuming choice whose argument has a
 * `newOwner` party creates the successor contract with `owner` replaced (a child node); ExerciseByKey
 * takes the oldest visible active contract with the key (`CONTRACT_KEY_NOT_FOUND` otherwise). Every
 * exercise result is unit (`{}`).
 *
 * Deduplication: async submit reports outcomes only through completions, which the sandbox does not
 * serve, so a second submission of a change id within the deduplication period is rejected
 * synchronously with `DUPLICATE_COMMAND` (409; the first one was already committed when it was
 * accepted). It is checked after interpretation, as on Canton.
 */
export async function submitCommands(state: ParticipantState, request: DecodedJsCommands, options: SubmitOptions): Promise<SubmitResult> {
  const ledger = state.ledger;
  // Step 2 — JSON layer.
  const first = request.actAs[0];
  if (first === undefined) throw requestErrors.missingField('act_as');
  if (!isPartyIdString(first)) throw requestErrors.invalidArgument(`Invalid party in actAs/act_as: "${first}" is not a valid party id`);
  for (const p of request.packageIdSelectionPreference ?? []) {
    if (!packageIdPattern.test(p)) throw requestErrors.invalidArgument(`packageIdSelectionPreferences: "${p}" is not a valid package id`);
  }
  const requestedSync = request.synchronizerId ?? '';
  const knownSync = state.synchronizers.find((s) => s.id === requestedSync);
  const resolutionSync = knownSync?.id ?? (state.synchronizers[0]?.id as string);
  const transcoded = request.commands.map((c) => transcode(state, c, resolutionSync));

  // Step 3 — authorization.
  const claims = await options.claims();
  const userId = matchUserId(claims, request.userId);
  const readAs = request.readAs ?? [];
  requireActAs(claims, request.actAs, readAs);

  // Step 4 — gRPC validation.
  const submissionId = request.submissionId !== undefined && request.submissionId !== '' ? request.submissionId : randomUUID();
  const correlation: CantonErrorOptions = { correlationId: submissionId };
  validate(request, userId, submissionId, correlation);

  // Step 5 — submission.
  const noSynchronizer = (why: string) =>
    SandboxError.grpc(ErrorDefs.NO_SYNCHRONIZER_FOR_SUBMISSION, `No valid synchronizer for submission found: ${why}`, correlation);
  if (requestedSync !== '' && (!knownSync || !knownSync.connected)) throw noSynchronizer(`the participant is not connected to synchronizer ${requestedSync}`);
  const notHosted = request.actAs.filter((p) => state.parties.get(p)?.isLocal !== true);
  if (notHosted.length > 0) throw noSynchronizer(`the submitting parties are not hosted on this participant: [${notHosted.join(', ')}]`);

  const dedup = request.deduplicationPeriod;
  const ledgerEnd = ledger.ledgerEnd();
  if (dedup?.kind === 'DeduplicationDuration' && dedup.value.seconds > maxDeduplicationSeconds) {
    throw SandboxError.grpc(
      ErrorDefs.INVALID_DEDUPLICATION_PERIOD,
      `The submitted command had an invalid deduplication period: The given deduplication duration of ${dedup.value.seconds}s exceeds the maximum deduplication duration of ${maxDeduplicationSeconds}s`,
      { ...correlation, context: { longest_duration: `PT${maxDeduplicationSeconds / 3600}H` } },
    );
  }
  if (dedup?.kind === 'DeduplicationOffset' && (dedup.value > ledgerEnd || dedup.value < ledger.prunedOffset())) {
    throw SandboxError.grpc(
      ErrorDefs.INVALID_DEDUPLICATION_PERIOD,
      `The submitted command had an invalid deduplication period: The deduplication offset ${dedup.value} is outside the ledger (pruned up to ${ledger.prunedOffset()}, ledger end ${ledgerEnd})`,
      { ...correlation, context: { earliest_offset: String(ledger.prunedOffset()) } },
    );
  }

  const actors = [...new Set(request.actAs)];
  const readers = new Set([...actors, ...readAs]);
  const consumed = new Set<ContractRecord>();
  let txSync: number | undefined = knownSync ? state.synchronizers.indexOf(knownSync) : undefined;
  const isKnownParty = (p: string) => state.parties.has(p);

  const lookupVisible = (contract: ContractRecord | undefined): contract is ContractRecord =>
    contract !== undefined &&
    contract.archivedOffset === 0 &&
    contract.unassignedIn === undefined &&
    !consumed.has(contract) &&
    contract.stakeholders.some((p) => readers.has(p));

  const checkSync = (contract: ContractRecord) => {
    if (txSync === undefined) txSync = contract.synchronizer;
    else if (txSync !== contract.synchronizer) {
      throw noSynchronizer(`contract ${ledger.ids.contractId(contract.createdOffset, contract.nodeId)} is assigned to synchronizer ${state.synchronizers[contract.synchronizer]?.id}`);
    }
  };

  const exercisePlan = (t: Transcoded, choice: string, choiceArgument: unknown): ExercisePlan => ({ choice, choiceArgument, resolved: t.choice as ResolvedChoice });

  const actions: Action[] = [];
  for (const t of transcoded) {
    const c = t.command;
    switch (c.kind) {
      case 'CreateCommand':
        actions.push({ kind: 'create', create: { template: (t.target as { template: TemplateInfo }).template, argument: c.value.createArguments } });
        break;
      case 'CreateAndExerciseCommand':
        actions.push({
          kind: 'create-and-exercise',
          create: { template: (t.target as { template: TemplateInfo }).template, argument: c.value.createArguments },
          exercise: exercisePlan(t, c.value.choice, c.value.choiceArgument),
        });
        break;
      case 'ExerciseCommand': {
        const contract = ledger.contract(c.value.contractId);
        if (!lookupVisible(contract)) throw requestErrors.contractNotFound(c.value.contractId, correlation);
        const ct = contract.template;
        const fits =
          t.target.kind === 'template'
            ? t.target.template.packageName === ct.packageName && t.target.template.qualifiedName === ct.qualifiedName
            : ct.interfaces.some((i) => i.filterKey === (t.target as { iface: InterfaceInfo }).iface.filterKey);
        if (!fits) {
          const expected = t.target.kind === 'template' ? t.target.template.templateId : t.target.iface.interfaceId;
          throw SandboxError.grpc(
            ErrorDefs.DAML_INTERPRETATION_ERROR,
            `Interpretation error: Error: contract ${c.value.contractId} has template ${ct.templateId}, which does not match ${expected}`,
            correlation,
          );
        }
        checkSync(contract);
        const plan = exercisePlan(t, c.value.choice, c.value.choiceArgument);
        if (plan.resolved.consuming) consumed.add(contract);
        actions.push({ kind: 'exercise', target: contract, exercise: plan });
        break;
      }
      case 'ExerciseByKeyCommand': {
        const template = (t.target as { template: TemplateInfo }).template;
        const key = contractKeyOf(template, c.value.contractKey).json as string;
        const contract = ledger.contractsByKey(template, key).find((k) => lookupVisible(k));
        if (!contract) {
          throw SandboxError.grpc(ErrorDefs.CONTRACT_KEY_NOT_FOUND, `Couldn't find key ${key} for template ${template.templateId}`, {
            ...correlation,
            resources: [['TEMPLATE_ID', template.templateId]],
          });
        }
        checkSync(contract);
        const plan = exercisePlan(t, c.value.choice, c.value.choiceArgument);
        if (plan.resolved.consuming) consumed.add(contract);
        actions.push({ kind: 'exercise', target: contract, exercise: plan });
        break;
      }
    }
  }
  const synchronizer = txSync ?? 0;
  const syncId = state.synchronizers[synchronizer]?.id as string;
  const vetted = state.vetting.vettedPackageIds(syncId);
  const unvetted = [
    ...new Set(
      actions.flatMap((a) => [a.kind === 'exercise' ? a.target.template : a.create.template]).filter((t) => !vetted.has(t.packageId)).map((t) => t.packageId),
    ),
  ];
  if (unvetted.length > 0) throw noSynchronizer(`packages not vetted on synchronizer ${syncId}: [${unvetted.join(', ')}]`);

  const changeId = changeIdKey(userId, actors, request.commandId);
  const previous = ledger.acceptedChange(changeId);
  if (previous) {
    const now = Date.now();
    const windowStartMs =
      dedup?.kind === 'DeduplicationDuration' ? now - dedup.value.seconds * 1000 - Math.floor(dedup.value.nanos / 1e6) : now - maxDeduplicationSeconds * 1000;
    const duplicate = dedup?.kind === 'DeduplicationOffset' ? previous.offset > dedup.value : previous.recordTimeMs >= windowStartMs;
    if (duplicate) {
      throw SandboxError.grpc(ErrorDefs.DUPLICATE_COMMAND, 'A command with the given command id has already been successfully processed', {
        ...correlation,
        context: { existing_submission_id: previous.submissionId, completion_offset: String(previous.offset) },
      });
    }
  }

  // Accepted: build the transaction at its offset and append it.
  const offset = ledger.allocateOffset();
  const nodes: NodeRecord[] = [];
  const created: string[] = [];
  const newContract = (plan: CreatePlan, signatories: readonly string[], parentWitnesses: readonly string[]): ContractRecord => {
    const observers = observersOf(plan.argument, isKnownParty, signatories);
    const stakeholders = unionParties(signatories, observers);
    const contract: ContractRecord = {
      kind: 'create',
      nodeId: nodes.length,
      createdOffset: offset,
      template: plan.template,
      argument: plan.argument,
      argumentJson: JSON.stringify(plan.argument),
      signatories,
      observers,
      stakeholders,
      witnesses: unionParties(stakeholders, parentWitnesses),
      key: contractKeyOf(plan.template, plan.argument).json,
      archivedOffset: 0,
      synchronizer,
      reassignmentCounter: 0,
      unassignedIn: undefined,
    };
    nodes.push(contract);
    created.push(ledger.ids.contractId(offset, contract.nodeId));
    return contract;
  };
  const exercise = (target: ContractRecord, plan: ExercisePlan) => {
    const informees = unionParties(plan.resolved.consuming ? target.stakeholders : target.signatories, actors);
    const nodeId = nodes.length;
    const placeholder = nodes.length;
    nodes.push(target); // reserved slot, replaced below once the descendants are known
    const arg = plan.choiceArgument;
    const newOwner = typeof arg === 'object' && arg !== null && !Array.isArray(arg) ? (arg as Record<string, unknown>)['newOwner'] : undefined;
    const targetArg = target.argument as Record<string, unknown>;
    if (plan.resolved.consuming && typeof newOwner === 'string' && isKnownParty(newOwner) && Object.prototype.hasOwnProperty.call(targetArg, 'owner')) {
      newContract({ template: target.template, argument: { ...targetArg, owner: newOwner } }, target.signatories, informees);
    }
    const node: ExerciseRecord = {
      kind: 'exercise',
      nodeId,
      target,
      interface: plan.resolved.iface,
      choice: plan.choice,
      choiceArgumentJson: JSON.stringify(plan.choiceArgument),
      actingParties: actors,
      consuming: plan.resolved.consuming,
      lastDescendantNodeId: nodes.length - 1,
      witnesses: informees,
    };
    nodes[placeholder] = node;
  };
  for (const a of actions) {
    if (a.kind === 'create') newContract(a.create, actors, []);
    else if (a.kind === 'exercise') exercise(a.target, a.exercise);
    else exercise(newContract(a.create, actors, []), a.exercise);
  }
  const submission: SubmissionRecord = {
    userId,
    actAs: actors,
    commandId: request.commandId,
    derivedCommandId: false,
    workflowId: request.workflowId ?? '',
    submissionId,
    traceparent: options.traceparent,
    tracestate: options.tracestate,
  };
  const recordTimeMs = ledger.nextRecordTime();
  ledger.append({ kind: 'transaction', offset, recordTimeMs, synchronizer, submission, nodes: nodes.slice() });
  ledger.recordChange(changeId, { offset, recordTimeMs, submissionId });
  return { updateId: ledger.ids.updateId(offset), offset, contractIds: created };
}
