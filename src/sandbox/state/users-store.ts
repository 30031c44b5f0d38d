import { dictionary } from '../decode/dictionary.js';

/** The kinds of right a user can hold. */
export type RightKind =
  | 'CanActAs'
  | 'CanReadAs'
  | 'CanExecuteAs'
  | 'CanActAsAnyParty'
  | 'CanReadAsAnyParty'
  | 'CanExecuteAsAnyParty'
  | 'ParticipantAdmin'
  | 'IdentityProviderAdmin';

/** A right; `party` only for the three per-party kinds. */
export interface RightRecord {
  readonly kind: RightKind;
  readonly party?: string;
}

/** A stable string key for a right, for set membership. */
export function rightKey(right: RightRecord): string {
  return right.party === undefined ? right.kind : `${right.kind}:${right.party}`;
}

/** A user of the participant. `resourceVersion` is bumped by every successful update. */
export interface UserRecord {
  readonly id: string;
  primaryParty: string;
  isDeactivated: boolean;
  /** A {@link dictionary} (prototype-less), so that every key is an own property. */
  annotations: Record<string, string>;
  resourceVersion: number;
  identityProviderId: string;
  primaryPartyAuthentication: boolean;
  /** Rights by {@link rightKey}. Granting and revoking do not change `resourceVersion`. */
  readonly rights: Map<string, RightRecord>;
}

/** The users of the participant; starts with `participant_admin`, as a real participant does. */
export class UsersStore {
  private readonly byId = new Map<string, UserRecord>();

  constructor() {
    this.add({
      id: 'participant_admin',
      primaryParty: '',
      isDeactivated: false,
      annotations: {},
      resourceVersion: 0,
      identityProviderId: '',
      primaryPartyAuthentication: false,
      rights: new Map([[rightKey({ kind: 'ParticipantAdmin' }), { kind: 'ParticipantAdmin' }]]),
    });
  }

  /** Stores `user` (replacing one with its id); its annotations are copied into a {@link dictionary}. */
  add(user: UserRecord): UserRecord {
    user.annotations = dictionary(Object.entries(user.annotations));
    this.byId.set(user.id, user);
    return user;
  }

  get(id: string): UserRecord | undefined {
    return this.byId.get(id);
  }

  delete(id: string): boolean {
    return this.byId.delete(id);
  }

  all(): UserRecord[] {
    return [...this.byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
