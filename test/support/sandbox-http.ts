import { expect } from 'vitest';
import { request } from 'undici';
import { specProblems } from './spec-validator.js';
import { specAvailable, type SpecVersion } from './shared-dir.js';

/** A raw HTTP answer from the sandbox. */
export interface RawResponse {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** The parsed body when it is JSON, else `undefined`. */
  readonly json: unknown;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body's bytes as received (for binary answers such as `GET /v2/packages/{id}`). */
  readonly bytes: Buffer;
}

/** Options of {@link call}. */
export interface CallOptions {
  readonly body?: unknown;
  /** A raw body string, sent as is (for malformed JSON). */
  readonly rawBody?: string;
  /** A binary body, sent as `application/octet-stream` unless `headers` names a content type (DAR uploads). */
  readonly binaryBody?: Uint8Array;
  readonly token?: string;
  readonly headers?: Record<string, string>;
  /** Skip the spec validation of the answer (fault tests). Default false. */
  readonly skipSpecCheck?: boolean;
  /** Validate against the spec of this release line (openapi-3.5.yaml, ...) instead of openapi.yaml. */
  readonly specVersion?: SpecVersion;
}

/**
 * Sends a raw HTTP request to the sandbox — not through our client, so the two cannot hide each other's
 * mistakes — and validates every JSON answer against openapi.yaml, except the legacy 404 body of an unknown route
 * and 405 answers (without ../shared: an error under CI, a skip with its reason on stderr elsewhere).
 */
export async function call(baseUrl: string, method: string, pathAndQuery: string, options: CallOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array | undefined;
  if (options.binaryBody !== undefined) {
    body = options.binaryBody;
    headers['content-type'] ??= 'application/octet-stream';
  } else if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const res = await request(new URL(pathAndQuery, baseUrl), { method: method as 'GET', headers, ...(body === undefined ? {} : { body }) });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const text = bytes.toString('utf8');
  const contentType = String(res.headers['content-type'] ?? '');
  let json: unknown;
  if (contentType.includes('application/json')) json = JSON.parse(text);
  const path = pathAndQuery.split('?')[0] as string;
  // Not checked: the legacy 404 body of an unknown route (`{"errors": [...], "status": 404}`, no `code`) and
  // 405s, which the spec does not describe. A 404 JsCantonError (USER_NOT_FOUND, ...) is checked like any answer.
  const legacyNotFound = res.statusCode === 404 && !(typeof json === 'object' && json !== null && 'code' in json);
  if (!options.skipSpecCheck && json !== undefined && specAvailable() && !legacyNotFound && res.statusCode !== 405) {
    const problems = specProblems(method, path, res.statusCode, json, options.specVersion);
    expect(problems, `${method} ${path} ${res.statusCode} answer must match openapi${options.specVersion === undefined ? '' : `-${options.specVersion}`}.yaml`).toEqual([]);
  }
  return { status: res.statusCode, contentType, text, json, headers: res.headers, bytes };
}
