import type { z } from 'zod';
import { ErrorCodes, ProtocolError } from '../../errors/index.js';
import { readJsonEnvelopeBody } from '../../streams/index.js';
import { cancelReason } from '../http/cancel-reason.js';
import type { HttpCall, HttpTransport } from '../http/create-http-transport.js';

/** How {@link readPage} reads one page answer. */
export interface PageReading<T, B extends z.ZodType> {
  /** The member holding the page's elements (`updates`, `activeContracts`). */
  readonly arrayKey: string;
  /** Decodes each element of that member as it arrives (validation, checks, `rawText`); throws to fail the page. */
  readonly decode: (value: unknown, index: number, text: string | undefined) => T;
  /** The schema of the page's other members (its bounds, offset, `nextPageToken`), and the component's name. */
  readonly members: B;
  readonly component: string;
  /** Check the other members against `members` (else their types are trusted). */
  readonly validate: boolean;
}

/**
 * Sends one call answered by a page object (`POST /v2/updates/get-updates-page`, `GET
 * /v2/state/active-contracts-page`) and reads the answer as it arrives: each element of the array member goes
 * through `reading.decode` while the body streams in, so the page is never held as one text; the other members
 * are parsed whole and, with `reading.validate`, checked against `reading.members`. `call.cancel` (optional)
 * cancels it without counting as the caller's abort (an unsubscribed read).
 *
 * Resolves with the decoded elements, the other members, and the `nextPageToken` (an empty one reads as none). Rejects like `HttpTransport.open` (the HTTP error
 * of a non-2xx answer), with the streams layer's `TransportError`/`ProtocolError` for a broken body, what
 * `decode` throws, and `ProtocolError` `SCHEMA_MISMATCH` for members that do not match the schema.
 * `AbortError` when `signal` fired or the client was closed. The request's span ends with the page (its
 * elements, whether a next page exists) or the error.
 */
export async function readPage<T, B extends z.ZodType>(
  transport: HttpTransport,
  call: Omit<HttpCall, 'signal'>,
  reading: PageReading<T, B>,
  signal: AbortSignal | undefined,
  onBytes: ((bytes: number) => void) | undefined,
): Promise<{ readonly elements: T[]; readonly members: z.output<B>; readonly nextPageToken: string | undefined }> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort(cancelReason);
  call.cancel?.addEventListener('abort', cancel, { once: true });
  if (call.cancel?.aborted) cancel();
  const response = await transport.open({ ...call, signal, cancel: controller.signal }).catch((error: unknown) => {
    call.cancel?.removeEventListener('abort', cancel);
    throw error;
  });
  try {
    const { elements, members } = await readJsonEnvelopeBody(response.body, reading.arrayKey, reading.decode, onBytes ? { onBytes } : {});
    const raw: Record<string, unknown> = Object.fromEntries(members);
    let checked = raw as z.output<B>;
    if (reading.validate) {
      const result = reading.members.safeParse(raw);
      if (!result.success) {
        const issues = result.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
        const first = issues[0];
        throw new ProtocolError(
          ErrorCodes.SCHEMA_MISMATCH,
          `${call.method} ${call.path}: the page does not match ${reading.component}${first ? ` at ${first.path.join('.') || '$'}: ${first.message}` : ''}`,
          { issues, cause: result.error },
        );
      }
      checked = result.data;
    }
    const token = raw['nextPageToken'];
    const nextPageToken = typeof token === 'string' && token !== '' ? token : undefined;
    response.trace.end({ status: response.status, attributes: { 'ledger_rx.elements': elements.length, 'ledger_rx.next_page': nextPageToken !== undefined } });
    return { elements, members: checked, nextPageToken };
  } catch (error) {
    const mapped = response.mapError(error);
    response.trace.end({ status: response.status, error: mapped });
    throw mapped;
  } finally {
    call.cancel?.removeEventListener('abort', cancel);
    controller.abort(cancelReason);
  }
}
