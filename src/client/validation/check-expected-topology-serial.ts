import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import type { PriorTopologySerial } from '../../schemas/index.js';

/**
 * `expectedTopologySerial.serial.Prior.value` must be at least 1: serials start at 1 and the server rejects
 * `Prior` values `<= 0`. `NoPrior`, `Empty` and an absent serial pass.
 *
 * @param expected - the parsed `expectedTopologySerial` of a vetting update.
 * @throws InvalidArgumentError('expectedTopologySerial.serial.Prior.value', 'must be at least 1').
 */
export function checkExpectedTopologySerial(expected: z.output<typeof PriorTopologySerial> | null | undefined): void {
  const serial = expected?.serial;
  if (serial == null || !('Prior' in serial)) return;
  if (serial.Prior.value < 1) {
    throw new InvalidArgumentError('expectedTopologySerial.serial.Prior.value', 'must be at least 1');
  }
}
