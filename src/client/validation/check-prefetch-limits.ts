import { InvalidArgumentError } from '../../errors/index.js';

/**
 * Every `prefetchContractKeys[i].limit` that is set must be at least 1 (the server rejects `limit: 0`).
 *
 * @throws InvalidArgumentError('prefetchContractKeys[i].limit', 'must be at least 1 when set').
 */
export function checkPrefetchLimits(prefetch: readonly { readonly limit?: number | null | undefined }[] | null | undefined): void {
  prefetch?.forEach((key, i) => {
    if (key.limit != null && key.limit < 1) {
      throw new InvalidArgumentError(`prefetchContractKeys[${i}].limit`, 'must be at least 1 when set');
    }
  });
}
