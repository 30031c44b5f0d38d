import { InvalidArgumentError } from '../../errors/index.js';
import { userUpdatePaths } from './user-update-paths.js';

const known = new Set(userUpdatePaths);

function snakeCase(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Checks the `updateMask.paths` of a user update the way the server does, before sending: at least one
 * path; every path one of {@link userUpdatePaths}; no path twice. A camelCase path (`primaryParty`) is
 * an unknown field to the server; the error suggests the snake_case spelling.
 *
 * @param paths - `updateMask.paths` (absent counts as empty).
 * @throws InvalidArgumentError naming `updateMask.paths` or `updateMask.paths[i]`.
 */
export function checkUpdateMask(paths: readonly string[] | null | undefined): void {
  if (paths == null || paths.length === 0) {
    throw new InvalidArgumentError('updateMask.paths', 'must name at least one field to update (see fieldMask())');
  }
  const seen = new Set<string>();
  paths.forEach((path, i) => {
    const field = `updateMask.paths[${i}]`;
    if (!known.has(path)) {
      const suggestion = snakeCase(path);
      const hint = known.has(suggestion) ? `; use '${suggestion}'` : `; expected one of ${userUpdatePaths.join(', ')}`;
      throw new InvalidArgumentError(field, `'${path}' is not a user field path${hint}`);
    }
    if (seen.has(path)) throw new InvalidArgumentError(field, `'${path}' is duplicated`);
    seen.add(path);
  });
}
