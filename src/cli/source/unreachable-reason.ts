import { ErrorCodes } from '../../errors/error-codes.js';
import { TransportError } from '../../errors/transport-error.js';

const reasons: Readonly<Record<string, UnreachableReason>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
};

/** Why a participant could not be reached at all (see {@link unreachableReason}). */
export type UnreachableReason = 'connection refused' | 'host not found';

function codeIn(error: unknown, depth: number): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code in reasons) return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = codeIn(inner, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return codeIn((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * `'connection refused'` or `'host not found'` when `error` is a `TransportError` `CONNECTION_FAILED` whose
 * cause is a refused connection (`ECONNREFUSED`) or a host name that does not resolve (`ENOTFOUND`,
 * `EAI_AGAIN`): the signs of a wrong address or a participant that is not running. `undefined` for anything
 * else (a reset connection, a timeout, a TLS failure, an answer of the server).
 */
export function unreachableReason(error: unknown): UnreachableReason | undefined {
  if (!(error instanceof TransportError) || error.code !== ErrorCodes.CONNECTION_FAILED) return undefined;
  const code = codeIn(error.cause, 0);
  return code === undefined ? undefined : reasons[code];
}
