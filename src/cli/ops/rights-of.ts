import type { RightInput } from '../../schemas/users.js';
import type { UsersRevokeOptions } from './users-revoke-options.js';

/** The wire `Right`s named by the flags of `users revoke`, in a fixed order (party rights first). */
export function rightsOf(o: Omit<UsersRevokeOptions, 'source' | 'userId' | 'identityProviderId'>): RightInput[] {
  const party = (kind: 'CanActAs' | 'CanReadAs' | 'CanExecuteAs', parties: readonly string[] | undefined): RightInput[] =>
    (parties ?? []).map((p) => ({ kind: { [kind]: { value: { party: p } } } }) as RightInput);
  const flag = (on: boolean | undefined, kind: string): RightInput[] => (on ? [{ kind: { [kind]: { value: {} } } } as RightInput] : []);
  return [
    ...party('CanActAs', o.actAs),
    ...party('CanReadAs', o.readAs),
    ...party('CanExecuteAs', o.executeAs),
    ...flag(o.actAsAnyParty, 'CanActAsAnyParty'),
    ...flag(o.readAsAnyParty, 'CanReadAsAnyParty'),
    ...flag(o.executeAsAnyParty, 'CanExecuteAsAnyParty'),
    ...flag(o.participantAdmin, 'ParticipantAdmin'),
    ...flag(o.identityProviderAdmin, 'IdentityProviderAdmin'),
  ];
}
