import { LedgerRxError } from '../../errors/ledger-rx-error.js';

/** Error names of the NATS client for failures that pass once the server or cluster is back. */
const passingNames = new Set(['TimeoutError', 'RequestError', 'NoRespondersError', 'JetStreamNotEnabled', 'ConnectionError', 'DrainingConnectionError']);

/**
 * JetStream API error codes that mean "not ready yet" while a cluster forms: no peers to place a replicated
 * stream on (10005) and not enough resources on the peers that are up (10023). After start-up they would
 * mean a misconfigured cluster, so only {@link jetStreamMayRecover} with `startingUp` counts them.
 */
const formingCodes = new Set([10005, 10023]);

/**
 * Whether a failed JetStream request may succeed when tried again: a timeout, "no responders" (nothing
 * captures the subject right now: a node restarting, a cluster electing its leaders), a lost or refused
 * connection, a 503 answer or a "no leader / not current / temporarily unavailable" refusal. With
 * `startingUp`, also the refusals of a cluster whose peers are not all up yet (see `formingCodes`).
 * Our own errors (`LedgerRxError`) never pass.
 */
export function jetStreamMayRecover(error: unknown, startingUp = false): boolean {
  if (!(error instanceof Error) || error instanceof LedgerRxError) return false;
  if (passingNames.has(error.name) || passingNames.has(error.constructor.name)) return true;
  const { code, status } = error as { code?: unknown; status?: unknown };
  if (code === 503 || status === 503) return true;
  if (startingUp && typeof code === 'number' && formingCodes.has(code)) return true;
  return /no responders|timeout|leader|not current|temporarily unavailable|connection refused/i.test(error.message);
}
