/**
 * The first `code` in `error`, its `cause` chain and the `errors` of an `AggregateError` (depth first, at most six
 * levels) that `isKnown` accepts, or `undefined` when there is none. Pure; never throws. Node's and undici's network
 * errors carry their code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) a few causes down, and a failed connection to a
 * host with several addresses wraps one error per address in an `AggregateError`.
 */
export function findErrorCode(error: unknown, isKnown: (code: string) => boolean, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && isKnown(code)) return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = findErrorCode(inner, isKnown, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return findErrorCode((error as { cause?: unknown }).cause, isKnown, depth + 1);
}
