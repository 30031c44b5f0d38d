import type { TransportChoice } from './transport-choice.js';
import { transportRefused } from './transport-refused.js';

/**
 * The choice after a request of `choice.current` failed with `error`: the next fallback when the participant
 * refused the transport (`transportRefused`) and one is left, else `undefined` (the failure is an ordinary
 * one, for the retry policy). Pure.
 */
export function fallBackTransport(choice: TransportChoice, error: unknown): TransportChoice | undefined {
  const [next, ...rest] = choice.fallbacks;
  if (next === undefined || !transportRefused(error)) return undefined;
  return { requested: choice.requested, current: next, fallbacks: rest };
}
