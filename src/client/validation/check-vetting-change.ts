import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import type { VettedPackagesChange } from '../../schemas/index.js';
import { checkInstant } from './check-instant.js';
import { checkVettingPackageRef } from './check-vetting-package-ref.js';

/**
 * One vetting change: `operation` must be set and not `Empty` (the server answers
 * `FieldNotSet(operation)`), and every package reference of its `Vet`/`Unvet` must be an accepted
 * combination (see {@link checkVettingPackageRef}); a `Vet`'s new bounds, when set, must be instants.
 *
 * @param change - the parsed change.
 * @param index - its index in `changes`, for the error path.
 * @throws InvalidArgumentError naming `changes[i].operation` or one of its package references.
 */
export function checkVettingChange(change: z.output<typeof VettedPackagesChange>, index: number): void {
  const field = `changes[${index}].operation`;
  const op = change.operation;
  if (op == null || 'Empty' in op) {
    throw new InvalidArgumentError(field, 'must be Vet or Unvet (not Empty)');
  }
  const [name, packages] = 'Vet' in op ? ['Vet', op.Vet.value.packages] : ['Unvet', op.Unvet.value.packages];
  packages.forEach((ref, i) => checkVettingPackageRef(ref, `${field}.${name}.value.packages[${i}]`));
  if ('Vet' in op) {
    checkInstant(op.Vet.value.newValidFromInclusive, `${field}.Vet.value.newValidFromInclusive`);
    checkInstant(op.Vet.value.newValidUntilExclusive, `${field}.Vet.value.newValidUntilExclusive`);
  }
}
