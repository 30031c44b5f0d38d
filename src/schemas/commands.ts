import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { wireSchema, type WireSchema } from './wire-schema.js';
import { Duration, Empty } from './common.js';
import { EventFormat } from './filters.js';
import { DamlValue, Int32, Int64, Timestamp } from './primitives.js';
import { JsReassignment } from './updates.js';
import { variant, wrapped } from './variant.js';

/** `CreateCommand`: `templateId` as `#package-name:Mod:Ent` or `<package-id>:Mod:Ent`. */
export const CreateCommand: WireSchema<CreateCommand> = wireSchema(() => z.looseObject({
  templateId: z.string(),
  createArguments: built(DamlValue),
}));

/** `ExerciseCommand`. */
export const ExerciseCommand: WireSchema<ExerciseCommand> = wireSchema(() => z.looseObject({
  templateId: z.string(),
  contractId: z.string(),
  choice: z.string(),
  choiceArgument: built(DamlValue),
}));

/** `ExerciseByKeyCommand`. */
export const ExerciseByKeyCommand: WireSchema<ExerciseByKeyCommand> = wireSchema(() => z.looseObject({
  templateId: z.string(),
  contractKey: built(DamlValue),
  choice: z.string(),
  choiceArgument: built(DamlValue),
}));

/** `CreateAndExerciseCommand`. */
export const CreateAndExerciseCommand: WireSchema<CreateAndExerciseCommand> = wireSchema(() => z.looseObject({
  templateId: z.string(),
  createArguments: built(DamlValue),
  choice: z.string(),
  choiceArgument: built(DamlValue),
}));

/** `Command`: the fields sit directly under the alternative's name (no `"value"`). */
export const Command: WireSchema<Command> = wireSchema(() => variant(
  'Command',
  { CreateAndExerciseCommand: built(CreateAndExerciseCommand), CreateCommand: built(CreateCommand), ExerciseByKeyCommand: built(ExerciseByKeyCommand), ExerciseCommand: built(ExerciseCommand) },
  { open: false },
));

/** The alternatives of `DeduplicationPeriod`. */
export const deduplicationPeriodCases = {
  DeduplicationDuration: lazySchema(() => wrapped(built(Duration))),
  DeduplicationOffset: lazySchema(() => wrapped(built(Int64))),
  Empty,
};

/** `DeduplicationPeriod`: a duration, an offset, or `Empty` (the participant's maximum). */
export const DeduplicationPeriod: WireSchema<DeduplicationPeriod> = wireSchema(() => variant('DeduplicationPeriod', deduplicationPeriodCases, { open: false }));

/** `DisclosedContract`. */
export const DisclosedContract: WireSchema<DisclosedContract> = wireSchema(() => z.looseObject({
  templateId: z.string().nullish(),
  contractId: z.string().nullish(),
  createdEventBlob: z.string(),
  synchronizerId: z.string().nullish(),
}));

/** `PrefetchContractKey`. */
export const PrefetchContractKey: WireSchema<PrefetchContractKey> = wireSchema(() => z.looseObject({
  templateId: z.string(),
  contractKey: built(DamlValue),
  limit: built(Int32).nullish(),
}));

/**
 * `JsCommands`: the body of `POST /v2/commands/async/submit`. The change id is (`userId`, the `actAs` set,
 * `commandId`).
 */
export const JsCommands: WireSchema<JsCommands> = wireSchema(() => z.looseObject({
  commands: z.array(built(Command)),
  commandId: z.string(),
  actAs: z.array(z.string()),
  userId: z.string().nullish(),
  readAs: z.array(z.string()).nullish(),
  workflowId: z.string().nullish(),
  deduplicationPeriod: built(DeduplicationPeriod).nullish(),
  minLedgerTimeAbs: built(Timestamp).nullish(),
  minLedgerTimeRel: built(Duration).nullish(),
  submissionId: z.string().nullish(),
  disclosedContracts: z.array(built(DisclosedContract)).nullish(),
  synchronizerId: z.string().nullish(),
  packageIdSelectionPreference: z.array(z.string()).nullish(),
  prefetchContractKeys: z.array(built(PrefetchContractKey)).nullish(),
  tapsMaxPasses: built(Int32).nullish(),
}));

/** `SubmitResponse`: `{}`; it only means "accepted for processing". */
export const SubmitResponse: WireSchema<SubmitResponse> = wireSchema(() => z.looseObject({}));

/** `AssignCommand` (payload). */
export const AssignCommand: WireSchema<AssignCommand> = wireSchema(() => z.looseObject({
  reassignmentId: z.string(),
  source: z.string(),
  target: z.string(),
}));

/** `UnassignCommand` (payload). */
export const UnassignCommand: WireSchema<UnassignCommand> = wireSchema(() => z.looseObject({
  contractId: z.string(),
  source: z.string(),
  target: z.string(),
}));

/** The alternatives of the reassignment `Command` oneof (`Command1` in the spec). */
export const reassignmentCommandCases = {
  AssignCommand: lazySchema(() => wrapped(built(AssignCommand))),
  Empty,
  UnassignCommand: lazySchema(() => wrapped(built(UnassignCommand))),
};

/** The reassignment command oneof: `AssignCommand`, `UnassignCommand` or `Empty`. */
export const ReassignmentCommandVariant: WireSchema<ReassignmentCommandVariant> = wireSchema(() => variant('Command', reassignmentCommandCases, { open: false }));

/** `ReassignmentCommand`. */
export const ReassignmentCommand: WireSchema<ReassignmentCommand> = wireSchema(() => z.looseObject({
  command: built(ReassignmentCommandVariant).nullish(),
}));

/** `ReassignmentCommands`. */
export const ReassignmentCommands: WireSchema<ReassignmentCommands> = wireSchema(() => z.looseObject({
  workflowId: z.string().nullish(),
  userId: z.string().nullish(),
  commandId: z.string(),
  submitter: z.string(),
  submissionId: z.string().nullish(),
  commands: z.array(built(ReassignmentCommand)),
}));

/** `SubmitAndWaitForReassignmentRequest`. Without `eventFormat` the response has no events. */
export const SubmitAndWaitForReassignmentRequest: WireSchema<SubmitAndWaitForReassignmentRequest> = wireSchema(() => z.looseObject({
  reassignmentCommands: built(ReassignmentCommands),
  eventFormat: built(EventFormat).nullish(),
}));

/** `JsSubmitAndWaitForReassignmentResponse`. */
export const JsSubmitAndWaitForReassignmentResponse: WireSchema<JsSubmitAndWaitForReassignmentResponse> = wireSchema(() => z.looseObject({
  reassignment: built(JsReassignment),
}));

// ---- The wire types of this file, generated by scripts/generate-wire-types.mjs from the spec (docs/wire-types.md): do not edit below. ----

import type { JsonValue } from './primitives.js';

/**
 * Create a new contract instance based on a template.
 */
export interface CreateCommand {
  /**
   * The template of contract the client wants to create.
   * Both package-name and package-id reference identifier formats for the template-id are supported.
   * Note: The package-id reference identifier format is deprecated. We plan to end support for this format in version 3.4.
   */
  templateId: string;
  /**
   * The arguments required for creating a contract from this template.
   */
  createArguments: JsonValue;
}

/**
 * Exercise a choice on an existing contract.
 */
export interface ExerciseCommand {
  /**
   * The template or interface of the contract the client wants to exercise.
   * Both package-name and package-id reference identifier formats for the template-id are supported.
   * Note: The package-id reference identifier format is deprecated. We plan to end support for this format in version 3.4.
   * To exercise a choice on an interface, specify the interface identifier in the template_id field.
   */
  templateId: string;
  /**
   * The ID of the contract the client wants to exercise upon.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  contractId: string;
  /**
   * The name of the choice the client wants to exercise.
   * Must be a valid NameString (as described in `value.proto`)
   */
  choice: string;
  /**
   * The argument for this choice.
   */
  choiceArgument: JsonValue;
}

/**
 * Exercise a choice on an existing contract specified by its key.
 */
export interface ExerciseByKeyCommand {
  /**
   * The template of contract the client wants to exercise.
   * Both package-name and package-id reference identifier formats for the template-id are supported.
   * Note: The package-id reference identifier format is deprecated. We plan to end support for this format in version 3.4.
   */
  templateId: string;
  /**
   * The key of the contract the client wants to exercise upon.
   */
  contractKey: JsonValue;
  /**
   * The name of the choice the client wants to exercise.
   * Must be a valid NameString (as described in `value.proto`)
   */
  choice: string;
  /**
   * The argument for this choice.
   */
  choiceArgument: JsonValue;
}

/**
 * Create a contract and exercise a choice on it in the same transaction.
 */
export interface CreateAndExerciseCommand {
  /**
   * The template of the contract the client wants to create.
   * Both package-name and package-id reference identifier formats for the template-id are supported.
   * Note: The package-id reference identifier format is deprecated. We plan to end support for this format in version 3.4.
   */
  templateId: string;
  /**
   * The arguments required for creating a contract from this template.
   */
  createArguments: JsonValue;
  /**
   * The name of the choice the client wants to exercise.
   * Must be a valid NameString (as described in `value.proto`).
   */
  choice: string;
  /**
   * The argument for this choice.
   */
  choiceArgument: JsonValue;
}

/**
 * A command can either create a new contract or exercise a choice on an existing contract.
 *
 * One command of a submission; the fields sit directly under the alternative's name.
 */
export type Command =
  | { CreateAndExerciseCommand: CreateAndExerciseCommand }
  | { CreateCommand: CreateCommand }
  | { ExerciseByKeyCommand: ExerciseByKeyCommand }
  | { ExerciseCommand: ExerciseCommand };

/**
 * Specifies the deduplication period for the change ID.
 * If omitted, the participant will assume the configured maximum deduplication time.
 *
 * The deduplication period of a submission: a duration, an offset, or `Empty` (the participant's maximum).
 */
export type DeduplicationPeriod =
  | { DeduplicationDuration: { value: Duration } }
  | { DeduplicationOffset: { value: number } }
  | { Empty: Empty };

/**
 * An additional contract that is used to resolve
 * contract & contract key lookups.
 */
export interface DisclosedContract {
  /**
   * The template id of the contract.
   * The identifier uses the package-id reference format.
   *
   * If provided, used to validate the template id of the contract serialized in the created_event_blob.
   */
  templateId?: string | null | undefined;
  /**
   * The contract id
   *
   * If provided, used to validate the contract id of the contract serialized in the created_event_blob.
   */
  contractId?: string | null | undefined;
  /**
   * Opaque byte string containing the complete payload required by the Daml engine
   * to reconstruct a contract not known to the receiving participant.
   *
   * Required: must be non-empty
   */
  createdEventBlob: string;
  /**
   * The ID of the synchronizer where the contract is currently assigned
   */
  synchronizerId?: string | null | undefined;
}

/**
 * Preload contracts
 */
export interface PrefetchContractKey {
  /**
   * The template of contract the client wants to prefetch.
   * Both package-name and package-id reference identifier formats for the template-id are supported.
   * Note: The package-id reference identifier format is deprecated. We plan to end support for this format in version 3.4.
   */
  templateId: string;
  /**
   * The key of the contract the client wants to prefetch.
   */
  contractKey: JsonValue;
  /**
   * The number of contracts to prefetch for this key, if available.
   * This is in addition to disclosed contracts.
   * - for backward compatibility reason, absence is interpreted as 1
   * - 0 is forbidden
   * - capped at 2^31 - 1. The system may impose further limits.
   *
   * Not in the 3.4 spec.
   */
  limit?: number | null | undefined;
}

/**
 * A composite command that groups multiple commands together.
 *
 * The body of `POST /v2/commands/async/submit` (and of the submit-and-wait calls). The change id is (`userId`, the `actAs` set, `commandId`).
 */
export interface JsCommands {
  /**
   * Individual elements of this atomic command. Must be non-empty.
   *
   * Required: must be non-empty
   */
  commands: Command[];
  /**
   * Uniquely identifies the command.
   * The triple (user_id, act_as, command_id) constitutes the change ID for the intended ledger change,
   * where act_as is interpreted as a set of party names.
   * The change ID can be used for matching the intended ledger changes with all their completions.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  commandId: string;
  /**
   * Set of parties on whose behalf the command should be executed.
   * If ledger API authorization is enabled, then the authorization metadata must authorize the sender of the request
   * to act on behalf of each of the given parties.
   * Each element must be a valid PartyIdString (as described in `value.proto`).
   *
   * Required: must be non-empty
   */
  actAs: string[];
  /**
   * Uniquely identifies the participant user that issued the command.
   * Must be a valid UserIdString (as described in `value.proto`).
   * Required unless authentication is used with a user token.
   * In that case, the token's user-id will be used for the request's user_id.
   */
  userId?: string | null | undefined;
  /**
   * Set of parties on whose behalf (in addition to all parties listed in `act_as`) contracts can be retrieved.
   * This affects Daml operations such as `fetch`, `fetchByKey`, `lookupByKey`, `exercise`, and `exerciseByKey`.
   * Note: A participant node of a Daml network can host multiple parties. Each contract present on the participant
   * node is only visible to a subset of these parties. A command can only use contracts that are visible to at least
   * one of the parties in `act_as` or `read_as`. This visibility check is independent from the Daml authorization
   * rules for fetch operations.
   * If ledger API authorization is enabled, then the authorization metadata must authorize the sender of the request
   * to read contract data on behalf of each of the given parties.
   *
   * Optional: can be empty
   */
  readAs?: string[] | null | undefined;
  /**
   * Identifier of the on-ledger workflow that this command is a part of.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  workflowId?: string | null | undefined;
  deduplicationPeriod?: DeduplicationPeriod | null | undefined;
  /**
   * Lower bound for the ledger time assigned to the resulting transaction.
   * Note: The ledger time of a transaction is assigned as part of command interpretation.
   * Use this property if you expect that command interpretation will take a considerate amount of time, such that by
   * the time the resulting transaction is sequenced, its assigned ledger time is not valid anymore.
   * Must not be set at the same time as min_ledger_time_rel.
   */
  minLedgerTimeAbs?: string | null | undefined;
  /**
   * Same as min_ledger_time_abs, but specified as a duration, starting from the time the command is received by the server.
   * Must not be set at the same time as min_ledger_time_abs.
   */
  minLedgerTimeRel?: Duration | null | undefined;
  /**
   * A unique identifier to distinguish completions for different submissions with the same change ID.
   * Typically a random UUID. Applications are expected to use a different UUID for each retry of a submission
   * with the same change ID.
   * Must be a valid LedgerString (as described in `value.proto`).
   *
   * If omitted, the participant or the committer may set a value of their choice.
   */
  submissionId?: string | null | undefined;
  /**
   * Additional contracts used to resolve contract & contract key lookups.
   *
   * Optional: can be empty
   */
  disclosedContracts?: DisclosedContract[] | null | undefined;
  /**
   * Must be a valid synchronizer id
   */
  synchronizerId?: string | null | undefined;
  /**
   * The package-id selection preference of the client for resolving
   * package names and interface instances in command submission and interpretation
   *
   * Optional: can be empty
   */
  packageIdSelectionPreference?: string[] | null | undefined;
  /**
   * Fetches the contract keys into the caches to speed up the command processing.
   * Each entry specifies a key and a limit on how many contracts to prefetch for that key.
   * The limit does not count disclosed contracts, and should reflect the number of
   * additional contracts expected to be resolved during interpretation of the commands.
   * If a key appears multiple times, the last entry's limit wins.
   *
   * Optional: can be empty
   */
  prefetchContractKeys?: PrefetchContractKey[] | null | undefined;
  /**
   * The maximum number of passes for the Topology-Aware Package Selection (TAPS).
   * Higher values can increase the chance of successful package selection for routing of interpreted transactions.
   * If unset, this defaults to the value defined in the participant configuration.
   * The provided value must not exceed the limit specified in the participant configuration.
   */
  tapsMaxPasses?: number | null | undefined;
}

/**
 * `{}`: the submission was accepted for processing, nothing more.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an empty message: {}
export interface SubmitResponse {}

/**
 * Assign a contract
 */
export interface AssignCommand {
  /**
   * The ID from the unassigned event to be completed by this assignment.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  reassignmentId: string;
  /**
   * The ID of the source synchronizer
   * Must be a valid synchronizer id
   */
  source: string;
  /**
   * The ID of the target synchronizer
   * Must be a valid synchronizer id
   */
  target: string;
}

/**
 * Unassign a contract
 */
export interface UnassignCommand {
  /**
   * The ID of the contract the client wants to unassign.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  contractId: string;
  /**
   * The ID of the source synchronizer
   * Must be a valid synchronizer id
   */
  source: string;
  /**
   * The ID of the target synchronizer
   * Must be a valid synchronizer id
   */
  target: string;
}

/**
 * A command can either create a new contract or exercise a choice on an existing contract.
 *
 * The command of a `ReassignmentCommand`: `AssignCommand`, `UnassignCommand` or `Empty` (`Command1` in the spec).
 */
export type ReassignmentCommandVariant =
  | { AssignCommand: { value: AssignCommand } }
  | { Empty: Empty }
  | { UnassignCommand: { value: UnassignCommand } };

export interface ReassignmentCommand {
  command?: ReassignmentCommandVariant | null | undefined;
}

export interface ReassignmentCommands {
  /**
   * Identifier of the on-ledger workflow that this command is a part of.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  workflowId?: string | null | undefined;
  /**
   * Uniquely identifies the participant user that issued the command.
   * Must be a valid UserIdString (as described in `value.proto`).
   * Required unless authentication is used with a user token.
   * In that case, the token's user-id will be used for the request's user_id.
   */
  userId?: string | null | undefined;
  /**
   * Uniquely identifies the command.
   * The triple (user_id, submitter, command_id) constitutes the change ID for the intended ledger change.
   * The change ID can be used for matching the intended ledger changes with all their completions.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  commandId: string;
  /**
   * Party on whose behalf the command should be executed.
   * If ledger API authorization is enabled, then the authorization metadata must authorize the sender of the request
   * to act on behalf of the given party.
   * Must be a valid PartyIdString (as described in `value.proto`).
   */
  submitter: string;
  /**
   * A unique identifier to distinguish completions for different submissions with the same change ID.
   * Typically a random UUID. Applications are expected to use a different UUID for each retry of a submission
   * with the same change ID.
   * Must be a valid LedgerString (as described in `value.proto`).
   *
   * If omitted, the participant or the committer may set a value of their choice.
   */
  submissionId?: string | null | undefined;
  /**
   * Individual elements of this reassignment. Must be non-empty.
   *
   * Required: must be non-empty
   */
  commands: ReassignmentCommand[];
}

/**
 * This reassignment is executed as a single atomic update.
 *
 * Without `eventFormat` the response has no events.
 */
export interface SubmitAndWaitForReassignmentRequest {
  /**
   * The reassignment commands to be submitted.
   */
  reassignmentCommands: ReassignmentCommands;
  /**
   * If no event_format provided, the result will contain no events.
   * The events in the result, will take shape TRANSACTION_SHAPE_ACS_DELTA.
   */
  eventFormat?: EventFormat | null | undefined;
}

export interface JsSubmitAndWaitForReassignmentResponse {
  /**
   * The reassignment that resulted from the submitted reassignment command.
   * The reassignment might contain no events (request conditions result in filtering out all of them).
   */
  reassignment: JsReassignment;
}
