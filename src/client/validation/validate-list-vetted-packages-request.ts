import type { z } from 'zod';
import { ListVettedPackagesRequest } from '../../schemas/index.js';
import { parseRequest } from './parse-request.js';
import { requireNonNegativeInteger } from './require-non-negative-integer.js';

/**
 * Validates `POST /v2/package-vetting/list` before it is sent: the `ListVettedPackagesRequest` schema and
 * `pageSize >= 0` (0 means the server maximum). The upper bound is the server's
 * (`features.packageFeature.maxVettedPackagesPageSize`) and is left to it.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateListVettedPackagesRequest(request: unknown): z.output<typeof ListVettedPackagesRequest> {
  const parsed = parseRequest(ListVettedPackagesRequest, request);
  requireNonNegativeInteger(parsed.pageSize, 'pageSize');
  return parsed;
}
