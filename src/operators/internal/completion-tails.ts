import type { Transport } from '../../updates/transport.js';
import { concatMap, shareReplay, Subject, Subscription, tap, type Observable, type SchedulerLike } from 'rxjs';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { CompletionStreamResponse } from '../../schemas/index.js';
import type { CompletionsSource } from '../completions-source.js';
import { tailCompletions } from '../tail-completions.js';
import { resolveOffset } from './resolve-offset.js';

/** How the completion streams of a {@link completionTails} pool are read and kept. */
export interface CompletionTailsConfig {
  readonly endpoint?: 'command-completions' | 'completions' | undefined;
  readonly transport?: Extract<Transport, 'websocket' | 'list' | 'auto'> | undefined;
  readonly retry?: RetryConfig | false | undefined;
  readonly scheduler: SchedulerLike;
  /**
   * How long a stream stays open after its last user released it, in ms (on `scheduler`), so that the next
   * command of the same parties joins it instead of opening another: `Infinity` keeps it until `close()`.
   */
  readonly lingerMs: number;
  /** Called when the pool's last stream stopped (it holds nothing then). */
  readonly onEmpty?: (() => void) | undefined;
}

/** One party set's completion stream as a user holds it. */
export interface CompletionTail {
  /** Emits (and replays) the offset the stream reads after: the ledger end read when the stream started. */
  readonly begin: Observable<number>;
  /** The stream's elements, hot; errors when the stream fails for good (or the ledger end could not be read). */
  readonly elements: Observable<CompletionStreamResponse>;
  /** The user no longer needs the stream (idempotent). */
  release(): void;
}

/** A pool of completion streams, one per party set, shared by the commands in flight with it. */
export interface CompletionTails {
  /** The stream of `parties` (as a set), started (ledger end first) if none is open or lingering. */
  acquire(parties: readonly string[]): CompletionTail;
  /** Stops every stream now. */
  close(): void;
}

interface Entry {
  readonly begin: Observable<number>;
  readonly elements: Subject<CompletionStreamResponse>;
  subscription: Subscription;
  users: number;
  lingering: Subscription | undefined;
}

/**
 * The completion streams of `trackCommands` and `submitAndTrack`: per party set one `tailCompletions` after
 * the ledger end read when it started, its elements multicast. A command joins the open stream of its parties
 * (no race: the stream reads from an offset before the command is submitted, so its completion cannot pass
 * unseen) or starts one. A stream that fails for good leaves the pool (its users see the error; the next
 * `acquire` starts afresh); one without users closes after `lingerMs`, unless a user comes back first.
 */
export function completionTails(source: CompletionsSource, config: CompletionTailsConfig): CompletionTails {
  const entries = new Map<string, Entry>();
  const stop = (key: string, entry: Entry): void => {
    entry.lingering?.unsubscribe();
    entry.lingering = undefined;
    entry.subscription.unsubscribe();
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    if (entries.size === 0) config.onEmpty?.();
  };

  const start = (key: string, parties: readonly string[]): Entry => {
    const begin = resolveOffset('ledger-end', source, undefined).pipe(shareReplay(1));
    const entry: Entry = { begin, elements: new Subject<CompletionStreamResponse>(), subscription: Subscription.EMPTY, users: 0, lingering: undefined };
    entries.set(key, entry);
    entry.subscription = begin
      .pipe(
        concatMap((offset) =>
          tailCompletions(source, {
            parties,
            beginExclusive: offset,
            scheduler: config.scheduler,
            ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
            ...(config.transport === undefined ? {} : { transport: config.transport }),
            ...(config.retry === undefined ? {} : { retry: config.retry }),
          }),
        ),
        // failed for good: forgotten at once, so that the next command of these parties starts a new stream
        tap({ error: () => stop(key, entry) }),
      )
      .subscribe(entry.elements);
    return entry;
  };

  return {
    acquire(parties) {
      const sorted = [...new Set(parties)].sort();
      const key = sorted.join('\n');
      const entry = entries.get(key) ?? start(key, sorted);
      entry.users++;
      entry.lingering?.unsubscribe();
      entry.lingering = undefined;
      let released = false;
      return {
        begin: entry.begin,
        elements: entry.elements,
        release: () => {
          if (released) return;
          released = true;
          if (--entry.users > 0 || entries.get(key) !== entry || config.lingerMs === Infinity) return;
          entry.lingering = config.scheduler.schedule(() => {
            if (entry.users === 0) stop(key, entry);
          }, config.lingerMs);
        },
      };
    },
    close() {
      for (const [key, entry] of [...entries]) stop(key, entry);
    },
  };
}
