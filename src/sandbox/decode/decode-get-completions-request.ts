import { array, decodeBody, type Decoder, int64, object, string, withDefault } from './decoders.js';

/** A decoded `GetCompletionsRequest` (protobuf: relaxed codec, proto defaults). */
export interface DecodedGetCompletionsRequest {
  readonly parties: readonly string[];
  readonly beginExclusive: number;
}

const request: Decoder<DecodedGetCompletionsRequest> = object({
  parties: withDefault(array(string), () => []),
  beginExclusive: withDefault(int64, () => 0),
});

/** Decodes the body (or request frame) of `/v2/commands/command-completions`; throws the decode failure. */
export function decodeGetCompletionsRequest(body: unknown): DecodedGetCompletionsRequest {
  return decodeBody(request, body);
}
