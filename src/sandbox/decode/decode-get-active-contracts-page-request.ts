import { base64Bytes } from './base64-bytes.js';
import { eventFormatDecoder, type DecodedEventFormat } from './decode-get-updates-request.js';
import { decodeBody, type Decoder, int32, int64, object, optional } from './decoders.js';

/** A decoded `GetActiveContractsPageRequest` (a protobuf type: relaxed codec; optional fields stay absent). */
export interface DecodedGetActiveContractsPageRequest {
  readonly activeAtOffset: number | undefined;
  readonly eventFormat: DecodedEventFormat | undefined;
  readonly maxPageSize: number | undefined;
  readonly pageToken: Uint8Array | undefined;
}

const request: Decoder<DecodedGetActiveContractsPageRequest> = object({
  activeAtOffset: optional(int64),
  eventFormat: optional(eventFormatDecoder),
  maxPageSize: optional(int32),
  pageToken: optional(base64Bytes),
});

/** Decodes the body of `GET /v2/state/active-contracts-page`; throws the decode failure. */
export function decodeGetActiveContractsPageRequest(body: unknown): DecodedGetActiveContractsPageRequest {
  return decodeBody(request, body);
}
