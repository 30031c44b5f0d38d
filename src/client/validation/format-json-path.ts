/**
 * Renders a path into a request body as the JSON path used in {@link InvalidArgumentError.field}:
 * object keys are joined with `.` and array indices are written as `[i]`, e.g.
 * `commands[0].CreateCommand.templateId`. An empty path renders as `$` (the whole body).
 *
 * @param path - the keys and indices from the body root to the field (as zod reports them).
 * @returns the dotted path; never throws.
 */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '$' : out;
}
