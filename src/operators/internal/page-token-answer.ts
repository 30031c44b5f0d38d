import { concatMap, defer, from, throwError } from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { UpdatesSource } from '../updates-source.js';
import { decodingOf, type AnswerContext, type PageAnswer, type PageBounds } from './page-answer.js';
import type { PagePlan } from './page-plan.js';

/**
 * The `get-updates-page` strategy: one `updatesPage()` call with the plan's `pageRequest` (the chain's
 * offsets and token); its updates are the elements, its `highestPageOffsetInclusive` and `nextPageToken`
 * the bounds.
 */
export function pageTokenAnswer(source: UpdatesSource, plan: PagePlan, context: AnswerContext): PageAnswer<JsGetUpdatesResponse> {
  let bounds: PageBounds | undefined;
  const request = plan.pageRequest;
  if (!source.updatesPage || !request) return { elements: throwError(() => new TypeError('the source has no updatesPage()')), bounds: () => undefined };
  const read = source.updatesPage.bind(source);
  const elements = defer(() => from(read(request, decodingOf(context.options)))).pipe(
    concatMap((page) => {
      bounds = { highestPageOffsetInclusive: page.highestPageOffsetInclusive, nextPageToken: page.nextPageToken };
      return from(page.updates);
    }),
  );
  return { elements, bounds: () => bounds };
}
