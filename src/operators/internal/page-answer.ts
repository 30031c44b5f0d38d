import { concatMap, defer, type Observable, type ObservableInput, type SchedulerLike } from 'rxjs';
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

/**
 * The answer of a strategy that asks for one page: `call` is made when subscribed; `open` gives the page's
 * elements and its bounds (what continues it, `undefined` after the last page), which `bounds()` returns from then on.
 */
export function pageAnswer<P, E, B>(call: () => ObservableInput<P>, open: (page: P) => { readonly elements: ObservableInput<E>; readonly bounds: B | undefined }): PageAnswer<E, B> {
  let bounds: B | undefined;
  const elements = defer(call).pipe(
    concatMap((page) => {
      const opened = open(page);
      bounds = opened.bounds;
      return opened.elements;
    }),
  );
  return { elements, bounds: () => bounds };
}
