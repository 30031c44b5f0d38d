import type { TransportChoice } from './transport-choice.js';
import { transportRefusal } from './transport-refused.js';

/** A fallback: the choice to go on with, and why the transport before it was given up (`transportRefusal`). */
export interface TransportFallback {
  readonly choice: TransportChoice;
  readonly reason: string;
}

/**
 * The choice after a request of `choice.current` failed with `error`: the next fallback, at once, when the
 * path or the participant does not carry the transport (`transportRefusal`: a refusal, a version without
 * the endpoint, a WebSocket handshake without an answer or answered by a proxy) and one is left; else
 * `undefined` (the failure is an ordinary one, for the retry policy). Pure.
 */
export function fallBackTransport(choice: TransportChoice, error: unknown): TransportFallback | undefined {
  const [next, ...rest] = choice.fallbacks;
  if (next === undefined) return undefined;
  const reason = transportRefusal(error, choice.current);
  if (reason === undefined) return undefined;
  return { choice: { requested: choice.requested, current: next, fallbacks: rest }, reason };
}
