import type { z } from 'zod';
import { UpdateVettedPackagesRequest } from '../../schemas/index.js';
import { checkExpectedTopologySerial } from './check-expected-topology-serial.js';
import { checkVettingChange } from './check-vetting-change.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates a vetting update (`POST /v2/package-vetting[/update]`) before it is sent: the
 * `UpdateVettedPackagesRequest` schema, every change (see {@link checkVettingChange}) and the expected
 * serial. An empty `changes` list is allowed, as on the server.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateUpdateVettedPackagesRequest(request: unknown): z.output<typeof UpdateVettedPackagesRequest> {
  const parsed = parseRequest(UpdateVettedPackagesRequest, request);
  parsed.changes.forEach(checkVettingChange);
  checkExpectedTopologySerial(parsed.expectedTopologySerial);
  return parsed;
}
