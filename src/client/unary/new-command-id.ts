import { randomUUID } from 'node:crypto';
import { InvalidArgumentError } from '../../errors/index.js';

const allowed = /^[A-Za-z0-9#:\-_/ ]*$/;

/**
 * A fresh command id: a random UUID, optionally after `<prefix>-` (e.g. `transfer-6f1c…`).
 *
 * Generate it ONCE per logical command and reuse it on every retry of that command: the server
 * deduplicates by change id (user id, `actAs` set, command id — see `changeId`), so a new id per attempt
 * would turn a retry into a second command.
 *
 * @param prefix - optional; letters, digits and `# : - _ / space` only (the ledger-string alphabet), at
 *   most 200 characters.
 * @throws InvalidArgumentError('prefix', …) for other characters or a longer prefix.
 */
export function newCommandId(prefix?: string): string {
  if (prefix === undefined || prefix === '') return randomUUID();
  if (!allowed.test(prefix) || prefix.length > 200) {
    throw new InvalidArgumentError('prefix', 'must use only letters, digits and # : - _ / space, at most 200 characters');
  }
  return `${prefix}-${randomUUID()}`;
}
