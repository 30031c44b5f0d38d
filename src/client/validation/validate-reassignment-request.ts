import type { z } from 'zod';
import { SubmitAndWaitForReassignmentRequest } from '../../schemas/index.js';
import { checkEventFormat } from './check-event-format.js';
import { checkReassignmentCommands } from './check-reassignment-commands.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates the body of `POST /v2/commands/submit-and-wait-for-reassignment` before it is sent, in the
 * server's order (docs/server-behavior.md#reassignment-validation-order): the `SubmitAndWaitForReassignmentRequest` schema, the
 * `eventFormat` when present (the rules of `POST /v2/updates`, see {@link checkEventFormat}), then
 * {@link checkReassignmentCommands}.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateReassignmentRequest(request: unknown): z.output<typeof SubmitAndWaitForReassignmentRequest> {
  const parsed = parseRequest(SubmitAndWaitForReassignmentRequest, request);
  if (parsed.eventFormat != null) checkEventFormat(parsed.eventFormat, ['eventFormat']);
  checkReassignmentCommands(parsed.reassignmentCommands);
  return parsed;
}
