import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import { GetCompletionByHashRequest, GetUpdateByHashRequest } from '../../schemas/index.js';
import { checkUpdateFormat } from './check-update-format.js';
import { parseRequest } from './parse-request.js';

/** Standard base64, `=` padding optional: how the JSON API reads a protobuf `bytes` field. */
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

function checkHash(hash: string): void {
  if (!base64.test(hash)) throw new InvalidArgumentError('transactionHash', 'must be base64 (the transactionHash of a transaction or completion, as the participant printed it)');
}

/**
 * Validates `POST /v2/updates/update-by-hash` before it is sent: the `GetUpdateByHashRequest` schema (a
 * non-empty hash and an update format), the hash's base64 shape (the server's JSON decoding), then the update
 * format ({@link checkUpdateFormat}).
 *
 * @throws InvalidArgumentError for the first violation.
 */
export function validateUpdateByHashRequest(request: unknown): z.output<typeof GetUpdateByHashRequest> {
  const parsed = parseRequest(GetUpdateByHashRequest, request);
  checkHash(parsed.transactionHash);
  checkUpdateFormat(parsed.updateFormat);
  return parsed;
}

/**
 * Validates `POST /v2/commands/completion-by-hash` before it is sent: a non-empty base64 hash.
 *
 * @throws InvalidArgumentError naming `transactionHash`.
 */
export function validateCompletionByHashRequest(request: unknown): z.output<typeof GetCompletionByHashRequest> {
  const parsed = parseRequest(GetCompletionByHashRequest, request);
  checkHash(parsed.transactionHash);
  return parsed;
}
