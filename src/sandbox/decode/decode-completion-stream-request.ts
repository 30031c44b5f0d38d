import { array, decodeBody, type Decoder, int64, object, string, withDefault } from './decoders.js';

/** A decoded `CompletionStreamRequest` (protobuf: relaxed codec, proto defaults). */
export interface DecodedCompletionStreamRequest {
  readonly userId: string;
  readonly parties: readonly string[];
  readonly beginExclusive: number;
}

const request: Decoder<DecodedCompletionStreamRequest> = object({
  userId: withDefault(string, () => ''),
  parties: withDefault(array(string), () => []),
  beginExclusive: withDefault(int64, () => 0),
});

/** Decodes the body (or request frame) of `/v2/commands/completions`; throws the decode failure. */
export function decodeCompletionStreamRequest(body: unknown): DecodedCompletionStreamRequest {
  return decodeBody(request, body);
}
