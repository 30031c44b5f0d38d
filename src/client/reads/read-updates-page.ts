import type { z } from 'zod';
import { JsGetUpdatesPageResponse, type JsGetUpdatesResponse } from '../../schemas/index.js';
import { lazySchema } from '../../schemas/lazy-schema.js';
import { wireObject } from '../../schemas/wire-object.js';
import type { UpdatesPage } from '../../updates/updates-page.js';
import type { HttpCall, HttpTransport } from '../http/create-http-transport.js';
import { readPage } from './read-page.js';

const PageBounds = lazySchema(
  () => wireObject(JsGetUpdatesPageResponse).omit({ updates: true }) as unknown as z.ZodType<Omit<JsGetUpdatesPageResponse, 'updates'>>,
);

/**
 * Sends one `POST /v2/updates/get-updates-page` and reads its answer as it arrives (`readPage`): each element
 * of `updates` goes through `decode` (an `updateElementDecoder`: validation, the order check against the
 * request, `rawText`; one decoder for the pages of a walk checks the order across them) while the body
 * streams in; the bounds and `nextPageToken` are checked against the schema when `validate` is set (else
 * only their types are trusted). `call.cancel` cancels it without counting as the caller's abort.
 *
 * Resolves with the page (an empty `nextPageToken` reads as none). Rejects as `readPage` does.
 */
export async function readUpdatesPage(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal'>,
  decode: (value: unknown, index: number, text: string | undefined) => JsGetUpdatesResponse,
  validate: boolean,
  signal: AbortSignal | undefined,
  onBytes: ((bytes: number) => void) | undefined,
): Promise<UpdatesPage> {
  const { elements, members } = await readPage(
    transport,
    call,
    { arrayKey: 'updates', decode, members: PageBounds, component: 'JsGetUpdatesPageResponse', validate },
    signal,
    onBytes,
  );
  const token = members.nextPageToken;
  return {
    updates: elements,
    lowestPageOffsetExclusive: members.lowestPageOffsetExclusive,
    highestPageOffsetInclusive: members.highestPageOffsetInclusive,
    nextPageToken: typeof token === 'string' && token !== '' ? token : undefined,
  };
}
