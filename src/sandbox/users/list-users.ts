import type { ParticipantState } from '../participant/participant-state.js';
import { lfStrings } from '../state/lf-strings.js';
import { pageTokenCodec } from '../vetting/page-token-codec.js';
import { toUserJson, type UserJson } from './to-user-json.js';
import { requestErrors } from '../errors/request-errors.js';

/** The participant's `maxUsersPageSize`, as `GET /v2/version` publishes it. */
const maxUsersPageSize = 1000;

/**
 * `GET /v2/users` after authorization: the users of `identityProviderId`, ordered by id, one page at a time,
 * as the server's `ListUsers`. Validation order: the page token (`INVALID_ARGUMENT` "Invalid page token" —
 * the token is the server's format, URL-safe Base64 of a message holding the last user id), then
 * `pageSize` (`INVALID_ARGUMENT` "Max page size must be non-negative"; 0 or absent means 1000, larger
 * values are clamped to 1000). `nextPageToken` is `""` when the page is not full, else the token of its last
 * user (so a listing whose size is a multiple of the page size ends with an empty page).
 */
export function listUsers(state: ParticipantState, identityProviderId: string, pageSize: number, pageToken: string): { users: UserJson[]; nextPageToken: string } {
  let after: string | undefined;
  if (pageToken !== '') {
    const decoded = pageTokenCodec.decode(pageToken, 1);
    const id = 'fields' in decoded ? (decoded.fields[0] ?? '') : '';
    if (lfStrings.userId(id)) throw requestErrors.invalidArgument('Invalid page token');
    after = id;
  }
  if (pageSize < 0) throw requestErrors.invalidArgument('Max page size must be non-negative');
  const size = pageSize === 0 ? maxUsersPageSize : Math.min(pageSize, maxUsersPageSize);
  const page = state.users
    .all()
    .filter((u) => u.identityProviderId === identityProviderId && (after === undefined || u.id > after))
    .slice(0, size);
  const last = page.at(-1);
  return { users: page.map((u) => toUserJson(u, state.api)), nextPageToken: last && page.length === size ? pageTokenCodec.encode([last.id]) : '' };
}
