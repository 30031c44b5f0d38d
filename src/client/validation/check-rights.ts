import { InvalidArgumentError } from '../../errors/index.js';
import { checkPartyId } from './check-party-id.js';

/**
 * Checks the rights of a grant, revoke or create-user request the way the server does before looking at
 * its state: every right has a `kind` that is set, not `Empty` (the server: "unknown kind of right"), and
 * one of the kinds the API defines (an unknown one does not decode); the party of a `CanActAs`,
 * `CanReadAs` or `CanExecuteAs` right is a party id ({@link checkPartyId}; the server answers
 * `INVALID_ARGUMENT`). Rights are checked in order, each completely. (`Kind` is an open variant so that
 * responses from a newer server still parse; the parsed request shows an unknown key as
 * `{unknownVariant, payload}`.) Whether the parties exist is the server's business.
 *
 * @throws InvalidArgumentError naming `rights[i].kind` or `rights[i].kind.<Kind>.value.party`.
 */
export function checkRights(rights: readonly { readonly kind?: object | null | undefined }[] | null | undefined): void {
  rights?.forEach((right, i) => {
    const kind = right.kind;
    if (kind == null || 'Empty' in kind) {
      throw new InvalidArgumentError(`rights[${i}].kind`, 'must be set to a kind of right (not Empty)');
    }
    if ('unknownVariant' in kind) {
      throw new InvalidArgumentError(`rights[${i}].kind`, `'${String(kind.unknownVariant)}' is not a kind of right`);
    }
    for (const name of ['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const) {
      if (name in kind) {
        const party = (kind as Record<string, { value: { party: string } }>)[name]?.value.party;
        if (party !== undefined) checkPartyId(party, `rights[${i}].kind.${name}.value.party`);
      }
    }
  });
}
