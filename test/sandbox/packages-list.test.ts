import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { packageIdOf } from '../../src/sandbox/state/package-store.js';
import { call } from '../support/sandbox-http.js';
import { createUser, expectRedacted, testSecret } from './auth-test-kit.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret });
});
afterAll(() => sandbox.close());

describe('GET /v2/packages', () => {
  it('lists every uploaded package, vetted or not, to any authenticated user', async () => {
    const token = await createUser(sandbox, 'reader');
    const r = await call(sandbox.url, 'GET', '/v2/packages', { token });
    expect(r.status).toBe(200);
    const ids = (r.json as { packageIds: string[] }).packageIds;
    expect(ids).toEqual(sandbox.state.packages.all().map((p) => p.packageId));
    expect(ids).toHaveLength(6);
    expect(ids).toContain(packageIdOf('ledger-rx-extras', '0.1.0'));
  });

  it('shows packages added to the store', async () => {
    const base = sandbox.state.packages.get(packageIdOf('daml-prim', '0.0.0'));
    sandbox.state.packages.add({ ...(base as NonNullable<typeof base>), packageId: 'a'.repeat(64), name: 'added', version: '1.0.0' });
    const r = await call(sandbox.url, 'GET', '/v2/packages', { token: await sandbox.token('participant_admin') });
    expect((r.json as { packageIds: string[] }).packageIds.at(-1)).toBe('a'.repeat(64));
  });

  it('refuses a missing token', async () => {
    expectRedacted(await call(sandbox.url, 'GET', '/v2/packages'), 401);
  });
});
