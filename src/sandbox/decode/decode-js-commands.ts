import { array, type Decoder, decodeBody, empty, int32, int64, json, object, optional, string, timestamp, variant, withDefault, wrapped } from './decoders.js';
import { identifierString } from './decode-get-updates-request.js';

/** A decoded `Duration`. */
export interface DecodedDuration {
  readonly seconds: number;
  readonly nanos: number;
}

/** A decoded Daml command. */
export type DecodedCommand =
  | { readonly kind: 'CreateCommand'; readonly value: { readonly templateId: string; readonly createArguments: unknown } }
  | { readonly kind: 'ExerciseCommand'; readonly value: { readonly templateId: string; readonly contractId: string; readonly choice: string; readonly choiceArgument: unknown } }
  | {
      readonly kind: 'CreateAndExerciseCommand';
      readonly value: { readonly templateId: string; readonly createArguments: unknown; readonly choice: string; readonly choiceArgument: unknown };
    }
  | {
      readonly kind: 'ExerciseByKeyCommand';
      readonly value: { readonly templateId: string; readonly contractKey: unknown; readonly choice: string; readonly choiceArgument: unknown };
    };

/** A decoded deduplication period. */
export type DecodedDeduplicationPeriod =
  | { readonly kind: 'DeduplicationDuration'; readonly value: DecodedDuration }
  | { readonly kind: 'DeduplicationOffset'; readonly value: number }
  | { readonly kind: 'Empty'; readonly value: Record<string, never> };

/** A decoded `JsCommands`. */
export interface DecodedJsCommands {
  readonly commands: readonly DecodedCommand[];
  readonly commandId: string;
  readonly actAs: readonly string[];
  readonly userId: string | undefined;
  readonly readAs: readonly string[] | undefined;
  readonly workflowId: string | undefined;
  readonly deduplicationPeriod: DecodedDeduplicationPeriod | undefined;
  readonly minLedgerTimeAbs: string | undefined;
  readonly minLedgerTimeRel: DecodedDuration | undefined;
  readonly submissionId: string | undefined;
  readonly disclosedContracts: readonly unknown[] | undefined;
  readonly synchronizerId: string | undefined;
  readonly packageIdSelectionPreference: readonly string[] | undefined;
  readonly prefetchContractKeys: readonly { readonly templateId: string; readonly contractKey: unknown; readonly limit: number | undefined }[] | undefined;
  readonly tapsMaxPasses: number | undefined;
}

/** A protobuf `Duration` object (`unknownFields` optional on input). */
export const durationDecoder: Decoder<DecodedDuration> = object({
  seconds: withDefault(int64, () => 0),
  nanos: withDefault(int32, () => 0),
});

const command = variant('Command', {
  CreateCommand: object({ templateId: identifierString, createArguments: json }),
  ExerciseCommand: object({ templateId: identifierString, contractId: string, choice: string, choiceArgument: json }),
  CreateAndExerciseCommand: object({ templateId: identifierString, createArguments: json, choice: string, choiceArgument: json }),
  ExerciseByKeyCommand: object({ templateId: identifierString, contractKey: json, choice: string, choiceArgument: json }),
});

const jsCommands: Decoder<DecodedJsCommands> = object({
  // The JS mirror type has no defaults for these three: they are required at the JSON level.
  commands: array(command),
  commandId: string,
  actAs: array(string),
  userId: optional(string),
  readAs: optional(array(string)),
  workflowId: optional(string),
  deduplicationPeriod: optional(
    variant('DeduplicationPeriod', {
      DeduplicationDuration: wrapped(durationDecoder),
      DeduplicationOffset: wrapped(int64),
      Empty: empty,
    }),
  ),
  minLedgerTimeAbs: optional(timestamp),
  minLedgerTimeRel: optional(durationDecoder),
  submissionId: optional(string),
  disclosedContracts: optional(array(json)),
  synchronizerId: optional(string),
  packageIdSelectionPreference: optional(array(string)),
  prefetchContractKeys: optional(array(object({ templateId: identifierString, contractKey: json, limit: optional(int32) }))),
  tapsMaxPasses: optional(int32),
});

/** Decodes a `POST /v2/commands/async/submit` body; throws the 400 text/plain decode failure. */
export function decodeJsCommands(body: unknown): DecodedJsCommands {
  return decodeBody(jsCommands, body);
}
