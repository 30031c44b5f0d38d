import { ErrorCodes } from '../../errors/error-codes.js';
import { findErrorCode } from '../../errors/find-error-code.js';
import { TransportError } from '../../errors/transport-error.js';

const reasons: Readonly<Record<string, UnreachableReason>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
};

/** Why a participant could not be reached at all (see {@link unreachableReason}). */
export type UnreachableReason = 'connection refused' | 'host not found';

/**
 * `'connection refused'` or `'host not found'` when `error` is a `TransportError` `CONNECTION_FAILED` whose
 * cause is a refused connection (`ECONNREFUSED`) or a host name that does not resolve (`ENOTFOUND`,
 * `EAI_AGAIN`): the signs of a wrong address or a participant that is not running. `undefined` for anything
 * else (a reset connection, a timeout, a TLS failure, an answer of the server).
 */
export function unreachableReason(error: unknown): UnreachableReason | undefined {
  if (!(error instanceof TransportError) || error.code !== ErrorCodes.CONNECTION_FAILED) return undefined;
  const code = findErrorCode(error.cause, (c) => c in reasons);
  return code === undefined ? undefined : reasons[code];
}
