import type { TailStatus } from '../tail-status.js';
import { fallBackTransport } from './fall-back-transport.js';
import type { TransportChoice } from './transport-choice.js';
import { rememberFallback } from './web-socket-setbacks.js';

/**
 * A read's `failed` step for `'auto'` (docs/transports.md): when the request of `choice.current` failed with
 * a refusal and a fallback is left (`fallBackTransport`), remembers a given-up WebSocket for `source` at `now`
 * (`rememberFallback`), reports `transport-selected` with the refused transport and the reason, and returns
 * the choice to go on with; else returns `undefined` and does nothing (the failure is for the retry policy).
 */
export function takeFallback(source: object, choice: TransportChoice, error: unknown, now: number, onStatus: ((status: TailStatus) => void) | undefined): TransportChoice | undefined {
  const fallback = fallBackTransport(choice, error);
  if (fallback === undefined) return undefined;
  const { choice: next, reason } = fallback;
  rememberFallback(source, choice.current, reason, now);
  onStatus?.({ type: 'transport-selected', transport: next.current, requested: next.requested, reason, refused: { transport: choice.current, error } });
  return next;
}
