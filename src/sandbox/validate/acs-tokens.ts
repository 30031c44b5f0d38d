import { createHash } from 'node:crypto';
import { protobufWire } from '../decode/protobuf-wire.js';
import { canonicalJson } from './canonical-json.js';

/** What a continuation token points at: the position (1-based) of the last element delivered, and its checksum. */
export interface AcsPointer {
  readonly position: number;
  readonly checksum: Uint8Array;
}

/** The contents of an active-contracts page token. */
export interface AcsPageTokenContents {
  readonly continuation: Uint8Array;
  readonly activeAtOffset: number;
  readonly version: number;
  readonly participantChecksum: Uint8Array;
  readonly requestChecksum: Uint8Array;
}

/** The version of both token kinds, as on the server. */
export const acsTokenVersion = 1;

function checksum(...parts: readonly string[]): Uint8Array {
  const hash = createHash('sha256').update('AcsContinuationToken');
  for (const p of parts) hash.update('\u0000').update(p);
  return new Uint8Array(hash.digest().subarray(0, 4));
}


const bytesOf = (v: number | Uint8Array | undefined) => (v instanceof Uint8Array ? v : new Uint8Array());
const numberOf = (v: number | Uint8Array | undefined) => (typeof v === 'number' ? v : 0);

/**
 * The opaque tokens of the active-contracts reads, laid out like the server's (AcsContinuationToken.scala,
 * AcsPageToken.scala at e5f40da5e): the `streamContinuationToken` of each streamed element (a pointer to
 * it and a 4-byte checksum of `activeAtOffset`, the event format, the version and the participant), and
 * the `nextPageToken` of a page (the continuation of the next page's first element, the offset, a version
 * and checksums of the participant and of the request's `activeAtOffset` and event format — not of
 * `maxPageSize`, which may change from page to page). Base64 in JSON.
 */
export const acsTokens = {
  /** The checksum of continuation tokens in pages, where it is not checked (four zero bytes). */
  emptyChecksum: new Uint8Array(4),
  streamChecksum(activeAtOffset: number, eventFormat: unknown, participantId: string): Uint8Array {
    return checksum('stream', String(activeAtOffset), canonicalJson(eventFormat), String(acsTokenVersion), participantId);
  },
  pageRequestChecksum(activeAtOffset: number | undefined, eventFormat: unknown): Uint8Array {
    return checksum('page', String(activeAtOffset ?? ''), canonicalJson(eventFormat));
  },
  participantChecksum(participantId: string): Uint8Array {
    return checksum('participant', participantId);
  },
  continuation(position: number, sum: Uint8Array): Buffer {
    return protobufWire.encode([
      [1, protobufWire.encode([[1, position]])],
      [2, sum],
    ]);
  },
  /** The pointer of a continuation token; `'unparsable'` for bytes that are no message, `'no-pointer'` for a message without one. */
  parseContinuation(bytes: Uint8Array): AcsPointer | 'unparsable' | 'no-pointer' {
    const fields = protobufWire.parse(bytes);
    if (!fields) return 'unparsable';
    const pointer = fields.get(1);
    if (!(pointer instanceof Uint8Array)) return 'no-pointer';
    const inner = protobufWire.parse(pointer);
    if (!inner) return 'unparsable';
    return { position: numberOf(inner.get(1)), checksum: bytesOf(fields.get(2)) };
  },
  page(contents: AcsPageTokenContents): string {
    return protobufWire
      .encode([
        [1, contents.continuation],
        [2, contents.activeAtOffset],
        [3, contents.version],
        [4, contents.participantChecksum],
        [5, contents.requestChecksum],
      ])
      .toString('base64');
  },
  parsePage(bytes: Uint8Array): AcsPageTokenContents | undefined {
    const fields = protobufWire.parse(bytes);
    if (!fields) return undefined;
    return {
      continuation: bytesOf(fields.get(1)),
      activeAtOffset: numberOf(fields.get(2)),
      version: numberOf(fields.get(3)),
      participantChecksum: bytesOf(fields.get(4)),
      requestChecksum: bytesOf(fields.get(5)),
    };
  },
} as const;
