import { createHash } from 'node:crypto';
import type { DecodedGetUpdatesPageRequest } from '../decode/decode-get-updates-page-request.js';
import { protobufWire } from '../decode/protobuf-wire.js';
import { canonicalJson } from './canonical-json.js';

/** The contents of an updates page token (the server's `UpdatesPageToken` message). */
export interface UpdatesPageToken {
  /** The page's lower bound (0 = none). */
  readonly lowestPageOffsetExclusive: number;
  /** The page's upper bound (0 = none). */
  readonly highestPageOffsetInclusive: number;
  /** The token format version; the server's is 1. */
  readonly version: number;
  /** 4 bytes identifying the participant that issued it. */
  readonly participantChecksum: Uint8Array;
  /** 4 bytes identifying the request parameters it belongs to. */
  readonly requestChecksum: Uint8Array;
}

/** The token version this sandbox issues and accepts. */
export const updatesPageTokenVersion = 1;

function checksum(...parts: readonly string[]): Uint8Array {
  const hash = createHash('sha256').update('UpdatesPageToken');
  for (const p of parts) hash.update('\u0000').update(p);
  return new Uint8Array(hash.digest().subarray(0, 4));
}

/** JSON with object keys sorted, so that two requests that mean the same produce the same text. */

/**
 * The opaque page token of `POST /v2/updates/get-updates-page`, laid out like the server's
 * (`UpdatesPageToken.scala`, `page_tokens.proto`): a protobuf message with the page bounds, a version and two
 * 4-byte checksums — of the participant id, and of the request's `beginOffsetExclusive`,
 * `endOffsetInclusive`, `maxPageSize`, `updateFormat` and `descendingOrder` — so that a token replayed
 * with other parameters or against another participant is recognised. In JSON it is Base64.
 */
export const updatesPageToken = {
  encode(token: UpdatesPageToken): string {
    return protobufWire
      .encode([
        [1, token.lowestPageOffsetExclusive],
        [2, token.highestPageOffsetInclusive],
        [3, token.version],
        [4, token.participantChecksum],
        [5, token.requestChecksum],
      ])
      .toString('base64');
  },
  /** The token in `bytes`, or `undefined` when they are not a parsable message (absent fields are 0 / empty). */
  parse(bytes: Uint8Array): UpdatesPageToken | undefined {
    const fields = protobufWire.parse(bytes);
    if (!fields) return undefined;
    const num = (f: number) => {
      const v = fields.get(f);
      return typeof v === 'number' ? v : 0;
    };
    const bin = (f: number) => {
      const v = fields.get(f);
      return v instanceof Uint8Array ? v : new Uint8Array();
    };
    return { lowestPageOffsetExclusive: num(1), highestPageOffsetInclusive: num(2), version: num(3), participantChecksum: bin(4), requestChecksum: bin(5) };
  },
  participantChecksum(participantId: string): Uint8Array {
    return checksum('participant', participantId);
  },
  requestChecksum(request: DecodedGetUpdatesPageRequest): Uint8Array {
    return checksum(
      'request',
      canonicalJson([request.beginOffsetExclusive ?? null, request.endOffsetInclusive ?? null, request.maxPageSize ?? null, request.updateFormat ?? null, request.descendingOrder]),
    );
  },
} as const;
