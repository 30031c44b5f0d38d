import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import {
  checkAnnotations,
  checkDeduplicationPeriod,
  checkDescendingOrder,
  checkEndNotBeforeBegin,
  checkEventFormat,
  checkExpectedTopologySerial,
  checkIdentityProviderId,
  checkInstant,
  checkMinLedgerTime,
  checkOffsetRange,
  checkPartyId,
  checkPathUserId,
  checkPrefetchLimits,
  checkReassignmentCommands,
  checkResourceVersion,
  checkRights,
  checkTapsMaxPasses,
  checkUpdateFormat,
  checkUpdateFormatChoice,
  checkUpdateMask,
  checkUserId,
  checkVettingChange,
  checkVettingPackageRef,
  formatJsonPath,
  parseRequest,
  requireNonEmptyArray,
  requireNonEmptyString,
  requireNonNegativeInteger,
  userUpdatePaths,
  validateCallOptions,
  validateGetUpdatesRequest,
  validateReassignmentRequest,
  validateSubmitRequest,
  validateUpdatesOptions,
  validateUpdateUserRequest,
  validateUpdateVettedPackagesOptions,
  validateUserRightsRequest,
} from '../../src/client/validation/index.js';
import { JsCommands } from '../../src/schemas/index.js';
import { ALICE, commands, updateFormat, updatesRequest } from './support/fixtures.js';

/** Runs `fn` and returns the InvalidArgumentError it throws (failing the test otherwise). */
function invalid(fn: () => unknown): InvalidArgumentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe('INVALID_CLIENT_ARGUMENT');
    expect((error as InvalidArgumentError).retryable).toBe(false);
    return error as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe('formatJsonPath / parseRequest', () => {
  it('renders keys with dots and indices in brackets', () => {
    expect(formatJsonPath(['commands', 0, 'CreateCommand', 'templateId'])).toBe('commands[0].CreateCommand.templateId');
    expect(formatJsonPath([])).toBe('$');
  });

  it('turns the first zod issue into InvalidArgumentError with the dotted path', () => {
    const e = invalid(() => parseRequest(JsCommands, { ...commands(), commands: [{ CreateCommand: { createArguments: {} } }] }));
    expect(e.field).toBe('commands[0].CreateCommand.templateId');
    expect(e.cause).toBeDefined();
  });

  it('reports a missing required field by name', () => {
    const { commandId: _omit, ...rest } = commands();
    expect(invalid(() => parseRequest(JsCommands, rest)).field).toBe('commandId');
  });

  it('returns the parsed value (numeric strings become numbers)', () => {
    expect(validateGetUpdatesRequest(updatesRequest({ beginExclusive: '42' as unknown as number })).beginExclusive).toBe(42);
  });
});

describe('generic requirements', () => {
  it('requireNonEmptyString', () => {
    expect(() => requireNonEmptyString('x', 'f')).not.toThrow();
    expect(invalid(() => requireNonEmptyString('', 'commandId')).field).toBe('commandId');
    expect(invalid(() => requireNonEmptyString(undefined, 'f')).rule).toMatch(/non-empty/);
  });

  it('requireNonEmptyArray', () => {
    expect(() => requireNonEmptyArray([1], 'f', 'x')).not.toThrow();
    const e = invalid(() => requireNonEmptyArray([], 'actAs', 'party'));
    expect([e.field, e.rule]).toEqual(['actAs', 'must contain at least one party']);
  });

  it('requireNonNegativeInteger accepts unset, 0 and positive integers only', () => {
    for (const ok of [undefined, null, 0, 1, 200]) expect(() => requireNonNegativeInteger(ok, 'limit')).not.toThrow();
    for (const bad of [-1, 1.5, Number.NaN, Infinity, '5']) expect(invalid(() => requireNonNegativeInteger(bad, 'limit')).field).toBe('limit');
  });
});

describe('submit rules', () => {
  it('minLedgerTimeAbs and minLedgerTimeRel are exclusive', () => {
    expect(() => checkMinLedgerTime({ minLedgerTimeAbs: '2026-01-01T00:00:00Z' })).not.toThrow();
    expect(() => checkMinLedgerTime({ minLedgerTimeAbs: null, minLedgerTimeRel: { seconds: 1, nanos: 0 } })).not.toThrow();
    const e = invalid(() => checkMinLedgerTime({ minLedgerTimeAbs: '2026-01-01T00:00:00Z', minLedgerTimeRel: { seconds: 1, nanos: 0 } }));
    expect(e.field).toBe('minLedgerTimeRel');
  });

  it('tapsMaxPasses must be >= 1 when set', () => {
    for (const ok of [undefined, null, 1, 5]) expect(() => checkTapsMaxPasses(ok)).not.toThrow();
    for (const bad of [0, -3]) expect(invalid(() => checkTapsMaxPasses(bad)).field).toBe('tapsMaxPasses');
  });

  it('deduplication duration and offset must not be negative', () => {
    expect(() => checkDeduplicationPeriod({ DeduplicationDuration: { value: { seconds: 0, nanos: 0 } } })).not.toThrow();
    expect(() => checkDeduplicationPeriod({ DeduplicationOffset: { value: 0 } })).not.toThrow();
    expect(() => checkDeduplicationPeriod({ Empty: {} })).not.toThrow();
    expect(() => checkDeduplicationPeriod(undefined)).not.toThrow();
    expect(invalid(() => checkDeduplicationPeriod({ DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } })).field)
      .toBe('deduplicationPeriod.DeduplicationDuration.value');
    expect(invalid(() => checkDeduplicationPeriod({ DeduplicationDuration: { value: { seconds: 0, nanos: -5 } } })).field)
      .toBe('deduplicationPeriod.DeduplicationDuration.value');
    expect(invalid(() => checkDeduplicationPeriod({ DeduplicationOffset: { value: -1 } })).field).toBe('deduplicationPeriod.DeduplicationOffset.value');
  });

  it('prefetch limits must be >= 1 when set', () => {
    expect(() => checkPrefetchLimits([{ limit: 1 }, {}, { limit: null }])).not.toThrow();
    expect(invalid(() => checkPrefetchLimits([{ limit: 2 }, { limit: 0 }])).field).toBe('prefetchContractKeys[1].limit');
  });

  it('validateSubmitRequest requires commands, actAs and commandId', () => {
    expect(() => validateSubmitRequest(commands())).not.toThrow();
    expect(invalid(() => validateSubmitRequest(commands({ commands: [] }))).field).toBe('commands');
    expect(invalid(() => validateSubmitRequest(commands({ actAs: [] }))).field).toBe('actAs');
    expect(invalid(() => validateSubmitRequest(commands({ actAs: [''] }))).field).toBe('actAs[0]');
    expect(invalid(() => validateSubmitRequest(commands({ commandId: '' }))).field).toBe('commandId');
    expect(invalid(() => validateSubmitRequest(commands({ tapsMaxPasses: 0 }))).field).toBe('tapsMaxPasses');
    expect(invalid(() => validateSubmitRequest(commands({ deduplicationPeriod: { DeduplicationOffset: { value: -2 } } }))).field)
      .toBe('deduplicationPeriod.DeduplicationOffset.value');
  });
});

describe('updates rules', () => {
  it('filter and updateFormat are exclusive; verbose:true not with updateFormat; one is required', () => {
    expect(() => checkUpdateFormatChoice({ updateFormat })).not.toThrow();
    expect(() => checkUpdateFormatChoice({ updateFormat, verbose: false })).not.toThrow();
    expect(() => checkUpdateFormatChoice({ filter: {}, verbose: true })).not.toThrow();
    expect(() => checkUpdateFormatChoice({ filter: {}, updateFormat: null })).not.toThrow();
    expect(invalid(() => checkUpdateFormatChoice({ filter: {}, updateFormat })).field).toBe('filter');
    expect(invalid(() => checkUpdateFormatChoice({ updateFormat, verbose: true })).field).toBe('verbose');
    expect(invalid(() => checkUpdateFormatChoice({})).field).toBe('updateFormat');
    expect(invalid(() => checkUpdateFormatChoice({ filter: null, updateFormat: null, verbose: true })).field).toBe('updateFormat');
  });

  it('descendingOrder requires endInclusive', () => {
    expect(() => checkDescendingOrder({ descendingOrder: true, endInclusive: 5 })).not.toThrow();
    expect(() => checkDescendingOrder({ descendingOrder: false })).not.toThrow();
    expect(invalid(() => checkDescendingOrder({ descendingOrder: true, endInclusive: null })).field).toBe('descendingOrder');
  });

  it('offset range: begin >= 0, end >= 1; offset order: end >= begin', () => {
    expect(() => checkOffsetRange({ beginExclusive: 0 })).not.toThrow();
    expect(() => checkOffsetRange({ beginExclusive: 9, endInclusive: 8 })).not.toThrow();
    expect(() => checkOffsetRange({ beginExclusive: 0, endInclusive: 1 })).not.toThrow();
    expect(invalid(() => checkOffsetRange({ beginExclusive: -1 })).field).toBe('beginExclusive');
    expect(invalid(() => checkOffsetRange({ beginExclusive: 0, endInclusive: 0 })).field).toBe('endInclusive');
    expect(() => checkEndNotBeforeBegin({ beginExclusive: 5, endInclusive: 5 })).not.toThrow();
    expect(() => checkEndNotBeforeBegin({ beginExclusive: 5 })).not.toThrow();
    const e = invalid(() => checkEndNotBeforeBegin({ beginExclusive: 9, endInclusive: 8 }));
    expect([e.field, e.rule]).toEqual(['endInclusive', 'must not be before beginExclusive (9)']);
  });

  it('validateGetUpdatesRequest applies schema then rules', () => {
    expect(invalid(() => validateGetUpdatesRequest(updatesRequest({ beginExclusive: -1 }))).field).toBe('beginExclusive');
    expect(invalid(() => validateGetUpdatesRequest(updatesRequest({ descendingOrder: true }))).field).toBe('descendingOrder');
    expect(invalid(() => validateGetUpdatesRequest({ beginExclusive: 0 })).field).toBe('updateFormat');
  });
});

describe('user rules', () => {
  it('the mask must be non-empty', () => {
    expect(invalid(() => checkUpdateMask([])).field).toBe('updateMask.paths');
    expect(invalid(() => checkUpdateMask(undefined)).field).toBe('updateMask.paths');
  });

  it('accepts every known path once', () => {
    expect(() => checkUpdateMask(userUpdatePaths)).not.toThrow();
    expect(userUpdatePaths).toEqual([
      'id', 'primary_party', 'is_deactivated', 'metadata', 'metadata.annotations', 'metadata.resource_version',
      'identity_provider_id', 'primary_party_authentication',
    ]);
  });

  it('rejects camelCase with the snake_case suggestion, unknown paths and duplicates', () => {
    const camel = invalid(() => checkUpdateMask(['is_deactivated', 'primaryParty']));
    expect(camel.field).toBe('updateMask.paths[1]');
    expect(camel.rule).toContain("use 'primary_party'");
    expect(invalid(() => checkUpdateMask(['metadata.resourceVersion'])).rule).toContain("use 'metadata.resource_version'");
    const unknown = invalid(() => checkUpdateMask(['nickname']));
    expect(unknown.rule).toContain('expected one of');
    const dup = invalid(() => checkUpdateMask(['metadata', 'primary_party', 'metadata']));
    expect([dup.field, dup.rule]).toEqual(['updateMask.paths[2]', "'metadata' is duplicated"]);
  });

  it('the path user id must be non-empty and equal the body id', () => {
    expect(() => checkPathUserId('alice', 'alice', 'user.id')).not.toThrow();
    expect(invalid(() => checkPathUserId('', '', 'user.id')).field).toBe('userId');
    const e = invalid(() => checkPathUserId('alice', 'bob', 'userId'));
    expect(e.field).toBe('userId');
    expect(e.rule).toContain("'alice'");
    expect(invalid(() => checkPathUserId('alice', undefined, 'user.id')).field).toBe('user.id');
  });

  it('rights must have a kind that is not Empty', () => {
    expect(() => checkRights([{ kind: { ParticipantAdmin: { value: {} } } }])).not.toThrow();
    expect(() => checkRights(undefined)).not.toThrow();
    expect(invalid(() => checkRights([{ kind: { ParticipantAdmin: { value: {} } } }, { kind: { Empty: {} } }])).field).toBe('rights[1].kind');
    expect(invalid(() => checkRights([{}])).field).toBe('rights[0].kind');
  });
});

describe('reassignment rules', () => {
  const unassign = { command: { UnassignCommand: { value: { contractId: '00ab', source: 's', target: 't' } } } };
  const base = { commandId: 'r-1', submitter: 'Alice::1', commands: [unassign] };

  it('accepts a complete command set', () => {
    expect(() => checkReassignmentCommands(base)).not.toThrow();
  });

  it('requires commandId, submitter, commands and every command set', () => {
    expect(invalid(() => checkReassignmentCommands({ ...base, commandId: '' })).field).toBe('reassignmentCommands.commandId');
    expect(invalid(() => checkReassignmentCommands({ ...base, submitter: '' })).field).toBe('reassignmentCommands.submitter');
    expect(invalid(() => checkReassignmentCommands({ ...base, commands: [] })).field).toBe('reassignmentCommands.commands');
    expect(invalid(() => checkReassignmentCommands({ ...base, commands: [unassign, { command: { Empty: {} } }] })).field)
      .toBe('reassignmentCommands.commands[1].command');
    expect(invalid(() => checkReassignmentCommands({ ...base, commands: [{}] })).field).toBe('reassignmentCommands.commands[0].command');
  });
});

describe('vetting rules', () => {
  it('accepts exactly {id}, {name}, {name, version}, {id, name, version}', () => {
    const accepted = [
      { packageId: 'p' },
      { packageName: 'n' },
      { packageName: 'n', packageVersion: '1' },
      { packageId: 'p', packageName: 'n', packageVersion: '1' },
      { packageId: 'p', packageName: '', packageVersion: null },
    ];
    for (const ref of accepted) expect(() => checkVettingPackageRef(ref, 'r')).not.toThrow();
    const rejected = [{}, { packageVersion: '1' }, { packageId: 'p', packageName: 'n' }, { packageId: 'p', packageVersion: '1' }, { packageId: '' }];
    for (const ref of rejected) expect(invalid(() => checkVettingPackageRef(ref, 'changes[0].x')).field).toBe('changes[0].x');
  });

  it('a change needs an operation that is not Empty, and valid refs', () => {
    expect(() => checkVettingChange({ operation: { Vet: { value: { packages: [{ packageName: 'n' }] } } } }, 0)).not.toThrow();
    expect(invalid(() => checkVettingChange({}, 2)).field).toBe('changes[2].operation');
    expect(invalid(() => checkVettingChange({ operation: { Empty: {} } }, 0)).field).toBe('changes[0].operation');
    expect(invalid(() => checkVettingChange({ operation: { Unvet: { value: { packages: [{ packageName: 'n' }, { packageVersion: '2' }] } } } }, 1)).field)
      .toBe('changes[1].operation.Unvet.value.packages[1]');
  });

  it('Prior serial must be >= 1', () => {
    expect(() => checkExpectedTopologySerial({ serial: { Prior: { value: 1 } } })).not.toThrow();
    expect(() => checkExpectedTopologySerial({ serial: { NoPrior: {} } })).not.toThrow();
    expect(() => checkExpectedTopologySerial(null)).not.toThrow();
    expect(invalid(() => checkExpectedTopologySerial({ serial: { Prior: { value: 0 } } })).field).toBe('expectedTopologySerial.serial.Prior.value');
  });
});

describe('identifier syntax (docs/server-behavior.md#updates-validation-order, #user-update-validation-order, #rights-revoke-validation-order)', () => {
  it('party ids: 1 to 255 of letters, digits, ":", "-", "_" and space', () => {
    for (const ok of [ALICE, 'a', 'Alice::1220aa', 'with space', 'x-y_z:1', 'p'.repeat(255)]) expect(() => checkPartyId(ok, 'f')).not.toThrow();
    const rejected = ['', 'Alice@corp', 'a/b', 'ünï', 'tab\there', 'p'.repeat(256), 'dot.ted'];
    for (const bad of rejected) {
      const e = invalid(() => checkPartyId(bad, 'filter.filtersByParty'));
      expect(e.field).toBe('filter.filtersByParty');
      expect(e.message).toContain('filter.filtersByParty');
    }
    expect(invalid(() => checkPartyId('x'.repeat(300), 'f')).rule).toContain(`'${'x'.repeat(50)}...'`);
  });

  it('user ids: 1 to 128 of letters, digits and @^$.!`-#+\'~_|:()', () => {
    for (const ok of ['alice', 'alice@corp.com', "a!b`c-d#e+f'g~h_i|j:k(l)", 'u'.repeat(128), 'participant_admin']) {
      expect(() => checkUserId(ok, 'user.id')).not.toThrow();
    }
    for (const bad of ['', 'ops team', 'a/b', 'a%b', 'ü', 'u'.repeat(129), 'a,b', 'a*b']) expect(invalid(() => checkUserId(bad, 'user.id')).field).toBe('user.id');
  });

  it('identity provider ids: "" or unset, else 1 to 255 of letters, digits, "._:-#/" and space', () => {
    for (const ok of [undefined, null, '', 'idp-acme', 'a.b_c:d#e/f g', 'i'.repeat(255)]) expect(() => checkIdentityProviderId(ok, 'identityProviderId')).not.toThrow();
    for (const bad of ['idp@acme', 'ü', 'i'.repeat(256), 'a|b']) expect(invalid(() => checkIdentityProviderId(bad, 'identityProviderId')).field).toBe('identityProviderId');
  });

  it('resource versions: unset, "" or a 64-bit integer as Java parses it', () => {
    const accepted = [undefined, null, '', '0', '7', '+5', '-3', '0007', '9223372036854775807', '-9223372036854775808', '٣'];
    for (const ok of accepted) expect(() => checkResourceVersion(ok, 'user.metadata.resourceVersion')).not.toThrow();
    const rejected = ['abc', '1.5', ' 1', '1 ', '1e3', '0x10', '+', '-', '9223372036854775808', '-9223372036854775809', '1_000'];
    for (const bad of rejected) {
      const e = invalid(() => checkResourceVersion(bad, 'user.metadata.resourceVersion'));
      expect(e.field).toBe('user.metadata.resourceVersion');
      expect(e.rule).toContain('resource version');
    }
  });
});

describe('instants (Instant.parse of JDK 17, docs/server-behavior.md#json-encoding)', () => {
  // Each row's verdict is what `Instant.parse` of JDK 17 (and 25) answers for the text.
  const javaAccepts: [string, string][] = [
    ['2026-06-30T10:15:30Z', 'plain UTC'],
    ['2026-06-30t10:15:30.123456789z', 'letters in any case, 9 fraction digits'],
    ['2026-06-30T10:15:30.Z', 'a point without digits'],
    ['2016-12-31T23:59:60Z', 'the leap second, at 23:59 only'],
    ['2016-12-31T23:59:60.999999999Z', 'the leap second with a fraction'],
    ['2016-12-31T23:59:60+01:00', 'the leap second in local time, before the offset'],
    ['2026-06-30T10:15:30+18:00', 'the largest offset'],
    ['2026-06-30T10:15:30-18:00', 'the smallest offset'],
    ['2026-06-30T10:15:30+17:59:59', 'an offset with seconds'],
    ['2026-06-30T10:15:30-00:00', 'a negative zero offset'],
    ['2024-02-29T00:00:00Z', 'a leap day'],
    ['-0001-01-01T00:00:00Z', 'a negative 4-digit year'],
    ['+12345-01-01T00:00:00Z', 'a signed 5-digit year'],
    ['+275760-09-13T00:00:00.001Z', 'beyond the JS Date range'],
    ['-271821-04-19T23:59:59Z', 'before the JS Date range'],
    ['+1000000000-12-31T23:59:59.999999999Z', 'Instant.MAX'],
    ['+1000000000-12-31T23:59:60Z', 'a leap second read as Instant.MAX'],
    ['-1000000000-01-01T00:00:00Z', 'Instant.MIN'],
    ['-1000000000-01-01T00:00:00-00:00:01', 'one second after Instant.MIN'],
    ['-1000000000-01-01T18:00:00+18:00', 'Instant.MIN through an offset'],
    ['+1000000000-12-31T05:59:59-18:00', 'Instant.MAX through an offset'],
  ];
  const javaRefuses: [string, string][] = [
    ['2016-12-31T22:59:60Z', 'second 60 at 22:59'],
    ['2016-12-31T22:59:60-01:00', 'second 60 at 22:59 local (23:59 UTC)'],
    ['2016-12-31T23:58:60Z', 'second 60 at 23:58'],
    ['2016-12-31T00:00:60Z', 'second 60 at midnight'],
    ['2016-12-31T23:59:61Z', 'second 61'],
    ['2026-06-30T10:15:30+18:00:01', 'an offset beyond +18:00'],
    ['2026-06-30T10:15:30-18:01', 'an offset beyond -18:00'],
    ['2026-06-30T10:15:30+19:00', 'offset hour 19'],
    ['2026-06-30T10:15:30-23:59', 'offset hour 23'],
    ['2026-06-30T10:15:30+24:00', 'offset hour 24'],
    ['2026-06-30T10:15:30+01:60', 'offset minute 60'],
    ['2026-06-30T10:15:30+01:00:60', 'offset second 60'],
    ['2026-06-30T24:00:00.000000001Z', 'hour 24 with a fraction'],
    ['2026-06-30T24:00:01Z', 'hour 24 with seconds'],
    ['2026-06-30T24:01:00Z', 'hour 24 with minutes'],
    ['2026-06-30T25:00:00Z', 'hour 25'],
    ['2026-06-30T10:15:30.1234567890Z', '10 fraction digits'],
    ['2026-06-30T10:15Z', 'no seconds'],
    ['2026-06-30T10:15:30', 'no zone'],
    ['2026-02-29T00:00:00Z', 'February 29 of a common year'],
    ['2026-04-31T00:00:00Z', 'April 31'],
    ['-0000-01-01T00:00:00Z', 'a negative zero year'],
    ['+2026-01-01T00:00:00Z', "'+' on a 4-digit year"],
    ['12345-01-01T00:00:00Z', 'an unsigned 5-digit year'],
    ['+1000000000-12-31T23:59:59-00:00:01', 'after Instant.MAX'],
    ['+1000000001-01-01T00:00:00Z', 'a year after Instant.MAX'],
    ['-1000000000-01-01T00:00:00+00:00:01', 'before Instant.MIN'],
    ['-1000000000-01-01T17:59:59+18:00', 'before Instant.MIN through an offset'],
    ['+1000000000-12-31T06:00:00-18:00', 'after Instant.MAX through an offset'],
  ];

  it.each(javaAccepts)('accepts %s (%s), as the server does', (text) => {
    expect(() => checkInstant(text, 'minLedgerTimeAbs')).not.toThrow();
  });

  it.each(javaRefuses)('rejects %s (%s), as the server does', (text) => {
    const e = invalid(() => checkInstant(text, 'minLedgerTimeAbs'));
    expect(e.field).toBe('minLedgerTimeAbs');
    expect(e.rule).toContain(`'${text}'`);
  });

  it.each([
    ['2026-06-30T24:00:00Z'],
    ['2026-06-30T24:00:00.000+01:00'],
    ['2026-12-31T24:00:00.000000000Z'],
  ])('accepts %s, which Java reads as the next midnight', (text) => {
    expect(() => checkInstant(text, 'field')).not.toThrow();
  });

  it('lets an unset value pass', () => {
    expect(() => checkInstant(undefined, 'field')).not.toThrow();
    expect(() => checkInstant(null, 'field')).not.toThrow();
  });
});

describe('annotations (docs/server-behavior.md#user-update-validation-order step 4)', () => {
  const field = 'user.metadata.annotations';

  it('accepts keys [prefix/]name as the server does, including trailing slashes Java split drops', () => {
    const keys = ['team', 'a', 'a.b-c_d', 'example.com/team', 'Ex-ample.COM/Team', 'team/', 'n'.repeat(63), `${'p'.repeat(253)}/n`, 'a1/b2', 'a//'];
    for (const key of keys) expect(() => checkAnnotations({ [key]: 'v' }, true, field), key).not.toThrow();
    expect(() => checkAnnotations(undefined, false, field)).not.toThrow();
    expect(() => checkAnnotations({}, false, field)).not.toThrow();
  });

  it('rejects bad keys, naming the map and the key', () => {
    const keys = ['', '-team', 'team-', '.a', 'a b', 'a/b/c', '/', '/name', 'ex_ample.com/team', '-x.com/team', 'a..b/c', 'n'.repeat(64), `${'p'.repeat(254)}/n`, 'ü'];
    for (const key of keys) {
      const e = invalid(() => checkAnnotations({ ok: 'v', [key]: 'v' }, true, field));
      expect(e.field, key).toBe(field);
    }
    expect(invalid(() => checkAnnotations({ 'a b': 'v' }, true, field)).rule).toContain("'a b'");
  });

  it('empty values are allowed in updates only', () => {
    expect(() => checkAnnotations({ gone: '' }, true, field)).not.toThrow();
    expect(invalid(() => checkAnnotations({ gone: '' }, false, field)).rule).toContain("'gone'");
  });

  it('the size limit is 256 KiB of UTF-8 keys and values, entries with an empty value not counted', () => {
    const atLimit = { k: 'v'.repeat(256 * 1024 - 1) };
    expect(() => checkAnnotations(atLimit, true, field)).not.toThrow();
    expect(() => checkAnnotations({ ...atLimit, ['deleted'.repeat(8)]: '' }, true, field)).not.toThrow();
    expect(invalid(() => checkAnnotations({ k: 'v'.repeat(256 * 1024) }, true, field)).rule).toContain('256kb');
    // 'é' is two bytes in UTF-8
    expect(invalid(() => checkAnnotations({ k: 'é'.repeat(128 * 1024) }, true, field)).field).toBe(field);
    // the size is checked before the keys, as the server does
    expect(invalid(() => checkAnnotations({ 'bad key': 'v'.repeat(256 * 1024) }, true, field)).rule).toContain('256kb');
  });

  it('a long invalid prefix or name is rejected quickly', () => {
    const started = performance.now();
    invalid(() => checkAnnotations({ [`${'a'.repeat(252)}!/n`]: 'v' }, true, field));
    invalid(() => checkAnnotations({ [`${'a'.repeat(62)}!`]: 'v' }, true, field));
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('update and event formats (docs/server-behavior.md#updates-validation-order step 4)', () => {
  const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
  const template = (templateId: string) => ({ cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId } } } }] });
  const iface = (interfaceId: string) => ({ cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId } } } }] });
  const tx = (eventFormat: object, transactionShape = 'TRANSACTION_SHAPE_ACS_DELTA') => ({ includeTransactions: { eventFormat, transactionShape } }) as never;

  it('accepts the formats the server accepts', () => {
    const accepted: object[] = [
      {},
      tx({ filtersByParty: { [ALICE]: {} } }),
      tx({ filtersForAnyParty: {} }, 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
      tx({ filtersByParty: { [ALICE]: template('#my-pkg:Mod.Sub:Ent') }, filtersForAnyParty: iface('#my-pkg:Mod:Iface') }),
      tx({ filtersByParty: { [ALICE]: { cumulative: [] } } }),
      tx({ filtersByParty: { [ALICE]: { cumulative: [{}, { identifierFilter: { Empty: {} } }] } } }),
      { includeReassignments: { filtersByParty: { [ALICE]: wildcard } } },
      { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } },
      { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [ALICE] } } },
      { includeTopologyEvents: { includeParticipantAuthorizationEvents: null } },
      { includeTopologyEvents: {} },
    ];
    for (const format of accepted) expect(() => checkUpdateFormat(format as never), JSON.stringify(format)).not.toThrow();
  });

  /** [description, update format, expected field] */
  const rejected: [string, object, string][] = [
    ['empty event format (transactions)', tx({ filtersByParty: {} }), 'updateFormat.includeTransactions.eventFormat'],
    ['absent filters (transactions)', tx({ verbose: true }), 'updateFormat.includeTransactions.eventFormat'],
    ['null filters (transactions)', tx({ filtersByParty: null, filtersForAnyParty: null }), 'updateFormat.includeTransactions.eventFormat'],
    ['empty event format (reassignments)', { includeReassignments: { filtersByParty: {} } }, 'updateFormat.includeReassignments'],
    ['UNSPECIFIED shape', tx({ filtersByParty: { [ALICE]: {} } }, 'TRANSACTION_SHAPE_UNSPECIFIED'), 'updateFormat.includeTransactions.transactionShape'],
    ['invalid party key', tx({ filtersByParty: { 'Alice@corp': {} } }), 'updateFormat.includeTransactions.eventFormat.filtersByParty'],
    ['empty party key', { includeReassignments: { filtersByParty: { '': {} } } }, 'updateFormat.includeReassignments.filtersByParty'],
    [
      'package-id template filter',
      tx({ filtersByParty: { [ALICE]: template('9a1b2c:Iou:Iou') } }),
      `updateFormat.includeTransactions.eventFormat.filtersByParty.${ALICE}.cumulative[0].identifierFilter.TemplateFilter.value.templateId`,
    ],
    [
      'package-id interface filter (any party)',
      { includeReassignments: { filtersForAnyParty: iface('9a1b2c:Iou:Iface') } },
      'updateFormat.includeReassignments.filtersForAnyParty.cumulative[0].identifierFilter.InterfaceFilter.value.interfaceId',
    ],
    [
      'malformed template id',
      tx({ filtersForAnyParty: template('#pkg:Iou') }),
      'updateFormat.includeTransactions.eventFormat.filtersForAnyParty.cumulative[0].identifierFilter.TemplateFilter.value.templateId',
    ],
    ['invalid topology party', { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [ALICE, 'a/b'] } } }, 'updateFormat.includeTopologyEvents.includeParticipantAuthorizationEvents.parties[1]'],
    ['empty topology party', { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [''] } } }, 'updateFormat.includeTopologyEvents.includeParticipantAuthorizationEvents.parties[0]'],
  ];
  it.each(rejected)('rejects %s', (_name, format, field) => {
    const e = invalid(() => checkUpdateFormat(format as never));
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  it('names the rule: empty formats, the shape, and package ids', () => {
    expect(invalid(() => checkUpdateFormat(tx({})))).toMatchObject({ rule: expect.stringContaining('filtersByParty and filtersForAnyParty cannot be empty simultaneously') });
    expect(invalid(() => checkUpdateFormat(tx({ filtersForAnyParty: {} }, 'TRANSACTION_SHAPE_UNSPECIFIED')))).toMatchObject({ rule: expect.stringContaining('UNSPECIFIED') });
    expect(invalid(() => checkUpdateFormat(tx({ filtersForAnyParty: template('9a1b:M:E') })))).toMatchObject({ rule: expect.stringContaining('package id') });
  });

  it('follows the server order: shape before event format, transactions before reassignments before topology', () => {
    const badEverything = {
      includeTransactions: { eventFormat: { filtersByParty: {} }, transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' },
      includeReassignments: { filtersByParty: {} },
      includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: ['a/b'] } },
    };
    expect(invalid(() => checkUpdateFormat(badEverything as never)).field).toBe('updateFormat.includeTransactions.transactionShape');
    const { includeTransactions: _t, ...rest } = badEverything;
    expect(invalid(() => checkUpdateFormat(rest as never)).field).toBe('updateFormat.includeReassignments');
    // within a party's filters: every template filter, then every interface filter
    const mixed = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: 'pkgid:M:I' } } } }, { identifierFilter: { TemplateFilter: { value: { templateId: 'pkgid:M:T' } } } }] };
    expect(invalid(() => checkEventFormat({ filtersByParty: { [ALICE]: mixed } }, ['eventFormat'])).field).toContain('TemplateFilter');
    // a party's key before its filters, and parties before filtersForAnyParty
    expect(invalid(() => checkEventFormat({ filtersByParty: { 'a/b': template('pkgid:M:T') } }, ['f'])).field).toBe('f.filtersByParty');
    expect(invalid(() => checkEventFormat({ filtersByParty: { [ALICE]: template('pkgid:M:T') }, filtersForAnyParty: template('x:M:T') }, ['f'])).field)
      .toContain('f.filtersByParty');
  });

  it('validateGetUpdatesRequest: the legacy filter gets the same event-format checks, named under filter', () => {
    const legacy = (filter: object) => ({ beginExclusive: 0, filter });
    expect(() => validateGetUpdatesRequest(legacy({ filtersByParty: { [ALICE]: template('#pkg:M:T') } }))).not.toThrow();
    expect(() => validateGetUpdatesRequest(legacy({ filtersForAnyParty: {} }))).not.toThrow();
    expect(invalid(() => validateGetUpdatesRequest(legacy({ filtersByParty: {} }))).field).toBe('filter');
    expect(invalid(() => validateGetUpdatesRequest(legacy({}))).field).toBe('filter');
    expect(invalid(() => validateGetUpdatesRequest(legacy({ filtersByParty: { 'x y!': {} } }))).field).toBe('filter.filtersByParty');
    expect(invalid(() => validateGetUpdatesRequest(legacy({ filtersByParty: { [ALICE]: template('pkgid:M:T') } }))).field)
      .toBe(`filter.filtersByParty.${ALICE}.cumulative[0].identifierFilter.TemplateFilter.value.templateId`);
  });

  it('validateGetUpdatesRequest: bounds, then the format, then the offset order', () => {
    const bad = tx({ filtersByParty: {} });
    expect(invalid(() => validateGetUpdatesRequest(updatesRequest({ endInclusive: 0, updateFormat: bad }))).field).toBe('endInclusive');
    expect(invalid(() => validateGetUpdatesRequest(updatesRequest({ descendingOrder: true, updateFormat: bad }))).field).toBe('descendingOrder');
    expect(invalid(() => validateGetUpdatesRequest(updatesRequest({ beginExclusive: 9, endInclusive: 3, updateFormat: bad }))).field)
      .toBe('updateFormat.includeTransactions.eventFormat');
    expect(invalid(() => validateGetUpdatesRequest(updatesRequest({ beginExclusive: 9, endInclusive: 3 }))).field).toBe('endInclusive');
    expect(() => validateGetUpdatesRequest(updatesRequest({ updateFormat: {} }))).not.toThrow();
  });

  it('validateReassignmentRequest checks a present eventFormat before the commands', () => {
    const commands = { commandId: '', submitter: ALICE, commands: [] };
    expect(invalid(() => validateReassignmentRequest({ reassignmentCommands: commands, eventFormat: { filtersByParty: {} } })).field).toBe('eventFormat');
    expect(invalid(() => validateReassignmentRequest({ reassignmentCommands: commands, eventFormat: { filtersForAnyParty: template('p:M:T') } })).field)
      .toContain('eventFormat.filtersForAnyParty');
    expect(invalid(() => validateReassignmentRequest({ reassignmentCommands: commands })).field).toBe('reassignmentCommands.commandId');
  });
});

describe('user update and rights requests (docs/server-behavior.md#user-update-validation-order, #rights-revoke-validation-order)', () => {
  const update = (user: object, paths = ['primary_party']) => ({ user: { id: 'alice', ...user }, updateMask: { paths } });

  it('accepts what the server accepts', () => {
    const accepted = [
      update({ primaryParty: '' }),
      update({ primaryParty: ALICE, identityProviderId: '', metadata: { resourceVersion: '', annotations: { team: '', 'example.com/x': 'v' } } }),
      update({ metadata: { resourceVersion: '-1' } }),
      update({ identityProviderId: 'idp-acme' }, ['identity_provider_id']),
    ];
    for (const request of accepted) expect(() => validateUpdateUserRequest('alice', request)).not.toThrow();
  });

  /** [description, request, expected field] */
  const rejected: [string, object, string][] = [
    ['user id syntax', { user: { id: 'ops team' }, updateMask: { paths: ['primary_party'] } }, 'user.id'],
    ['primary party syntax', update({ primaryParty: 'Alice@corp' }), 'user.primaryParty'],
    ['identity provider id syntax', update({ identityProviderId: 'idp@acme' }), 'user.identityProviderId'],
    ['resource version not a number', update({ metadata: { resourceVersion: 'abc' } }), 'user.metadata.resourceVersion'],
    ['resource version beyond int64', update({ metadata: { resourceVersion: '9223372036854775808' } }), 'user.metadata.resourceVersion'],
    ['annotation key syntax', update({ metadata: { annotations: { 'a b': 'v' } } }), 'user.metadata.annotations'],
    ['annotations over 256 KiB', update({ metadata: { annotations: { big: 'x'.repeat(300_000) } } }), 'user.metadata.annotations'],
  ];
  it.each(rejected)('updateUser rejects %s', (_name, request, field) => {
    const e = invalid(() => validateUpdateUserRequest(field === 'user.id' ? 'ops team' : 'alice', request));
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  it('updateUser follows the server order: path id, user.id, primaryParty, identityProviderId, resourceVersion, annotations, mask', () => {
    const all = {
      user: { id: 'alice', primaryParty: 'P@', identityProviderId: 'I@', metadata: { resourceVersion: 'v', annotations: { 'k k': 'v' } } },
      updateMask: { paths: ['nope'] },
    };
    const order = ['user.primaryParty', 'user.identityProviderId', 'user.metadata.resourceVersion', 'user.metadata.annotations', 'updateMask.paths[0]'];
    let request: { user: Record<string, unknown>; updateMask: { paths: string[] } } = structuredClone(all);
    expect(invalid(() => validateUpdateUserRequest('bob', request)).field).toBe('user.id');
    for (const field of order) {
      expect(invalid(() => validateUpdateUserRequest('alice', request)).field).toBe(field);
      request = structuredClone(request);
      if (field === 'user.primaryParty') request.user['primaryParty'] = ALICE;
      if (field === 'user.identityProviderId') request.user['identityProviderId'] = '';
      if (field === 'user.metadata.resourceVersion') (request.user['metadata'] as Record<string, unknown>)['resourceVersion'] = '3';
      if (field === 'user.metadata.annotations') (request.user['metadata'] as Record<string, unknown>)['annotations'] = {};
      if (field === 'updateMask.paths[0]') request.updateMask.paths = ['metadata'];
    }
    expect(() => validateUpdateUserRequest('alice', request)).not.toThrow();
  });

  it('grant and revoke check the user id, the parties of rights and the identity provider id, in that order', () => {
    const rights = (party: string) => [{ kind: { ParticipantAdmin: { value: {} } } }, { kind: { CanReadAs: { value: { party } } } }];
    for (const kind of ['grant', 'revoke'] as const) {
      expect(() => validateUserRightsRequest(kind, 'alice', { userId: 'alice', rights: rights(ALICE), identityProviderId: 'idp-1' })).not.toThrow();
      expect(() => validateUserRightsRequest(kind, 'alice', { userId: 'alice', rights: [] })).not.toThrow();
      expect(invalid(() => validateUserRightsRequest(kind, 'a b', { userId: 'a b', rights: rights('x!') })).field).toBe('userId');
      expect(invalid(() => validateUserRightsRequest(kind, 'alice', { userId: 'alice', rights: rights('x!'), identityProviderId: '@' })).field)
        .toBe('rights[1].kind.CanReadAs.value.party');
      expect(invalid(() => validateUserRightsRequest(kind, 'alice', { userId: 'alice', rights: rights(ALICE), identityProviderId: '@' })).field)
        .toBe('identityProviderId');
    }
    for (const name of ['CanActAs', 'CanReadAs', 'CanExecuteAs']) {
      expect(invalid(() => checkRights([{ kind: { [name]: { value: { party: '' } } } }])).field).toBe(`rights[0].kind.${name}.value.party`);
    }
  });
});

describe('call options', () => {
  const signal = new AbortController().signal;

  it('accept undefined, plain objects (any realm, null prototype) and AbortSignals', () => {
    expect(validateCallOptions(undefined)).toEqual({});
    for (const ok of [{}, { signal }, { signal: undefined }, Object.create(null) as object, { other: 1 }]) expect(() => validateCallOptions(ok)).not.toThrow();
    const lookalike = { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined };
    expect(() => validateCallOptions({ signal: lookalike })).not.toThrow();
  });

  it('reject anything else, naming options or signal', () => {
    class Options {
      signal = signal;
    }
    for (const bad of [null, 5, 'x', true, [], [{}], () => undefined, new Date(0), new Map(), new Options(), signal]) {
      expect(invalid(() => validateCallOptions(bad)).field).toBe('options');
    }
    for (const bad of ['x', 5, null, {}, [], new AbortController(), { aborted: false }, true]) {
      expect(invalid(() => validateCallOptions({ signal: bad })).field).toBe('signal');
    }
  });

  it('updates options: limit and streamIdleTimeoutMs non-negative integers, validate and rawText booleans', () => {
    expect(() => validateUpdatesOptions({ limit: 0, streamIdleTimeoutMs: 500, validate: false, rawText: true, signal })).not.toThrow();
    expect(validateUpdatesOptions(undefined)).toEqual({});
    for (const field of ['limit', 'streamIdleTimeoutMs']) {
      for (const bad of [-1, 1.5, Number.NaN, '10', null, {}]) expect(invalid(() => validateUpdatesOptions({ [field]: bad })).field).toBe(field);
    }
    for (const field of ['validate', 'rawText']) {
      for (const bad of ['true', 1, 0, null, {}]) expect(invalid(() => validateUpdatesOptions({ [field]: bad })).field).toBe(field);
    }
    expect(invalid(() => validateUpdatesOptions(5)).field).toBe('options');
    expect(invalid(() => validateUpdatesOptions({ signal: 'x' })).field).toBe('signal');
  });

  it("updates options: transport one of list, page, websocket; pageSize positive; an option of another transport refused", () => {
    for (const transport of ['list', 'page', 'websocket', undefined]) expect(() => validateUpdatesOptions({ transport })).not.toThrow();
    for (const bad of ['auto', 'ws', 1, null]) expect(invalid(() => validateUpdatesOptions({ transport: bad })).field).toBe('transport');
    for (const bad of [0, -1, 1.5, '10', null]) expect(invalid(() => validateUpdatesOptions({ transport: 'page', pageSize: bad })).field).toBe('pageSize');
    expect(() => validateUpdatesOptions({ transport: 'page', pageSize: 1, paused: { subscribe: () => undefined } })).not.toThrow();
    expect(() => validateUpdatesOptions({ transport: 'websocket', pingIntervalMs: 0, silenceTimeoutMs: 0, onOpen: () => undefined })).not.toThrow();
    const misplaced: [string, Record<string, unknown>][] = [
      ['limit', { transport: 'websocket', limit: 5 }],
      ['streamIdleTimeoutMs', { transport: 'page', streamIdleTimeoutMs: 5 }],
      ['pageSize', { pageSize: 5 }],
      ['pingIntervalMs', { transport: 'list', pingIntervalMs: 5 }],
      ['onOpen', { transport: 'page', onOpen: () => undefined }],
      ['paused', { paused: { subscribe: () => undefined } }],
    ];
    for (const [field, options] of misplaced) {
      const error = invalid(() => validateUpdatesOptions(options));
      expect(error.field).toBe(field);
      expect(error.message).toMatch(/applies to transport .* only/);
    }
  });

  it("updateVettedPackages options: endpoint 'deprecated' or 'update'", () => {
    for (const ok of [undefined, {}, { endpoint: 'update' }, { endpoint: 'deprecated' }, { endpoint: undefined }]) {
      expect(() => validateUpdateVettedPackagesOptions(ok)).not.toThrow();
    }
    for (const bad of ['v3', null, 1]) expect(invalid(() => validateUpdateVettedPackagesOptions({ endpoint: bad })).field).toBe('endpoint');
    expect(invalid(() => validateUpdateVettedPackagesOptions([])).field).toBe('options');
  });
});
