import type { Observable, SchedulerLike } from 'rxjs';
import type { UpdatesOptions } from '../../updates/updates-options.js';
import type { PageChain } from './page-chain.js';

/** The answer every transport strategy gives the read engine: the elements, cold (unsubscribing aborts), and once they completed what the answer said beyond them (the `get-updates-page` chain it continues, ...). */
export interface PageAnswer<E, B = PageChain> {
  readonly elements: Observable<E>;
  readonly bounds: () => B | undefined;
}

/** What the engine hands a strategy with the plan: its options (with the meter's `onBytes`), and `paused` (the handler is behind). */
export interface AnswerContext {
  readonly options: UpdatesOptions;
  readonly paused: Observable<boolean>;
  readonly scheduler: SchedulerLike;
}
