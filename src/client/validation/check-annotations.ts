import { InvalidArgumentError } from '../../errors/index.js';
import { quoteValue } from './quote-value.js';

const maxBytes = 256 * 1024;
const namePart = /^([A-Za-z0-9]+[A-Za-z0-9._-]*)?[A-Za-z0-9]+$/;
const dnsLabel = '([A-Za-z0-9]+[A-Za-z0-9-]*)?[A-Za-z0-9]+';
const prefixPart = new RegExp(`^(${dnsLabel}[.])*${dnsLabel}$`);

/** UTF-8 length as the server's Java `getBytes(UTF_8)` counts it (an unpaired surrogate becomes one `?`). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) bytes += 1;
    else bytes += 3;
  }
  return bytes;
}

/** Java's `key.split('/')`: trailing empty parts are dropped (so `a/` is the key `a`, and `/` has no part). */
function splitKey(key: string): string[] {
  const parts = key.split('/');
  if (parts.length === 1) return parts;
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function keyProblem(key: string): string | undefined {
  const parts = splitKey(key);
  const name = parts.length === 1 ? parts[0] : parts.length === 2 ? parts[1] : undefined;
  const prefix = parts.length === 2 ? parts[0] : undefined;
  if (name === undefined) return `key ${quoteValue(key)} has more than one '/'`;
  if (prefix !== undefined) {
    if (prefix.length > 253) return `the prefix of key ${quoteValue(key)} is longer than 253 characters`;
    if (!prefixPart.test(prefix)) return `the prefix of key ${quoteValue(key)} is not a DNS subdomain (dot-separated letters, digits and '-')`;
  }
  if (name.length > 63) return `the name of key ${quoteValue(key)} is longer than 63 characters`;
  if (!namePart.test(name)) {
    return `the name of key ${quoteValue(key)} is not 1 to 63 letters, digits, '.', '-' and '_', starting and ending with a letter or digit`;
  }
  return undefined;
}

/**
 * Checks the `metadata.annotations` of a request the way the server does before looking at its state
 * (docs/server-behavior.md#user-update-validation-order step 4), in its order:
 *
 * 1. size: the UTF-8 bytes of every key and value, counting only entries with a non-empty value, at most
 *    256 KiB (262 144 bytes);
 * 2. keys: `[prefix/]name`, `name` 1 to 63 characters of letters, digits, `.`, `-`, `_` that starts and
 *    ends with a letter or digit, `prefix` a DNS subdomain of at most 253 characters;
 * 3. values non-empty, unless `allowEmptyValues` (updates, where `""` deletes the key).
 *
 * The server answers `INVALID_ARGUMENT` for each. The size after merging with the stored annotations is
 * checked by the server only (`MAX_USER_ANNOTATIONS_SIZE_EXCEEDED`).
 *
 * @param annotations - the annotations map (`null`/`undefined` count as empty).
 * @param allowEmptyValues - true for updates.
 * @param field - the JSON path of the map, reported in the error.
 * @throws InvalidArgumentError(field, …) naming the offending key.
 */
export function checkAnnotations(
  annotations: Readonly<Record<string, string>> | null | undefined,
  allowEmptyValues: boolean,
  field: string,
): void {
  const entries = Object.entries(annotations ?? {});
  let size = 0;
  for (const [key, value] of entries) if (value !== '') size += utf8Length(key) + utf8Length(value);
  if (size > maxBytes) throw new InvalidArgumentError(field, `are ${size} bytes, larger than the limit of 256kb (${maxBytes} bytes)`);
  for (const [key] of entries) {
    const problem = keyProblem(key);
    if (problem !== undefined) throw new InvalidArgumentError(field, problem);
  }
  if (!allowEmptyValues) {
    for (const [key, value] of entries) {
      if (value === '') throw new InvalidArgumentError(field, `the value of key ${quoteValue(key)} is empty`);
    }
  }
}
