import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('sandbox HTTP infrastructure', () => {
  it('binds to loopback by default', () => {
    expect(sandbox.host).toBe('127.0.0.1');
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves GET /v2/version without a token, matching the spec', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/version');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ features: { packageFeature: { maxVettedPackagesPageSize: 100 } } });
  });

  it('answers an unknown route with the legacy 404 body', async () => {
    const r = await call(sandbox.url, 'POST', '/v2/no-such-thing', { body: {} });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ errors: [expect.stringMatching(/^POST, uri: http:\/\/.*\/v2\/no-such-thing$/)], status: 404 });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const r = await call(sandbox.url, 'DELETE', '/v2/version');
    expect(r.status).toBe(405);
    expect(r.headers['allow']).toBe('GET');
  });

  it('takes the trace id from traceparent', async () => {
    const r = await call(sandbox.url, 'POST', '/v2/no-such-thing', { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    expect(r.status).toBe(404);
  });
});
