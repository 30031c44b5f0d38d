import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { UpdatesSource } from '../updates-source.js';
import type { AnswerContext, PageAnswer, StreamSettings } from './page-answer.js';
import type { PagePlan } from './page-plan.js';
import { pageTokenAnswer } from './page-token-answer.js';
import { websocketAnswer } from './websocket-answer.js';

/**
 * The transport strategies of the update reads, by the plan's transport: `websocket` (`websocketAnswer`),
 * `page` (`pageTokenAnswer`), or `list` (one `POST /v2/updates` through `source.updates()`, no bounds).
 */
export function updatesAnswer(source: UpdatesSource, stream: StreamSettings): (plan: PagePlan, context: AnswerContext) => PageAnswer<JsGetUpdatesResponse> {
  return (plan, context) => {
    switch (plan.transport ?? 'list') {
      case 'websocket':
        return websocketAnswer(source, plan, context, stream);
      case 'page':
        return pageTokenAnswer(source, plan, context);
      default:
        return { elements: source.updates(plan.request, context.options), bounds: () => undefined };
    }
  };
}
