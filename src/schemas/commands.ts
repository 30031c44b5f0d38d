import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Duration, Empty } from './common.js';
import { EventFormat } from './filters.js';
import { DamlValue, Int32, Int64, Timestamp } from './primitives.js';
import { JsReassignment } from './updates.js';
import { variant, wrapped } from './variant.js';

/** `CreateCommand`: `templateId` as `#package-name:Mod:Ent` or `<package-id>:Mod:Ent`. */
export const CreateCommand = lazySchema(() => z.looseObject({
  templateId: z.string(),
  createArguments: built(DamlValue),
}));
export type CreateCommand = z.output<typeof CreateCommand>;

/** `ExerciseCommand`. */
export const ExerciseCommand = lazySchema(() => z.looseObject({
  templateId: z.string(),
  contractId: z.string(),
  choice: z.string(),
  choiceArgument: built(DamlValue),
}));
export type ExerciseCommand = z.output<typeof ExerciseCommand>;

/** `ExerciseByKeyCommand`. */
export const ExerciseByKeyCommand = lazySchema(() => z.looseObject({
  templateId: z.string(),
  contractKey: built(DamlValue),
  choice: z.string(),
  choiceArgument: built(DamlValue),
}));
export type ExerciseByKeyCommand = z.output<typeof ExerciseByKeyCommand>;

/** `CreateAndExerciseCommand`. */
export const CreateAndExerciseCommand = lazySchema(() => z.looseObject({
  templateId: z.string(),
  createArguments: built(DamlValue),
  choice: z.string(),
  choiceArgument: built(DamlValue),
}));
export type CreateAndExerciseCommand = z.output<typeof CreateAndExerciseCommand>;

/** `Command`: the fields sit directly under the alternative's name (no `"value"`). */
export const Command = lazySchema(() => variant(
  'Command',
  { CreateAndExerciseCommand: built(CreateAndExerciseCommand), CreateCommand: built(CreateCommand), ExerciseByKeyCommand: built(ExerciseByKeyCommand), ExerciseCommand: built(ExerciseCommand) },
  { open: false },
));
export type Command = z.input<typeof Command>;

/** The alternatives of `DeduplicationPeriod`. */
export const deduplicationPeriodCases = {
  DeduplicationDuration: lazySchema(() => wrapped(built(Duration))),
  DeduplicationOffset: lazySchema(() => wrapped(built(Int64))),
  Empty,
};

/** `DeduplicationPeriod`: a duration, an offset, or `Empty` (the participant's maximum). */
export const DeduplicationPeriod = lazySchema(() => variant('DeduplicationPeriod', deduplicationPeriodCases, { open: false }));
export type DeduplicationPeriod = z.input<typeof DeduplicationPeriod>;

/** `DisclosedContract`. */
export const DisclosedContract = lazySchema(() => z.looseObject({
  templateId: z.string().nullish(),
  contractId: z.string().nullish(),
  createdEventBlob: z.string(),
  synchronizerId: z.string().nullish(),
}));
export type DisclosedContract = z.input<typeof DisclosedContract>;

/** `PrefetchContractKey`. */
export const PrefetchContractKey = lazySchema(() => z.looseObject({
  templateId: z.string(),
  contractKey: built(DamlValue),
  limit: built(Int32).nullish(),
}));
export type PrefetchContractKey = z.input<typeof PrefetchContractKey>;

/**
 * `JsCommands`: the body of `POST /v2/commands/async/submit`. The change id is (`userId`, the `actAs` set,
 * `commandId`).
 */
export const JsCommands = lazySchema(() => z.looseObject({
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
export type JsCommands = z.input<typeof JsCommands>;

/** `SubmitResponse`: `{}`; it only means "accepted for processing". */
export const SubmitResponse = lazySchema(() => z.looseObject({}));
export type SubmitResponse = z.output<typeof SubmitResponse>;

/** `AssignCommand` (payload). */
export const AssignCommand = lazySchema(() => z.looseObject({
  reassignmentId: z.string(),
  source: z.string(),
  target: z.string(),
}));
export type AssignCommand = z.input<typeof AssignCommand>;

/** `UnassignCommand` (payload). */
export const UnassignCommand = lazySchema(() => z.looseObject({
  contractId: z.string(),
  source: z.string(),
  target: z.string(),
}));
export type UnassignCommand = z.input<typeof UnassignCommand>;

/** The alternatives of the reassignment `Command` oneof (`Command1` in the spec). */
export const reassignmentCommandCases = {
  AssignCommand: lazySchema(() => wrapped(built(AssignCommand))),
  Empty,
  UnassignCommand: lazySchema(() => wrapped(built(UnassignCommand))),
};

/** The reassignment command oneof: `AssignCommand`, `UnassignCommand` or `Empty`. */
export const ReassignmentCommandVariant = lazySchema(() => variant('Command', reassignmentCommandCases, { open: false }));
export type ReassignmentCommandVariant = z.input<typeof ReassignmentCommandVariant>;

/** `ReassignmentCommand`. */
export const ReassignmentCommand = lazySchema(() => z.looseObject({
  command: built(ReassignmentCommandVariant).nullish(),
}));
export type ReassignmentCommand = z.input<typeof ReassignmentCommand>;

/** `ReassignmentCommands`. */
export const ReassignmentCommands = lazySchema(() => z.looseObject({
  workflowId: z.string().nullish(),
  userId: z.string().nullish(),
  commandId: z.string(),
  submitter: z.string(),
  submissionId: z.string().nullish(),
  commands: z.array(built(ReassignmentCommand)),
}));
export type ReassignmentCommands = z.input<typeof ReassignmentCommands>;

/** `SubmitAndWaitForReassignmentRequest`. Without `eventFormat` the response has no events. */
export const SubmitAndWaitForReassignmentRequest = lazySchema(() => z.looseObject({
  reassignmentCommands: built(ReassignmentCommands),
  eventFormat: built(EventFormat).nullish(),
}));
export type SubmitAndWaitForReassignmentRequest = z.input<typeof SubmitAndWaitForReassignmentRequest>;

/** `JsSubmitAndWaitForReassignmentResponse`. */
export const JsSubmitAndWaitForReassignmentResponse = lazySchema(() => z.looseObject({
  reassignment: built(JsReassignment),
}));
export type JsSubmitAndWaitForReassignmentResponse = z.output<typeof JsSubmitAndWaitForReassignmentResponse>;
