import { base64Bytes } from './base64-bytes.js';
import { eventFormatDecoder, transactionFilterDecoder, type DecodedEventFormat, type DecodedGetUpdatesRequest } from './decode-get-updates-request.js';
import { boolean, decodeBody, type Decoder, int64, object, optional, withDefault } from './decoders.js';

/** A decoded `GetActiveContractsRequest` (the JSON layer's legacy DTO, relaxed codec). */
export interface DecodedGetActiveContractsRequest {
  readonly filter: DecodedGetUpdatesRequest['filter'];
  readonly verbose: boolean;
  /** 0 when absent: the empty set. */
  readonly activeAtOffset: number;
  readonly eventFormat: DecodedEventFormat | undefined;
  readonly streamContinuationToken: Uint8Array | undefined;
}

const request: Decoder<DecodedGetActiveContractsRequest> = object({
  filter: optional(transactionFilterDecoder),
  verbose: withDefault(boolean, () => false),
  activeAtOffset: withDefault(int64, () => 0),
  eventFormat: optional(eventFormatDecoder),
  streamContinuationToken: optional(base64Bytes),
});

/** Decodes the body (or request frame) of `/v2/state/active-contracts`; throws the decode failure. */
export function decodeGetActiveContractsRequest(body: unknown): DecodedGetActiveContractsRequest {
  return decodeBody(request, body);
}
