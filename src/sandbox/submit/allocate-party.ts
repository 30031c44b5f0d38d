import { randomBytes } from 'node:crypto';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import type { PartyRecord } from '../state/parties-store.js';
import { rightKey } from '../state/users-store.js';
import { validateAnnotations } from '../users/validate-annotations.js';
import { lfStrings } from '../state/lf-strings.js';
import { requestErrors } from '../errors/request-errors.js';

/** What to allocate, besides the hint. */
export interface AllocatePartyOptions {
  /** The synchronizer to host the party on; default: the only one, or (in-process) the first one. */
  readonly synchronizerId?: string;
  /** Require `synchronizerId` when the participant has several synchronizers (the HTTP API does). */
  readonly requireSynchronizerChoice?: boolean;
  /** `localMetadata.resourceVersion` of the request: must be empty. */
  readonly resourceVersion?: string;
  /** `localMetadata.annotations`, validated as the user-management annotations are (no empty values). */
  readonly annotations?: Readonly<Record<string, string>>;
  readonly identityProviderId?: string;
  /** A user that gets `CanActAs` on the new party. */
  readonly userId?: string;
}

const hintPattern = /^[a-zA-Z0-9:\-_ ]{1,185}$/;

/**
 * Allocates a local party `<hint>::<participant namespace>` (an empty hint gets a generated one) and
 * appends the `TopologyTransaction` that hosts it here (`ParticipantAuthorizationAdded`,
 * `PARTICIPANT_PERMISSION_SUBMISSION`) — the update stream's topology events come from these.
 *
 * Errors, in the server's order: a hint that is not a Daml-LF party string ⇒ `INVALID_ARGUMENT`; a
 * non-empty `resourceVersion` ⇒ `INVALID_ARGUMENT` ("field party_details.local_metadata.resource_version
 * must be not set"); invalid annotations ⇒ `INVALID_ARGUMENT` (`validateAnnotations`, field
 * `party_details.local_metadata.annotations`: key syntax, 256 KiB, no empty values); a hint that makes no
 * party id (`::` in it, or over 185 characters) ⇒ `INVALID_ARGUMENT`; an unknown synchronizer ⇒
 * `INVALID_FIELD synchronizer_id`; no synchronizer named while several are connected (HTTP only) ⇒
 * `INVALID_ARGUMENT`; an unknown `userId` ⇒ `USER_NOT_FOUND`; an existing party ⇒ `PARTY_ALREADY_EXISTS`
 * (409, the sandbox's choice for the duplicate).
 */
export function allocateParty(state: ParticipantState, hint: string, options: AllocatePartyOptions = {}): PartyRecord {
  const ledger = state.ledger;
  const name = hint === '' ? `party-${randomBytes(6).toString('hex')}` : hint;
  const hintProblem = hint === '' ? undefined : lfStrings.party(hint);
  if (hintProblem) throw requestErrors.invalidArgument(hintProblem);
  const resourceVersion = options.resourceVersion ?? '';
  if (resourceVersion !== '') throw requestErrors.invalidArgument('field party_details.local_metadata.resource_version must be not set');
  validateAnnotations(options.annotations ?? {}, false, 'party_details.local_metadata.annotations');
  if (!hintPattern.test(name) || name.includes('::')) {
    throw requestErrors.invalidArgument(`Party id hint "${hint}" is not a valid party name: non-empty US-ASCII letters, digits, space, colon, minus and underscore, at most 185 characters, without "::"`);
  }
  let synchronizer = 0;
  if (options.synchronizerId !== undefined && options.synchronizerId !== '') {
    synchronizer = state.synchronizers.findIndex((s) => s.id === options.synchronizerId && s.connected);
    if (synchronizer < 0) throw requestErrors.invalidField('synchronizer_id', `synchronizer ${options.synchronizerId} is not connected to this participant`);
  } else if (options.requireSynchronizerChoice && state.synchronizers.length > 1) {
    throw requestErrors.invalidArgument('synchronizer_id must be set when the participant is connected to more than one synchronizer');
  }
  const user = options.userId ? state.users.get(options.userId) : undefined;
  if (options.userId && !user) {
    throw SandboxError.grpc(ErrorDefs.USER_NOT_FOUND, `allocating party failed for unknown user "${options.userId}"`, { resources: [['USER', options.userId]] });
  }
  const party = `${name}::${state.namespace}`;
  if (state.parties.has(party)) {
    throw SandboxError.grpc(ErrorDefs.PARTY_ALREADY_EXISTS, `Party already exists: party ${party} is already allocated on this node`, { resources: [['PARTY', party]] });
  }
  const record = state.parties.add({
    party,
    isLocal: true,
    identityProviderId: options.identityProviderId ?? '',
    annotations: { ...options.annotations },
    resourceVersion: 0,
  });
  if (user) {
    const right = { kind: 'CanActAs' as const, party };
    user.rights.set(rightKey(right), right);
  }
  ledger.append({
    kind: 'topology',
    offset: ledger.allocateOffset(),
    recordTimeMs: ledger.nextRecordTime(),
    synchronizer,
    party,
    participantId: state.participantId,
    permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
  });
  return record;
}
