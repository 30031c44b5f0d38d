import { ErrorCodes, ProtocolError } from '../errors/index.js';
import { JsGetUpdatesPageResponse } from '../schemas/index.js';
import { readJsonEnvelopeBody } from '../streams/index.js';
import type { UpdateDecoding } from '../updates/update-decoding.js';
import { updateElementDecoder } from '../updates/update-element-decoder.js';
import { cancelReason } from './cancel-reason.js';
import type { HttpCall, HttpTransport } from './create-http-transport.js';
import type { UpdatesPage } from './updates-page.js';

const PageBounds = JsGetUpdatesPageResponse.omit({ updates: true });

/**
 * Sends one `POST /v2/updates/get-updates-page` and reads its answer as it arrives: each element of
 * `updates` goes through `updateElementDecoder` (validation, the order check against the request, `rawText`)
 * while the body streams in, so the page is never held as one text; the bounds and `nextPageToken` are
 * checked against the schema when `decoding.validate` is set (else only their types are trusted).
 *
 * Resolves with the page. Rejects like `HttpTransport.open` (the HTTP error of a non-2xx answer), with the
 * streams layer's `TransportError`/`ProtocolError` for a broken body, the decoder's errors, and
 * `ProtocolError` `SCHEMA_MISMATCH` for bounds that do not match the schema. `AbortError` when `signal`
 * fired or the client was closed.
 */
export async function readUpdatesPage(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal' | 'cancel'>,
  decoding: UpdateDecoding,
  signal: AbortSignal | undefined,
  onBytes: ((bytes: number) => void) | undefined,
): Promise<UpdatesPage> {
  const controller = new AbortController();
  const response = await transport.open({ ...call, signal, cancel: controller.signal });
  try {
    const { elements, members } = await readJsonEnvelopeBody(response.body, 'updates', updateElementDecoder(decoding), onBytes ? { onBytes } : {});
    let bounds: Record<string, unknown> = Object.fromEntries(members);
    if (decoding.validate) {
      const result = PageBounds.safeParse(bounds);
      if (!result.success) {
        const issues = result.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
        const first = issues[0];
        throw new ProtocolError(
          ErrorCodes.SCHEMA_MISMATCH,
          `${call.method} ${call.path}: the page does not match JsGetUpdatesPageResponse${first ? ` at ${first.path.join('.') || '$'}: ${first.message}` : ''}`,
          { issues, cause: result.error },
        );
      }
      bounds = result.data;
    }
    const token = bounds['nextPageToken'];
    return {
      updates: elements,
      lowestPageOffsetExclusive: bounds['lowestPageOffsetExclusive'] as number,
      highestPageOffsetInclusive: bounds['highestPageOffsetInclusive'] as number,
      nextPageToken: typeof token === 'string' && token !== '' ? token : undefined,
    };
  } catch (error) {
    throw response.mapError(error);
  } finally {
    controller.abort(cancelReason);
  }
}
