import { base64Bytes } from './base64-bytes.js';
import { type DecodedUpdateFormat, updateFormatDecoder } from './decode-get-updates-request.js';
import { decodeBody, type Decoder, object, optional, withDefault } from './decoders.js';

/** A decoded `GetUpdateByHashRequest` (relaxed codec: a missing hash is empty, a missing format absent). */
export interface DecodedUpdateByHashRequest {
  readonly transactionHash: Uint8Array;
  readonly updateFormat: DecodedUpdateFormat | undefined;
}

/** A decoded `GetCompletionByHashRequest`. */
export interface DecodedCompletionByHashRequest {
  readonly transactionHash: Uint8Array;
}

const noBytes = () => new Uint8Array(0);

const updateByHash: Decoder<DecodedUpdateByHashRequest> = object({
  transactionHash: withDefault(base64Bytes, noBytes),
  updateFormat: optional(updateFormatDecoder),
});

const completionByHash: Decoder<DecodedCompletionByHashRequest> = object({ transactionHash: withDefault(base64Bytes, noBytes) });

/** Decodes a `POST /v2/updates/update-by-hash` body (3.6); throws the 400 text/plain decode failure. */
export function decodeUpdateByHashRequest(body: unknown): DecodedUpdateByHashRequest {
  return decodeBody(updateByHash, body);
}

/** Decodes a `POST /v2/commands/completion-by-hash` body (3.6); throws the 400 text/plain decode failure. */
export function decodeCompletionByHashRequest(body: unknown): DecodedCompletionByHashRequest {
  return decodeBody(completionByHash, body);
}
