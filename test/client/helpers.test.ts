import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeId, fieldMask, newCommandId, newSubmissionId } from '../../src/client/index.js';
import { checkUpdateMask } from '../../src/client/validation/index.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('fieldMask', () => {
  it('maps every present field to its snake_case path, in a fixed order', () => {
    expect(fieldMask({
      id: 'alice',
      primaryPartyAuthentication: true,
      metadata: { annotations: { team: 'blue' }, resourceVersion: '3' },
      identityProviderId: 'idp',
      isDeactivated: false,
      primaryParty: 'Alice::1',
    })).toEqual({ paths: ['primary_party', 'is_deactivated', 'identity_provider_id', 'primary_party_authentication', 'metadata.annotations'] });
  });

  it('never includes id or metadata.resourceVersion', () => {
    expect(fieldMask({ id: 'alice', metadata: { resourceVersion: '3' } })).toEqual({ paths: [] });
  });

  it('treats defaults ("" / false / null) as present and undefined as absent', () => {
    expect(fieldMask({ primaryParty: '', isDeactivated: undefined })).toEqual({ paths: ['primary_party'] });
    expect(fieldMask({ isDeactivated: false, primaryParty: null })).toEqual({ paths: ['primary_party', 'is_deactivated'] });
  });

  it('always produces a mask the update-mask check accepts (when non-empty)', () => {
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    fc.assert(fc.property(
      fc.record({
        id: optional(fc.string()),
        primaryParty: optional(fc.string()),
        isDeactivated: optional(fc.boolean()),
        identityProviderId: optional(fc.string()),
        primaryPartyAuthentication: optional(fc.boolean()),
        metadata: optional(fc.record({ annotations: optional(fc.dictionary(fc.string(), fc.string())) })),
      }),
      (u) => {
        const { paths } = fieldMask(u);
        if (paths.length > 0) checkUpdateMask(paths);
        expect(paths).not.toContain('id');
      },
    ));
  });
});

describe('newCommandId / newSubmissionId', () => {
  it('are fresh random UUIDs', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newCommandId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(uuid);
    expect(newSubmissionId()).toMatch(uuid);
    expect(newSubmissionId()).not.toBe(newSubmissionId());
  });

  it('puts a prefix before the UUID', () => {
    const id = newCommandId('transfer');
    expect(id.startsWith('transfer-')).toBe(true);
    expect(id.slice('transfer-'.length)).toMatch(uuid);
  });

  it('rejects a prefix outside the ledger-string alphabet', () => {
    expect(() => newCommandId('bad?prefix')).toThrow(InvalidArgumentError);
    expect(() => newCommandId('x'.repeat(201))).toThrow(InvalidArgumentError);
  });
});

describe('changeId', () => {
  it('treats actAs as a set: order and repetitions do not matter', () => {
    fc.assert(fc.property(fc.string(), fc.array(fc.string(), { minLength: 1 }), fc.string(), (userId, actAs, commandId) => {
      const shuffled = [...actAs].reverse().concat(actAs[0] ?? []);
      expect(changeId({ userId, actAs: shuffled, commandId })).toBe(changeId({ userId, actAs, commandId }));
    }));
  });

  it('differs when any component differs, even with delimiter-like characters', () => {
    const base = { userId: 'alice', actAs: ['A::1'], commandId: 'c' };
    expect(changeId(base)).not.toBe(changeId({ ...base, userId: 'bob' }));
    expect(changeId(base)).not.toBe(changeId({ ...base, commandId: 'd' }));
    expect(changeId(base)).not.toBe(changeId({ ...base, actAs: ['A::1', 'B::2'] }));
    expect(changeId({ userId: 'a,b', actAs: [], commandId: 'c' })).not.toBe(changeId({ userId: 'a', actAs: ['b'], commandId: 'c' }));
  });
});
