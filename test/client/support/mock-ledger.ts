import { MockAgent } from 'undici';
import { vi } from 'vitest';
import { createLedgerClient } from '../../../src/client/index.js';
import type { LedgerClient, LedgerClientOptions } from '../../../src/client/index.js';

/** Origin the mocked participant answers on. */
export const ORIGIN = 'http://ledger.test:7575';

/** One request the mocked participant received. */
export interface RecordedRequest {
  readonly method: string;
  /** Path including the query string, as sent. */
  readonly path: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw body text, or `undefined` for none. */
  readonly bodyText: string | undefined;
  /** The body parsed as JSON, or `undefined`. */
  readonly body: unknown;
}

/** A canned answer. */
export interface Reply {
  readonly status?: number;
  /** Sent as JSON unless it is a string. */
  readonly data?: unknown;
  readonly headers?: Record<string, string>;
}

function normaliseHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (raw instanceof Headers) {
    for (const [k, v] of raw.entries()) out[k.toLowerCase()] = v;
  } else if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

/**
 * A client wired to an undici `MockAgent` (`disableNetConnect()`), recording every request it answers.
 * `expect(path, method, reply)` registers one answer for one request to that path (query ignored for
 * matching, kept in the record). `dispatched()` counts every request that reached the agent, answered or
 * not, which proves that validation failures send nothing. `done()` asserts no registered answer is left
 * unused, then closes everything.
 */
export function createMockLedger(options: Partial<LedgerClientOptions> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const dispatch = vi.spyOn(agent, 'dispatch');
  const pool = agent.get(ORIGIN);
  const requests: RecordedRequest[] = [];
  // The mock answers only what a test registers, so the participant's version is given, not read
  // (docs/participant-versions.md); a test about the version read passes `participantVersion: undefined`.
  const client: LedgerClient = createLedgerClient({ baseUrl: ORIGIN, dispatcher: agent, participantVersion: '3.6.0', ...options });

  function expectRequest(method: string, pathname: string, reply: Reply | ((req: RecordedRequest) => Reply) = {}, times = 1) {
    pool
      .intercept({ method, path: (p: string) => p.split('?')[0] === pathname })
      .reply((opts) => {
        const bodyText = opts.body == null ? undefined : String(opts.body);
        let body: unknown;
        try {
          body = bodyText === undefined ? undefined : JSON.parse(bodyText);
        } catch {
          body = undefined;
        }
        const req: RecordedRequest = { method: opts.method, path: opts.path, headers: normaliseHeaders(opts.headers), bodyText, body };
        requests.push(req);
        const r = typeof reply === 'function' ? reply(req) : reply;
        const data = r.data === undefined ? '{}' : typeof r.data === 'string' ? r.data : JSON.stringify(r.data);
        const contentType = typeof r.data === 'string' ? 'text/plain; charset=UTF-8' : 'application/json';
        return { statusCode: r.status ?? 200, data, responseOptions: { headers: { 'content-type': contentType, ...r.headers } } };
      })
      .times(times);
  }

  return {
    agent,
    client,
    requests,
    expect: expectRequest,
    dispatched: () => dispatch.mock.calls.length,
    async done() {
      agent.assertNoPendingInterceptors();
      await client.close();
      await agent.close();
    },
  };
}

/** A Canton error body with all ten keys. */
export function cantonError(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: 'USER_NOT_FOUND',
    cause: 'updating user failed for unknown user "bob"',
    correlationId: null,
    traceId: '5d2b4b8a0c0f4f3e9a51c0f4e2d9a7b1',
    context: { participant: 'participant1', definite_answer: 'false', tid: '5d2b4b8a0c0f4f3e9a51c0f4e2d9a7b1', category: '11' },
    resources: [['USER', 'bob']],
    errorCategory: 11,
    grpcCodeValue: 5,
    retryInfo: null,
    definiteAnswer: null,
    ...overrides,
  };
}
