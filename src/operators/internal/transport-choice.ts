import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { Transport } from '../../updates/transport.js';
import type { UpdatesSource } from '../updates-source.js';
import { websocketUpdates } from './websocket-updates.js';

/** Which transport a read uses, and what it may still fall back to. */
export interface TransportChoice {
  /** The `transport` option as given. */
  readonly requested: Transport;
  /** The transport of the next request. */
  readonly current: Exclude<Transport, 'auto'>;
  /**
   * The transports to try, in order, if the participant refuses `current`: with `'auto'`, the ones after it
   * that the source offers; empty for an explicit transport, and once `current` has answered (the choice is
   * made once per subscription).
   */
  readonly fallbacks: readonly Exclude<Transport, 'auto'>[];
}

/**
 * The transport choice a read starts with: `'auto'` tries `websocket`, `page`, `list` in that order, each
 * only if the source offers it (`websocketUpdates`, `updatesPage`; `updates` always); an explicit transport is
 * used alone. `page` needs an `updateFormat` (the deprecated `filter` has no page request), so `'auto'`
 * skips it for a legacy filter. Throws `InvalidArgumentError('transport')` for an explicit transport the
 * source does not offer, or `page` with a legacy filter.
 */
export function initialTransportChoice(requested: Transport, source: UpdatesSource, hasUpdateFormat: boolean): TransportChoice {
  const offered: Exclude<Transport, 'auto'>[] = [];
  if (websocketUpdates(source)) offered.push('websocket');
  if (typeof source.updatesPage === 'function' && hasUpdateFormat) offered.push('page');
  offered.push('list');
  const why = requested === 'page' && !hasUpdateFormat ? 'needs an updateFormat (the deprecated filter cannot be paged)' : 'is not offered by this source';
  return transportChoiceAmong(requested, offered, why);
}

/**
 * The transport choice a read starts with among `offered` (in the order `'auto'` tries them; `list` last):
 * `'auto'` starts with the first and may fall back to the others, an explicit transport is used alone.
 * Throws `InvalidArgumentError('transport')` (`why` says why) for an explicit transport not offered.
 */
export function transportChoiceAmong(requested: Transport, offered: readonly Exclude<Transport, 'auto'>[], why = 'is not offered by this source'): TransportChoice {
  if (requested === 'auto') return { requested, current: offered[0] ?? 'list', fallbacks: offered.slice(1) };
  if (!offered.includes(requested)) throw new InvalidArgumentError('transport', `'${requested}' ${why}`);
  return { requested, current: requested, fallbacks: [] };
}
