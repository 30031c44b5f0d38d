import { createHash } from 'node:crypto';

/**
 * The transaction hash the sandbox gives an externally signed submission: base64 of a Canton SHA-256
 * multihash (`0x12 0x20` and the 32-byte digest) over the participant id, user id, sorted `actAs`, command
 * id and submission id, one per line. A real participant hashes the encoded prepared transaction, which
 * needs a Daml engine (docs/participant-versions.md); what both share is the shape (34 bytes, base64) and
 * one hash per prepared submission.
 */
export function sandboxTransactionHash(participantId: string, userId: string, actAs: readonly string[], commandId: string, submissionId: string): string {
  const text = [participantId, userId, [...actAs].sort().join(','), commandId, submissionId].join('\n');
  return Buffer.concat([Buffer.from([0x12, 0x20]), createHash('sha256').update(text).digest()]).toString('base64');
}
