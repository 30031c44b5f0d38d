/**
 * A command-line usage mistake found by ledger-rx itself (a bad flag value, a missing or contradictory
 * flag). Commands exit with code 2 and print the message; nothing has been sent to the participant.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
