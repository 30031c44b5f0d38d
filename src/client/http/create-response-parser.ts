import type { z } from 'zod';
import { ErrorCodes, ProtocolError } from '../../errors/index.js';

/**
 * Makes the function that turns a decoded 2xx body into the method's result.
 *
 * With `validate` true the body is parsed with the zod wire schema (numeric strings become numbers,
 * unknown variants become `{unknownVariant, payload}`) and a mismatch throws `ProtocolError`
 * `SCHEMA_MISMATCH` carrying the zod issues. With `validate` false the JSON is returned as is, typed but
 * unchecked: the opt-out for trusted hot paths.
 *
 * @param schema - the response schema (named after the OpenAPI component).
 * @param validate - whether to check.
 * @param request - `METHOD /path`, for the message.
 */
export function createResponseParser<S extends z.ZodType>(
  schema: S,
  validate: boolean,
  request: string,
): (value: unknown) => z.output<S> {
  if (!validate) return (value) => value as z.output<S>;
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
    const first = issues[0];
    const where = first ? ` at ${first.path.join('.') || '$'}: ${first.message}` : '';
    throw new ProtocolError(ErrorCodes.SCHEMA_MISMATCH, `${request}: the response does not match the schema${where}`, {
      issues,
      cause: result.error,
    });
  };
}
