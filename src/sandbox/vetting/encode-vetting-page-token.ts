import { pageTokenCodec } from './page-token-codec.js';

/**
 * The `nextPageToken` of a vetting-list page whose last element is (`synchronizerId`, `participantId`):
 * the server's format (`pageTokenCodec`: field 1 the synchronizer id, field 2 the participant id). Clients
 * must treat it as opaque; the next page holds the pairs strictly after this one. Read back with
 * `decodeVettingPageToken`.
 */
export function encodeVettingPageToken(synchronizerId: string, participantId: string): string {
  return pageTokenCodec.encode([synchronizerId, participantId]);
}
