/**
 * Identifiers of ledger objects (update ids, contract ids, reassignment ids), derived deterministically
 * from the offset and node that produced them and the sandbox's `randomSeed`.
 *
 * Deriving instead of storing keeps a ledger of millions of updates small: nothing is kept per id, and a
 * contract id can be turned back into the (offset, node) of its create event, so lookups need no map.
 * The ids carry a keyed check digest, so an id that was never issued (or was tampered with) does not
 * resolve. They look like Canton's (lowercase hex of plausible length) but are not Canton hashes.
 */
export interface LedgerIds {
  /** `1220` + 64 hex: the update id of the update at `offset`. */
  updateId(offset: number): string;
  /** `00` + 64 hex: the id of the contract created by node `nodeId` of the transaction at `offset`. */
  contractId(offset: number, nodeId: number): string;
  /** The (offset, node) a contract id was derived from, or `undefined` for an id this ledger never issued. */
  parseContractId(contractId: string): { readonly offset: number; readonly nodeId: number } | undefined;
  /** The reassignment id of the unassignment at (`offset`, `nodeId`). */
  reassignmentId(offset: number, nodeId: number): string;
  /** Inverse of {@link LedgerIds.reassignmentId}. */
  parseReassignmentId(id: string): { readonly offset: number; readonly nodeId: number } | undefined;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const scratch = Buffer.alloc(32);

/** `words` × 8 hex digits of a keyed mix of (salt, offset, nodeId): cheap, deterministic, not cryptographic. */
function digest(seed: number, salt: number, offset: number, nodeId: number, words: number): string {
  const lo = offset >>> 0;
  const hi = Math.floor(offset / 4294967296) >>> 0;
  let h = fmix(seed ^ Math.imul(salt, 0x9e3779b1));
  for (let i = 0; i < words; i++) {
    h = fmix(h ^ Math.imul(lo + i, 0xcc9e2d51) ^ Math.imul(hi ^ nodeId, 0x1b873593) ^ Math.imul(i + 1, 0xe6546b64));
    scratch.writeUInt32BE(h, i * 4);
  }
  return scratch.toString('hex', 0, words * 4);
}

const hexOffset = (offset: number) => offset.toString(16).padStart(14, '0');
const hexNode = (nodeId: number) => nodeId.toString(16).padStart(6, '0');

function parseWith(prefix: string, id: string, expected: (offset: number, nodeId: number) => string) {
  if (id.length !== prefix.length + 64 || !id.startsWith(prefix)) return undefined;
  const offset = Number.parseInt(id.slice(prefix.length, prefix.length + 14), 16);
  const nodeId = Number.parseInt(id.slice(prefix.length + 14, prefix.length + 20), 16);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(nodeId)) return undefined;
  return expected(offset, nodeId) === id ? { offset, nodeId } : undefined;
}

/** The {@link LedgerIds} of a sandbox started with `randomSeed`. */
export function ledgerIds(randomSeed: number): LedgerIds {
  const seed = randomSeed >>> 0;
  const ids: LedgerIds = {
    updateId: (offset) => `1220${digest(seed, 1, offset, 0, 8)}`,
    contractId: (offset, nodeId) => `00${hexOffset(offset)}${hexNode(nodeId)}${digest(seed, 2, offset, nodeId, 6).slice(0, 44)}`,
    parseContractId: (id) => parseWith('00', id, ids.contractId),
    reassignmentId: (offset, nodeId) => `0f${hexOffset(offset)}${hexNode(nodeId)}${digest(seed, 3, offset, nodeId, 6).slice(0, 44)}`,
    parseReassignmentId: (id) => parseWith('0f', id, ids.reassignmentId),
  };
  return ids;
}
