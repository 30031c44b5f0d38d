import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import { createMockLedger } from './support/mock-ledger.js';

let ledger: ReturnType<typeof createMockLedger>;
afterEach(async () => {
  await ledger.done();
});

describe('response validation', () => {
  it('on (default): an off-schema 2xx body → ProtocolError SCHEMA_MISMATCH with issues', async () => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 'not-a-number' } });
    const error = await ledger.client.ledgerEnd().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe('SCHEMA_MISMATCH');
    expect((error as ProtocolError).issues.length).toBeGreaterThan(0);
    expect((error as ProtocolError).issues[0]?.path).toEqual(['offset']);
  });

  it('on: numeric strings are normalised to numbers and unknown variants kept as data', async () => {
    ledger = createMockLedger();
    ledger.expect('PATCH', '/v2/users/u/rights', { data: { newlyRevokedRights: [{ kind: { CanFlyAs: { value: {} } } }] } });
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: '12' } });
    const revoked = await ledger.client.revokeUserRights('u', { userId: 'u', rights: [] });
    expect(revoked.newlyRevokedRights?.[0]?.kind).toEqual({ unknownVariant: 'CanFlyAs', payload: { value: {} } });
    expect((await ledger.client.ledgerEnd()).offset).toBe(12);
  });

  it('off: the parsed JSON is returned unchecked', async () => {
    ledger = createMockLedger({ validateResponses: false });
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 'not-a-number', extra: true } });
    expect(await ledger.client.ledgerEnd()).toEqual({ offset: 'not-a-number', extra: true });
  });

  it.each([true, false])('invalid JSON → ProtocolError MALFORMED_JSON (validateResponses: %s)', async (validateResponses) => {
    ledger = createMockLedger({ validateResponses });
    ledger.expect('GET', '/v2/version', { data: '{"version": "3.6', headers: { 'content-type': 'application/json' } });
    await expect(ledger.client.version()).rejects.toMatchObject({ name: 'ProtocolError', code: 'MALFORMED_JSON' });
  });
});
