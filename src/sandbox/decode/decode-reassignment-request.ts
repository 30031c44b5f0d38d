import { array, type Decoder, decodeBody, empty, object, optional, string, variant, withDefault, wrapped } from './decoders.js';
import { eventFormatDecoder, type DecodedEventFormat } from './decode-get-updates-request.js';

/** A decoded reassignment command. */
export type DecodedReassignmentCommand =
  | { readonly kind: 'Empty'; readonly value: Record<string, never> }
  | { readonly kind: 'AssignCommand'; readonly value: { readonly reassignmentId: string; readonly source: string; readonly target: string } }
  | { readonly kind: 'UnassignCommand'; readonly value: { readonly contractId: string; readonly source: string; readonly target: string } };

/** A decoded `SubmitAndWaitForReassignmentRequest` (a protobuf type: relaxed codec, proto defaults). */
export interface DecodedReassignmentRequest {
  readonly reassignmentCommands:
    | {
        readonly workflowId: string;
        readonly userId: string;
        readonly commandId: string;
        readonly submitter: string;
        readonly submissionId: string;
        readonly commands: readonly { readonly command: DecodedReassignmentCommand }[];
      }
    | undefined;
  readonly eventFormat: DecodedEventFormat | undefined;
}

const text = withDefault(string, () => '');

const command = variant('Command', {
  AssignCommand: wrapped(object({ reassignmentId: text, source: text, target: text })),
  UnassignCommand: wrapped(object({ contractId: text, source: text, target: text })),
  Empty: empty,
});

const request: Decoder<DecodedReassignmentRequest> = object({
  reassignmentCommands: optional(
    object({
      workflowId: text,
      userId: text,
      commandId: text,
      submitter: text,
      submissionId: text,
      commands: withDefault(array(object({ command: withDefault(command, () => ({ kind: 'Empty' as const, value: {} })) })), () => []),
    }),
  ),
  eventFormat: optional(eventFormatDecoder),
});

/** Decodes a `POST /v2/commands/submit-and-wait-for-reassignment` body; throws the 400 text/plain decode failure. */
export function decodeReassignmentRequest(body: unknown): DecodedReassignmentRequest {
  return decodeBody(request, body);
}
