import { InvalidArgumentError } from '../../errors/index.js';

/**
 * Every right in a grant/revoke request must have a `kind` that is set and not `Empty`; the server rejects
 * such a right ("unknown kind of right").
 *
 * @throws InvalidArgumentError('rights[i].kind', 'must be set to a kind of right (not Empty)').
 */
export function checkRightKinds(rights: readonly { readonly kind?: object | null | undefined }[] | null | undefined): void {
  rights?.forEach((right, i) => {
    if (right.kind == null || 'Empty' in right.kind) {
      throw new InvalidArgumentError(`rights[${i}].kind`, 'must be set to a kind of right (not Empty)');
    }
  });
}
