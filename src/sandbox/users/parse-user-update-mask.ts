import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';

/** How a mask covers a field: named exactly, or only through a parent path (`metadata`). */
export type MaskMatch = 'exact' | 'prefix';

/** The fields a user update mask changes (absent = unchanged). */
export interface UserUpdateFields {
  readonly primaryParty?: MaskMatch;
  readonly isDeactivated?: MaskMatch;
  readonly annotations?: MaskMatch;
  readonly primaryPartyAuthentication?: MaskMatch;
}

// Every path the server accepts: the fields of `User` by their protobuf (snake_case) names. `id`,
// `identity_provider_id` and `metadata.resource_version` are accepted but change nothing.
const knownPaths = new Set([
  'id',
  'primary_party',
  'is_deactivated',
  'metadata',
  'metadata.annotations',
  'metadata.resource_version',
  'identity_provider_id',
  'primary_party_authentication',
]);

function shorten(path: string): string {
  return path.length > 53 ? `${path.slice(0, 50)}...` : path;
}

function match(paths: ReadonlySet<string>, field: string): MaskMatch | undefined {
  if (paths.has(field)) return 'exact';
  const segments = field.split('.');
  for (let i = 1; i < segments.length; i++) if (paths.has(segments.slice(0, i).join('.'))) return 'prefix';
  return undefined;
}

/**
 * Interprets `updateMask.paths` of `PATCH /v2/users/{user-id}` (docs/server-behavior.md#user-update-validation-order step 5, #user-update-mask). Paths
 * are checked in order; each failure is `INVALID_USER_UPDATE_REQUEST` (400, resources `[["USER", id]]`),
 * cause `Update operation for user id '<id>' failed due to: <reason>`:
 * - no paths: `The update mask contains no entries`;
 * - a path that is not a known field path (camelCase included): `The update path: '<path>' points to an
 *   unknown field.` (a path longer than 53 characters is shortened to 50 + `...`);
 * - a path given twice: `The update path: '<path>' is duplicated.`
 *
 * Returns, per updatable field, whether the mask names it exactly (set it to the request value, even the
 * default) or only through a parent path such as `metadata` (set it only when the request value is not the
 * default).
 */
export function parseUserUpdateMask(userId: string, paths: readonly string[]): UserUpdateFields {
  const reject = (reason: string) =>
    SandboxError.grpc(ErrorDefs.INVALID_USER_UPDATE_REQUEST, `Update operation for user id '${userId}' failed due to: ${reason}`, {
      resources: [['USER', userId]],
    });
  if (paths.length === 0) throw reject('The update mask contains no entries');
  const seen = new Set<string>();
  for (const path of paths) {
    if (!knownPaths.has(path)) throw reject(`The update path: '${shorten(path)}' points to an unknown field.`);
    if (seen.has(path)) throw reject(`The update path: '${shorten(path)}' is duplicated.`);
    seen.add(path);
  }
  const fields: { -readonly [K in keyof UserUpdateFields]: MaskMatch } = {};
  const set = (key: keyof UserUpdateFields, field: string) => {
    const m = match(seen, field);
    if (m) fields[key] = m;
  };
  set('primaryParty', 'primary_party');
  set('isDeactivated', 'is_deactivated');
  set('annotations', 'metadata.annotations');
  set('primaryPartyAuthentication', 'primary_party_authentication');
  return fields;
}
