import type { CantonErrorJson } from './canton-error-json.js';
import { categoryRule } from './category-rules.js';
import { grpcHttpStatus } from './grpc-http-status.js';
import type { ErrorDef } from './error-defs.js';

/** Where a Canton error body came from, which decides its shape (docs/server-behavior.md#error-body). */
type Provenance = 'grpc' | 'json-layer';

interface CantonSpec {
  readonly kind: 'canton';
  readonly def: ErrorDef;
  readonly cause: string;
  readonly provenance: Provenance;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly [string, string])[];
  readonly correlationId: string | undefined;
  readonly status: number | undefined;
}

interface RedactedSpec {
  readonly kind: 'redacted';
  readonly grpcCode: 7 | 16;
  readonly context: Readonly<Record<string, string>>;
}

interface TextSpec {
  readonly kind: 'text';
  readonly status: number;
  readonly text: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface LegacyNotFoundSpec {
  readonly kind: 'legacy-404';
  readonly method: string;
  readonly uri: string;
}

type Spec = CantonSpec | RedactedSpec | TextSpec | LegacyNotFoundSpec;

/** The HTTP answer an error turns into. */
export interface ErrorResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Options of a Canton error. */
export interface CantonErrorOptions {
  /** Error-specific context keys (`field_name`, `earliest_offset`, ...). */
  readonly context?: Readonly<Record<string, string>>;
  /** `[type, value]` pairs, e.g. `[['USER', 'bob']]`. */
  readonly resources?: readonly (readonly [string, string])[];
  /** For gRPC errors: the correlation id when it differs from the trace id (command submissions). */
  readonly correlationId?: string;
  /** Overrides the HTTP status derived from the category (only the 413 list overflow needs this). */
  readonly status?: number;
}

/**
 * An error a sandbox handler throws; the server turns it into exactly the response the real participant
 * gives. Build it with the static factories:
 *
 * - {@link SandboxError.grpc}: an error raised by the participant's gRPC services (the usual case). Its body
 *   has `context` with `participant`, `category`, `tid` and `definite_answer`, `definiteAnswer: null`, and
 *   `correlationId: null` unless given.
 * - {@link SandboxError.jsonLayer}: an error raised by the JSON layer itself (user id mismatch, list
 *   overflow, transcoding): `context` is only the error's own, `definiteAnswer: false`, `correlationId` =
 *   the trace id.
 * - {@link SandboxError.redacted}: the security-sensitive 401/403 with `code: "NA"`.
 * - {@link SandboxError.decodeFailure}: the 400 `text/plain` answer to a body the server cannot decode.
 * - {@link SandboxError.text} and {@link SandboxError.legacyNotFound}: other non-Canton answers.
 */
export class SandboxError extends Error {
  override name = 'SandboxError';
  readonly spec: Spec;

  private constructor(spec: Spec, message: string) {
    super(message);
    this.spec = spec;
  }

  static grpc(def: ErrorDef, cause: string, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.canton('grpc', def, cause, options);
  }

  static jsonLayer(def: ErrorDef, cause: string, options: CantonErrorOptions = {}): SandboxError {
    return SandboxError.canton('json-layer', def, cause, options);
  }

  private static canton(provenance: Provenance, def: ErrorDef, cause: string, options: CantonErrorOptions): SandboxError {
    return new SandboxError(
      {
        kind: 'canton',
        def,
        cause,
        provenance,
        context: options.context ?? {},
        resources: options.resources ?? [],
        correlationId: options.correlationId,
        status: options.status,
      },
      `${def.code}: ${cause}`,
    );
  }

  /** PERMISSION_DENIED (403, grpc 7) or UNAUTHENTICATED (401, grpc 16), redacted. */
  static redacted(grpcCode: 7 | 16, context: Readonly<Record<string, string>> = {}): SandboxError {
    return new SandboxError({ kind: 'redacted', grpcCode, context }, grpcCode === 7 ? 'PERMISSION_DENIED' : 'UNAUTHENTICATED');
  }

  /** The 400 text/plain answer to an undecodable body: `Invalid value for: body (<detail>)`. */
  static decodeFailure(detail: string, what = 'body'): SandboxError {
    const text = `Invalid value for: ${what}${detail ? ` (${detail})` : ''}`;
    return new SandboxError({ kind: 'text', status: 400, text, headers: {} }, text);
  }

  static text(status: number, text: string, headers: Readonly<Record<string, string>> = {}): SandboxError {
    return new SandboxError({ kind: 'text', status, text, headers }, text);
  }

  /** The legacy 404 body of an unknown route. */
  static legacyNotFound(method: string, uri: string): SandboxError {
    return new SandboxError({ kind: 'legacy-404', method, uri }, `no route ${method} ${uri}`);
  }

  /** The Canton error body this error produces for a request with `traceId`, or `undefined` for text answers. */
  body(traceId: string, participant: string): CantonErrorJson | undefined {
    const s = this.spec;
    if (s.kind === 'redacted') {
      return {
        code: 'NA',
        cause: 'A security-sensitive error has been received',
        correlationId: traceId,
        traceId,
        context: { ...s.context },
        resources: [],
        errorCategory: -1,
        grpcCodeValue: s.grpcCode,
        retryInfo: null,
        definiteAnswer: null,
      };
    }
    if (s.kind !== 'canton') return undefined;
    const rule = categoryRule(s.def.category);
    const grpcCode = rule?.grpcCode ?? 2;
    const common = {
      code: s.def.code,
      cause: s.cause,
      traceId,
      resources: s.resources.map(([t, v]): readonly [string, string] => [t, v]),
      errorCategory: s.def.category,
      grpcCodeValue: grpcCode,
      retryInfo: rule?.retryInfo ?? null,
    };
    if (s.provenance === 'json-layer') {
      return { ...common, correlationId: traceId, context: { ...s.context }, definiteAnswer: false };
    }
    return {
      ...common,
      correlationId: s.correlationId ?? null,
      context: {
        participant,
        ...s.context,
        category: String(s.def.category),
        definite_answer: 'false',
        tid: traceId,
      },
      definiteAnswer: null,
    };
  }

  /**
   * The error as a WebSocket error frame of a stream with `traceId`: the same ten fields as an HTTP error
   * body. gRPC-side and redacted errors carry the stream's trace id; errors the JSON layer raises itself
   * on a WebSocket carry none (`traceId` and `correlationId` `null`: the server builds them with an empty
   * trace context, Endpoints.scala:140 at e5f40da5e). `undefined` for the non-JSON answers, which have
   * no frame form.
   */
  frameBody(traceId: string, participant: string): CantonErrorJson | undefined {
    const s = this.spec;
    if (s.kind === 'canton' && s.provenance === 'json-layer') {
      const body = this.body(traceId, participant);
      return body && { ...body, traceId: null, correlationId: null };
    }
    return this.body(traceId, participant);
  }

  /** The full HTTP response for a request with `traceId`. */
  toResponse(traceId: string, participant: string): ErrorResponse {
    const s = this.spec;
    switch (s.kind) {
      case 'text':
        return { status: s.status, contentType: 'text/plain; charset=UTF-8', body: s.text, headers: s.headers };
      case 'legacy-404':
        return {
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ errors: [`${s.method}, uri: ${s.uri}`], status: 404 }),
          headers: {},
        };
      case 'redacted':
        return { status: s.grpcCode === 7 ? 403 : 401, contentType: 'application/json', body: JSON.stringify(this.body(traceId, participant)), headers: {} };
      case 'canton': {
        const status = s.status ?? grpcHttpStatus(categoryRule(s.def.category)?.grpcCode ?? 2);
        return { status, contentType: 'application/json', body: JSON.stringify(this.body(traceId, participant)), headers: {} };
      }
    }
  }
}
