const maxBytes = 256 * 1024;

/**
 * True when an annotations map fits the server's limit for one resource: at most 256 KiB (262 144 bytes),
 * counting the UTF-8 bytes of every key and every value.
 */
export function annotationsWithinLimit(annotations: Readonly<Record<string, string>>): boolean {
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(v, 'utf8');
  return size <= maxBytes;
}
