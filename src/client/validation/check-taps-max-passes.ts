import { InvalidArgumentError } from '../../errors/index.js';

/**
 * `tapsMaxPasses`, when set, must be at least 1 (the server rejects values `<= 0`).
 *
 * @throws InvalidArgumentError('tapsMaxPasses', 'must be at least 1 when set').
 */
export function checkTapsMaxPasses(tapsMaxPasses: number | null | undefined): void {
  if (tapsMaxPasses != null && tapsMaxPasses < 1) {
    throw new InvalidArgumentError('tapsMaxPasses', 'must be at least 1 when set');
  }
}
