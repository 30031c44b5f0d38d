import type { z } from 'zod';
import { JsGetUpdatesPageResponse } from '../../schemas/index.js';
import { lazySchema } from '../../schemas/lazy-schema.js';
import { wireObject } from '../../schemas/wire-object.js';
import type { UpdateDecoding } from '../../updates/update-decoding.js';
import { updateElementDecoder } from '../../updates/update-element-decoder.js';
import type { HttpCall, HttpTransport } from '../http/create-http-transport.js';
import { readPage } from './read-page.js';
import type { UpdatesPage } from './updates-page.js';

const PageBounds = lazySchema(
  () => wireObject(JsGetUpdatesPageResponse).omit({ updates: true }) as unknown as z.ZodType<Omit<JsGetUpdatesPageResponse, 'updates'>>,
);

/**
 * Sends one `POST /v2/updates/get-updates-page` and reads its answer as it arrives (`readPage`): each element
 * of `updates` goes through `updateElementDecoder` (validation, the order check against the request,
 * `rawText`) while the body streams in; the bounds and `nextPageToken` are checked against the schema when
 * `decoding.validate` is set (else only their types are trusted).
 *
 * Resolves with the page (an empty `nextPageToken` reads as none). Rejects as `readPage` does.
 */
export async function readUpdatesPage(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal' | 'cancel'>,
  decoding: UpdateDecoding,
  signal: AbortSignal | undefined,
  onBytes: ((bytes: number) => void) | undefined,
): Promise<UpdatesPage> {
  const { elements, members } = await readPage(
    transport,
    call,
    { arrayKey: 'updates', decode: updateElementDecoder(decoding), members: PageBounds, component: 'JsGetUpdatesPageResponse', validate: decoding.validate },
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
