import { annotationsWithinLimit } from './annotations-within-limit.js';
import { requestErrors } from '../ledger/request-errors.js';

const namePart = /^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$/;
const dnsLabel = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const prefixPart = new RegExp(`^${dnsLabel}(\\.${dnsLabel})*$`);

function keyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `Key '${key}' contains more than one forward slash`;
  const name = parts.at(-1) as string;
  const prefix = parts.length === 2 ? (parts[0] as string) : undefined;
  if (prefix !== undefined && (prefix.length > 253 || !prefixPart.test(prefix))) return `Key prefix segment '${prefix}' has invalid syntax`;
  if (!namePart.test(name)) return `Key name segment '${name}' has invalid syntax`;
  return undefined;
}

/**
 * Validates a request's `metadata.annotations` as the server does (server-behavior §7.2 step 4), failing with
 * `INVALID_ARGUMENT` (400): a key must be `[prefix/]name` — `name` 1–63 characters of letters, digits, `-`,
 * `_`, `.`, starting and ending alphanumeric; `prefix` a DNS subdomain of at most 253 characters; an empty
 * value is refused unless `allowEmptyValues` (updates, where `""` means "delete this key"); the whole map
 * must fit 256 KiB (`annotationsWithinLimit`).
 */
export function validateAnnotations(annotations: Readonly<Record<string, string>>, allowEmptyValues: boolean, field: string): void {
  for (const [key, value] of Object.entries(annotations)) {
    const problem = keyProblem(key);
    if (problem) throw requestErrors.invalidArgument(problem);
    if (!allowEmptyValues && value === '') throw requestErrors.invalidArgument(`The value of an annotation is empty for key: '${key}'`);
  }
  if (!annotationsWithinLimit(annotations)) {
    throw requestErrors.invalidArgument(`annotations from field '${field}' are larger than the limit of 256kb`);
  }
}
