import type { Observable, ObservableInput } from 'rxjs';
import { fallBackTransport } from './fall-back-transport.js';
import type { ReadSpec } from './next-read-state.js';
import { startingTransportChoice, type ChoiceSettings } from './starting-transport-choice.js';
import type { TransportChoice } from './transport-choice.js';
import { rememberFallback } from './web-socket-setbacks.js';

/**
 * A read's decisions without its transport's: `start` composes its own look-ups with `chosen` (the starting
 * choice, made when subscribed); `reset` drops what a failed request leaves behind (a page chain).
 */
export type ChoosingSpec<S extends { readonly choice: TransportChoice }, E, R, B> = Omit<ReadSpec<S, E, R, B>, 'start' | 'transport' | 'failed'> & {
  start(chosen: Observable<TransportChoice>): ObservableInput<S>;
  reset?(state: S): S;
};

/**
 * The transport choice of every read on the engine (docs/transports.md): starts with the choice
 * `startingTransportChoice` makes (and reports), reads through `state.choice.current`, and once that
 * transport has answered (an element delivered, a page ended) keeps it for the subscription. After a failed
 * request, when the path or the participant does not carry the transport and a fallback is left
 * (`fallBackTransport`), remembers a given-up WebSocket for `source` (`rememberFallback`), reports
 * `transport-selected` with the refused transport and the reason, and asks again at once through the next
 * one; any other failure is left to the retry policy (after `reset`).
 */
export function withTransportChoice<S extends { readonly choice: TransportChoice }, E, R, B>(settings: ChoiceSettings, spec: ChoosingSpec<S, E, R, B>): ReadSpec<S, E, R, B> {
  const { source, scheduler, onStatus } = settings;
  const settled = (state: S): S => (state.choice.fallbacks.length === 0 ? state : { ...state, choice: { ...state.choice, fallbacks: [] } });
  return {
    ...spec,
    start: () => spec.start(startingTransportChoice(settings)),
    delivered: (state, offset, element) => settled(spec.delivered(state, offset, element)),
    pageEnd: (state, page) => {
      const next = spec.pageEnd(state, page);
      return next === null ? null : settled(next);
    },
    transport: (state) => state.choice.current,
    failed: (state, error) => {
      const reset = spec.reset?.(state) ?? state;
      const fallback = fallBackTransport(state.choice, error);
      if (fallback === undefined) return { state: reset, now: false };
      const { choice, reason } = fallback;
      rememberFallback(source, state.choice.current, reason, scheduler.now());
      onStatus?.({ type: 'transport-selected', transport: choice.current, requested: choice.requested, reason, refused: { transport: state.choice.current, error } });
      return { state: { ...reset, choice }, now: true };
    },
  };
}
