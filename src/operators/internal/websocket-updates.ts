import type { Observable } from 'rxjs';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { UpdatesOptions } from '../../updates/updates-options.js';
import type { UpdatesSource } from '../updates-source.js';

/**
 * How a source reads updates over a WebSocket, or `undefined` when it cannot: `updates(request, { transport:
 * 'websocket' })` when its `transports` list `websocket`, else the deprecated `streamUpdates()` of a source
 * written for the previous release (removed with it in the next minor).
 */
export function websocketUpdates(source: UpdatesSource): ((request: GetUpdatesRequest, options: UpdatesOptions) => Observable<JsGetUpdatesResponse>) | undefined {
  if (source.transports?.includes('websocket')) return (request, options) => source.updates(request, { ...options, transport: 'websocket' });
  return source.streamUpdates?.bind(source);
}
