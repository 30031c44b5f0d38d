import { rightKey, type RightRecord } from '../state/users-store.js';
import { lfStrings } from '../state/lf-strings.js';
import type { RightInput } from './user-request-decoders.js';
import { requestErrors } from '../errors/request-errors.js';

/**
 * Validates the rights of a create, grant or revoke request, in order, as the server's `fromProtoRights`:
 * a right of kind `Empty` (or without `kind`) is `INVALID_ARGUMENT` "unknown kind of right - check that the
 * Ledger API version of the server is recent enough"; a malformed party in `CanActAs`/`CanReadAs`/
 * `CanExecuteAs` is `INVALID_ARGUMENT` with the party parser's message. Returns the rights as a set
 * (duplicates dropped, first occurrence order kept), since the server treats them as one.
 */
export function parseRights(rights: readonly RightInput[]): RightRecord[] {
  const out = new Map<string, RightRecord>();
  for (const { kind } of rights) {
    let record: RightRecord;
    switch (kind.kind) {
      case 'Empty':
        throw requestErrors.invalidArgument('unknown kind of right - check that the Ledger API version of the server is recent enough');
      case 'CanActAs':
      case 'CanReadAs':
      case 'CanExecuteAs': {
        const problem = lfStrings.party(kind.value.party);
        if (problem) throw requestErrors.invalidArgument(problem);
        record = { kind: kind.kind, party: kind.value.party };
        break;
      }
      default:
        record = { kind: kind.kind };
    }
    if (!out.has(rightKey(record))) out.set(rightKey(record), record);
  }
  return [...out.values()];
}
