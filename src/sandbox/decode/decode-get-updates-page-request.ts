import { base64Bytes } from './base64-bytes.js';
import { type DecodedUpdateFormat, updateFormatDecoder } from './decode-get-updates-request.js';
import { boolean, decodeBody, type Decoder, int32, int64, object, optional, withDefault } from './decoders.js';

/** A decoded `GetUpdatesPageRequest` (a protobuf type: relaxed codec; its optional fields stay absent). */
export interface DecodedGetUpdatesPageRequest {
  readonly beginOffsetExclusive: number | undefined;
  readonly endOffsetInclusive: number | undefined;
  readonly maxPageSize: number | undefined;
  readonly updateFormat: DecodedUpdateFormat | undefined;
  readonly descendingOrder: boolean;
  readonly pageToken: Uint8Array | undefined;
}

const request: Decoder<DecodedGetUpdatesPageRequest> = object({
  beginOffsetExclusive: optional(int64),
  endOffsetInclusive: optional(int64),
  maxPageSize: optional(int32),
  updateFormat: optional(updateFormatDecoder),
  descendingOrder: withDefault(boolean, () => false),
  pageToken: optional(base64Bytes),
});

/** Decodes a `POST /v2/updates/get-updates-page` body; throws the 400 text/plain decode failure. */
export function decodeGetUpdatesPageRequest(body: unknown): DecodedGetUpdatesPageRequest {
  return decodeBody(request, body);
}
