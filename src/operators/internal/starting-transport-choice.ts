import { catchError, defer, from, map, of, take, tap, type Observable, type SchedulerLike } from 'rxjs';
import type { Transport } from '../../updates/transport.js';
import type { TailStatus } from '../tail-status.js';

import type { TransportVersionInfo, UpdatesSource } from '../updates-source.js';
import type { TransportChoice } from './transport-choice.js';
import { recentWebSocketSetback } from './web-socket-setbacks.js';

/** The choice a read starts with, and why `'auto'` left transports out (for the `transport-selected` status). */
export interface StartingChoice {
  readonly choice: TransportChoice;
  readonly reason: string | undefined;
}

/** The transports that only some participant versions have: the version-table operation and the endpoint's name. */
export type VersionedTransports = Partial<Record<Exclude<Transport, 'auto'>, { readonly operation: 'updatesPage' | 'activeContractsPage'; readonly endpoint: string }>>;

/**
 * The `'auto'` chain without the transports `skip` gives a reason for — never the last one, which is the
 * read's ground to stand on — and those reasons; an explicit transport as it is. Pure.
 */
export function narrowTransportChoice(choice: TransportChoice, skip: (transport: Exclude<Transport, 'auto'>) => string | undefined): StartingChoice {
  if (choice.requested !== 'auto') return { choice, reason: undefined };
  const chain = [choice.current, ...choice.fallbacks];
  const kept: Exclude<Transport, 'auto'>[] = [];
  const reasons: string[] = [];
  chain.forEach((transport, i) => {
    const why = i === chain.length - 1 && kept.length === 0 ? undefined : skip(transport);
    if (why === undefined) kept.push(transport);
    else reasons.push(`${transport} skipped: ${why}`);
  });
  const [current = choice.current, ...fallbacks] = kept;
  return { choice: { requested: choice.requested, current, fallbacks }, reason: reasons.length === 0 ? undefined : reasons.join('; ') };
}

/** How a read's transport is chosen: its source (a client), its first choice, the transports only some versions have, the cool-off, the scheduler and the status channel. */
export interface ChoiceSettings {
  readonly source: object;
  readonly choice: TransportChoice;
  readonly versioned: VersionedTransports;
  readonly coolOffMs: number | undefined;
  readonly scheduler: SchedulerLike;
  readonly onStatus: ((status: TailStatus) => void) | undefined;
}

/**
 * The choice a read of `source` starts with (docs/transports.md, "How `auto` chooses"): with `'auto'`, the
 * chain without
 *
 * - the WebSocket while a read of the same client gave it up less than `coolOffMs` ago (scheduler time):
 *   the path did not carry it then, and waiting for its handshake again would only delay the read; after
 *   the cool-off it is tried again;
 * - a transport of `versioned` that the participant's version does not have (`source.participantVersion`,
 *   looked up only when such a transport is in the chain; a failed lookup leaves the chain as it is, and the
 *   refusal falls back).
 *
 * `source` is the client (the key of its WebSocket memory; its `participantVersion`, when it has one, as
 * `UpdatesSource`'s). `coolOffMs` defaults to {@link defaultWebSocketCoolOffMs}. Reports the choice to
 * `onStatus` (`transport-selected`, with the `reason` `'auto'` left transports out, if any), then emits it and
 * completes; an explicit transport is reported and emitted as it is, without lookups.
 */
export function startingTransportChoice(settings: ChoiceSettings): Observable<TransportChoice> {
  const { source, choice, versioned } = settings;
  const coolOffMs = settings.coolOffMs ?? defaultWebSocketCoolOffMs;
  const starting = defer(() => {
    if (choice.requested !== 'auto') return of<StartingChoice>({ choice, reason: undefined });
    const chain = [choice.current, ...choice.fallbacks];
    // any source (updates, snapshot, completions): a client offers `participantVersion` (UpdatesSource's)
    const read = (source as Pick<UpdatesSource, 'participantVersion'>).participantVersion;
    const version$: Observable<TransportVersionInfo | undefined> =
      typeof read === 'function' && chain.some((t) => versioned[t] !== undefined)
        ? defer(() => from(read.call(source))).pipe(
            take(1),
            catchError(() => of(undefined)),
          )
        : of(undefined);
    return version$.pipe(
      map((version) => {
        const now = settings.scheduler.now();
        const setback = recentWebSocketSetback(source, now, coolOffMs);
        return narrowTransportChoice(choice, (transport) => {
          if (transport === 'websocket' && setback !== undefined) {
            return `${setback.reason} ${now - setback.at} ms ago (tried again ${coolOffMs} ms after that)`;
          }
          const row = versioned[transport];
          if (row !== undefined && version !== undefined && !version.supports(row.operation)) return `participant ${version.version} has no ${row.endpoint}`;
          return undefined;
        });
      }),
    );
  });
  return starting.pipe(
    tap(({ choice: { current, requested }, reason }) => settings.onStatus?.({ type: 'transport-selected', transport: current, requested, ...(reason === undefined ? {} : { reason }) })),
    map(({ choice: chosen }) => chosen),
  );
}

/** The update reads' transport that only some versions have: `get-updates-page` (3.5 and later). */
export const updatesVersionedTransports: VersionedTransports = { page: { operation: 'updatesPage', endpoint: 'POST /v2/updates/get-updates-page' } };

/** The snapshot's transport that only some versions have: `active-contracts-page` (3.5 and later). */
export const snapshotVersionedTransports: VersionedTransports = { page: { operation: 'activeContractsPage', endpoint: 'GET /v2/state/active-contracts-page' } };

/** The default cool-off of a WebSocket that `'auto'` gave up (`webSocketCoolOffMs`): five minutes. */
export const defaultWebSocketCoolOffMs = 300_000;
