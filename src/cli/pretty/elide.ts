/**
 * `text` with its middle replaced by `…` when it is longer than `head + tail + 1` characters: the first
 * `head` and the last `tail` characters are kept (`elide('0123456789abcdef', 4, 4)` is `0123…cdef`).
 * Meant for identifiers (hex fingerprints, contract and update ids), which are ASCII.
 */
export function elide(text: string, head: number, tail: number): string {
  if (text.length <= head + tail + 1) return text;
  return `${text.slice(0, head)}…${tail > 0 ? text.slice(-tail) : ''}`;
}
