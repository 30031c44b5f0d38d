import { randomUUID } from 'node:crypto';

/**
 * A fresh submission id (a random UUID). Unlike the command id, the submission id identifies one
 * ATTEMPT: use a new one per (re)submission so its completion can be told apart; the server reports it as
 * `correlationId` of errors. Without one the server generates its own.
 */
export function newSubmissionId(): string {
  return randomUUID();
}
