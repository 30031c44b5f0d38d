import { InvalidArgumentError } from '../../errors/index.js';

/**
 * Every right in a grant/revoke request must have a `kind` that is set, not `Empty`, and one of the kinds
 * the API defines: the server rejects an unset kind ("unknown kind of right") and cannot decode an unknown
 * one. (`Kind` is an open variant so that responses from a newer server still parse; the parsed request
 * shows an unknown key as `{unknownVariant, payload}`.)
 *
 * @throws InvalidArgumentError('rights[i].kind', ...).
 */
export function checkRightKinds(rights: readonly { readonly kind?: object | null | undefined }[] | null | undefined): void {
  rights?.forEach((right, i) => {
    if (right.kind == null || 'Empty' in right.kind) {
      throw new InvalidArgumentError(`rights[${i}].kind`, 'must be set to a kind of right (not Empty)');
    }
    if ('unknownVariant' in right.kind) {
      throw new InvalidArgumentError(`rights[${i}].kind`, `'${String(right.kind.unknownVariant)}' is not a kind of right`);
    }
  });
}
