import { ErrorCodes } from '../errors/error-codes.js';
import { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { Checkpoint } from '../operators/checkpoint.js';

/**
 * Checks a stored checkpoint's shape (from a file or a database row) and returns it; throws a
 * `CHECKPOINT_STORE_FAILED` error naming `where` when it is not one.
 */
export function parseCheckpoint(value: unknown, where: string): Checkpoint {
  const fail = (why: string): never => {
    throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `${where} does not hold a checkpoint: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const v = value as Record<string, unknown>;
  if (typeof v['offset'] !== 'number' || !Number.isSafeInteger(v['offset']) || v['offset'] < 0) return fail('offset is not a non-negative integer');
  if (typeof v['updatedAt'] !== 'string') return fail('updatedAt is not a string');
  const times = v['synchronizerTimes'];
  if (!Array.isArray(times)) return fail('synchronizerTimes is not an array');
  const synchronizerTimes = times.map((t) => {
    const s = t as Record<string, unknown> | null;
    if (!s || typeof s['synchronizerId'] !== 'string' || typeof s['recordTime'] !== 'string') return fail('a synchronizer time is malformed');
    return { synchronizerId: s['synchronizerId'], recordTime: s['recordTime'] };
  });
  return { offset: v['offset'], synchronizerTimes, updatedAt: v['updatedAt'] };
}
