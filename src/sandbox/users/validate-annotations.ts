import { annotationsWithinLimit } from './annotations-within-limit.js';
import { requestErrors } from '../errors/request-errors.js';

// The server's key grammar (Kubernetes-style): a name segment of letters, digits, `.`, `-`, `_` that starts
// and ends with a letter or digit; a prefix that is a DNS subdomain, upper case allowed.
const nameSegment = /^([a-zA-Z0-9]+[a-zA-Z0-9.\-_]*)?[a-zA-Z0-9]+$/;
const dnsLabel = '([a-zA-Z0-9]+[a-zA-Z0-9-]*)?[a-zA-Z0-9]+';
const prefixSegment = new RegExp(`^(${dnsLabel}[.])*${dnsLabel}$`);

/** The server's `shorten`: a text longer than 53 characters is cut to 50 and `...`. */
const shorten = (s: string) => (s.length > 53 ? `${s.slice(0, 50)}...` : s);

/** Java's `key.split('/')`: trailing empty parts are dropped (`a/` is `[a]`, `/` and `//` are `[]`). */
function splitKey(key: string): string[] {
  const parts = key.split('/');
  if (parts.length === 1) return parts;
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function nameProblem(name: string): string | undefined {
  if (name.length > 63) return `Key name segment '${shorten(name)}' exceeds maximum length of 63 characters`;
  return nameSegment.test(name) ? undefined : `Key name segment '${shorten(name)}' has invalid syntax`;
}

function prefixProblem(prefix: string): string | undefined {
  if (prefix.length > 253) return `Key prefix segment '${shorten(prefix)}' exceeds maximum length of 253 characters`;
  return prefixSegment.test(prefix) ? undefined : `Key prefix segment '${shorten(prefix)}' has invalid syntax`;
}

function keyProblem(key: string): string | undefined {
  const parts = splitKey(key);
  const [first, second] = parts;
  if (parts.length === 1 && first !== undefined) return nameProblem(first);
  if (parts.length === 2 && first !== undefined && second !== undefined) return prefixProblem(first) ?? nameProblem(second);
  return `Key '${shorten(key)}' contains more than one forward slash ('/') character`;
}

/**
 * Validates a request's `metadata.annotations` (users) or `localMetadata.annotations` (parties) as the
 * server's `ResourceAnnotationValidator` does (docs/server-behavior.md#user-update-validation-order step 4), in its order, each failure an
 * `INVALID_ARGUMENT` (400):
 *
 * 1. size: the entries with a non-empty value must fit 256 KiB (`annotationsWithinLimit`) — "annotations
 *    from field '<field>' are larger than the limit of 256kb";
 * 2. keys, each `[prefix/]name` split as Java's `split('/')` splits (trailing empty parts dropped): `name`
 *    at most 63 characters of letters, digits, `.`, `-`, `_`, starting and ending with a letter or digit;
 *    `prefix` a DNS subdomain (dot-separated labels of letters — either case —, digits and `-`) of at
 *    most 253 characters; more than two parts is "more than one forward slash";
 * 3. values: none empty, unless `allowEmptyValues` (updates, where `""` means "delete this key").
 *
 * Texts longer than 53 characters are shortened in the causes, as the server does.
 */
export function validateAnnotations(annotations: Readonly<Record<string, string>>, allowEmptyValues: boolean, field: string): void {
  const entries = Object.entries(annotations);
  if (!annotationsWithinLimit(Object.fromEntries(entries.filter(([, v]) => v !== '')))) {
    throw requestErrors.invalidArgument(`annotations from field '${field}' are larger than the limit of 256kb`);
  }
  for (const [key] of entries) {
    const problem = keyProblem(key);
    if (problem) throw requestErrors.invalidArgument(problem);
  }
  if (allowEmptyValues) return;
  for (const [key, value] of entries) {
    if (value === '') throw requestErrors.invalidArgument(`The value of an annotation is empty for key: '${shorten(key)}'`);
  }
}
