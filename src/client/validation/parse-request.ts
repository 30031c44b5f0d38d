import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import { formatJsonPath } from './format-json-path.js';

/**
 * Checks a request body against its zod wire schema before anything is sent.
 *
 * Returns the parsed value (numeric strings turned into numbers, variants checked) for the rule checks
 * that follow. The caller still sends what the user wrote; the parsed value is only read.
 *
 * @throws InvalidArgumentError for the first zod issue, with `field` the dotted JSON path of the
 *   offending field (see {@link formatJsonPath}) and `rule` the zod message; the zod error is the `cause`.
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = formatJsonPath(issue?.path ?? []);
  throw new InvalidArgumentError(field, issue?.message ?? 'does not match the request schema', { cause: result.error });
}
