import type { CantonErrorBody } from './canton-error-body.js';
import { errorCategory, type ErrorCategoryInfo } from './error-category.js';
import { LedgerRxError } from './ledger-rx-error.js';
import { parseRetryInfo } from './parse-retry-info.js';

/** What a {@link LedgerApiError} is built from. */
export interface LedgerApiErrorInit {
  /** HTTP status of the response. */
  readonly status: number;
  /** The parsed Canton error body, when the response had one. */
  readonly body?: CantonErrorBody | undefined;
  /** The raw body text, for responses that are not a Canton error (400 text/plain, 503 text/plain, 404 legacy). */
  readonly text?: string | undefined;
  /** `METHOD path` of the request. */
  readonly request?: string | undefined;
  /** The value of a `Retry-After` header, in milliseconds, if any. */
  readonly retryAfterHeaderMs?: number | undefined;
  /**
   * What the client can tell beyond the server's answer, appended to the message: for a redacted 403, the
   * rights the request needed and what the token says (see `forbiddenHint`, docs/client.md).
   */
  readonly hint?: string | undefined;
}

const retryableStatuses = new Set([429, 503, 504]);

/**
 * The server rejected a request. `code` is the Canton error code (`USER_NOT_FOUND`,
 * `OFFSET_AFTER_LEDGER_END`, ...), `NA` for a redacted security error, or `HTTP_<status>` when the body is
 * not a Canton error (for example the plain-text 400 the server sends for a body it cannot decode).
 *
 * Every field of the Canton body is kept, both as `body` and as a property. The Canton `cause` is
 * `cantonCause`, because `cause` is the standard `Error` chaining field.
 *
 * `retryable` follows the error category: categories 1, 2, 3 and 12 (and any error that carries
 * `retryInfo`), and bodiless 429, 503 and 504 responses.
 *
 * `hint` is the client's own explanation where the server's is redacted: a 403 names the rights the
 * request needed (`CanReadAs(Alice::1220…)`, `CanReadAsAnyParty`, `CanActAs(…)`, `ParticipantAdmin`) and what
 * the token says (its user, expiry, or the rights a custom-claims token lists). It is also at the end of
 * `message`; the ten Canton fields are unchanged.
 */
export class LedgerApiError extends LedgerRxError {
  override name = 'LedgerApiError';
  readonly status: number;
  readonly body: CantonErrorBody | undefined;
  readonly text: string | undefined;
  readonly request: string;
  readonly cantonCause: string;
  readonly correlationId: string | null;
  readonly traceId: string | null;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly string[])[];
  readonly errorCategory: number;
  readonly grpcCodeValue: number | null;
  readonly retryInfo: string | null;
  readonly definiteAnswer: boolean | null;
  /** The category, when `errorCategory` is a known id. */
  readonly category: ErrorCategoryInfo | undefined;
  /** How long the server asks us to wait before retrying (from `retryInfo` or `Retry-After`), in ms. */
  readonly retryAfterMs: number | undefined;
  /** What the client can tell about the failure beyond the server's answer (for a 403: the rights checked), if anything. */
  readonly hint: string | undefined;

  constructor(init: LedgerApiErrorInit) {
    const body = init.body;
    const code = body?.code ?? `HTTP_${init.status}`;
    const category = body ? errorCategory(body.errorCategory) : undefined;
    const retryAfterMs = parseRetryInfo(body?.retryInfo) ?? init.retryAfterHeaderMs;
    const retryable = body
      ? Boolean(category?.retryInfo) || body.retryInfo != null || (body.errorCategory === -1 && retryableStatuses.has(init.status) && body.code !== 'NA')
      : retryableStatuses.has(init.status);
    const detail = body ? body.cause : (init.text ?? '').trim().slice(0, 500);
    const where = init.request ? ` (${init.request} → ${init.status})` : ` (HTTP ${init.status})`;
    super(code, `${code}: ${detail}${where}${init.hint === undefined ? '' : `. ${init.hint}`}`, { retryable });
    this.status = init.status;
    this.body = body;
    this.text = init.text;
    this.request = init.request ?? '';
    this.cantonCause = body?.cause ?? detail;
    this.correlationId = body?.correlationId ?? null;
    this.traceId = body?.traceId ?? null;
    this.context = body?.context ?? {};
    this.resources = body?.resources ?? [];
    this.errorCategory = body?.errorCategory ?? -1;
    this.grpcCodeValue = body?.grpcCodeValue ?? null;
    this.retryInfo = body?.retryInfo ?? null;
    this.definiteAnswer = body?.definiteAnswer ?? null;
    this.category = category;
    this.retryAfterMs = retryAfterMs;
    this.hint = init.hint;
  }
}
