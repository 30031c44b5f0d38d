const plain = /^[A-Za-z0-9_-]+$/;

/**
 * `text` as one NATS subject token: characters `A-Z a-z 0-9 _ -` stay, every other byte of its UTF-8
 * form becomes `%HH` (upper-case hex), so `.` (the token separator), `*` and `>` (wildcards), spaces and
 * `%` itself never reach the subject, and `decodeURIComponent` gives the text back. An empty text (not
 * a valid token) becomes `_`, which no Daml name is.
 *
 * ```
 * subjectToken('Main.Iou') === 'Main%2EIou'
 * subjectToken('my-pkg')   === 'my-pkg'
 * ```
 */
export function subjectToken(text: string): string {
  if (text === '') return '_';
  if (plain.test(text)) return text;
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
