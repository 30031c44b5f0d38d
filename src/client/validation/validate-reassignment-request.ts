import type { z } from 'zod';
import { SubmitAndWaitForReassignmentRequest } from '../../schemas/index.js';
import { checkReassignmentCommands } from './check-reassignment-commands.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates the body of `POST /v2/commands/submit-and-wait-for-reassignment` before it is sent: the
 * `SubmitAndWaitForReassignmentRequest` schema, then {@link checkReassignmentCommands}.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateReassignmentRequest(request: unknown): z.output<typeof SubmitAndWaitForReassignmentRequest> {
  const parsed = parseRequest(SubmitAndWaitForReassignmentRequest, request);
  checkReassignmentCommands(parsed.reassignmentCommands);
  return parsed;
}
