import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/sandbox-http.js';
import { specAvailable } from '../support/shared-dir.js';

/**
 * The spec check of the raw test client (`call`) against a stub server: it skips only the legacy 404 body
 * of an unknown route (and 405s); a 404 that is a JsCantonError is validated like any other answer.
 */

const cantonError = {
  code: 'USER_NOT_FOUND',
  cause: 'getting user failed for unknown user "nobody"',
  correlationId: null,
  traceId: '5d2b4b8a0c0f4f3e9a51c0f4e2d9a7b1',
  context: { category: '11' },
  resources: [['USER', 'nobody']],
  errorCategory: 11,
  grpcCodeValue: 5,
  retryInfo: null,
  definiteAnswer: null,
};

const bodies: Record<string, unknown> = {
  '/v2/users/valid': cantonError,
  '/v2/users/extra-field': { ...cantonError, bogus: true },
  '/v2/users/missing-field': { code: 'USER_NOT_FOUND', cause: 'x' },
  '/v2/nowhere': { errors: ['GET, uri: http://localhost/v2/nowhere'], status: 404 },
};

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(bodies[req.url ?? ''] ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.runIf(specAvailable('the spec check of call() (test/support/sandbox-http.ts)'))('call(): spec check of 404 answers', () => {
  it('accepts a well-formed 404 JsCantonError', async () => {
    expect((await call(url, 'GET', '/v2/users/valid')).status).toBe(404);
  });

  it.each(['/v2/users/extra-field', '/v2/users/missing-field'])('refuses a malformed 404 JsCantonError (%s)', async (path) => {
    await expect(call(url, 'GET', path)).rejects.toThrow(/must match openapi\.yaml/);
  });

  it('leaves the legacy 404 body of an unknown route alone', async () => {
    expect((await call(url, 'GET', '/v2/nowhere')).status).toBe(404);
  });
});
