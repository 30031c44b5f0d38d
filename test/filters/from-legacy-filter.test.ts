import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { checkLegacyTreeRequest, fromLegacyFilter } from '../../src/filters/index.js';
import { UpdateFormat } from '../../src/schemas/index.js';

const alice = 'Alice::1220aa';
const bob = 'Bob::1220bb';
const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
const iou = { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#model:Iou:Iou', includeCreatedEventBlob: true } } } }] };

describe('fromLegacyFilter (Rule 1)', () => {
  it('copies filtersByParty and verbose into transactions with the ACS-delta shape', () => {
    const f = fromLegacyFilter({ filtersByParty: { [alice]: iou } }, true);
    expect(f.includeTransactions).toEqual({
      eventFormat: { filtersByParty: { [alice]: iou }, verbose: true },
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    });
  });

  it('uses the same event format for reassignments', () => {
    const f = fromLegacyFilter({ filtersByParty: { [alice]: wildcard, [bob]: iou } }, false);
    expect(f.includeReassignments).toEqual({ filtersByParty: { [alice]: wildcard, [bob]: iou }, verbose: false });
    expect(f.includeReassignments).toEqual(f.includeTransactions?.eventFormat);
  });

  it('lists every party named in the filter for topology events', () => {
    const f = fromLegacyFilter({ filtersByParty: { [alice]: wildcard, [bob]: iou } });
    expect(f.includeTopologyEvents).toEqual({ includeParticipantAuthorizationEvents: { parties: [alice, bob] } });
  });

  it('carries filtersForAnyParty, and an any-party-only filter gives every party (empty list) for topology', () => {
    const f = fromLegacyFilter({ filtersForAnyParty: iou }, null);
    expect(f.includeTransactions?.eventFormat).toEqual({ filtersByParty: {}, filtersForAnyParty: iou, verbose: false });
    expect(f.includeReassignments?.filtersForAnyParty).toEqual(iou);
    expect(f.includeTopologyEvents?.includeParticipantAuthorizationEvents?.parties).toEqual([]);
  });

  it('defaults verbose to false when absent', () => {
    expect(fromLegacyFilter({ filtersByParty: { [alice]: {} } }).includeTransactions?.eventFormat.verbose).toBe(false);
  });

  it('rejects a filter with no party and no any-party filter', () => {
    expect(() => fromLegacyFilter({ filtersByParty: {} })).toThrow(InvalidArgumentError);
    expect(() => fromLegacyFilter({})).toThrow(/cannot be empty simultaneously/);
  });

  it('produces a format that the wire schema accepts', () => {
    const f = fromLegacyFilter({ filtersByParty: { [alice]: iou }, filtersForAnyParty: wildcard }, true);
    expect(UpdateFormat.safeParse(f).success).toBe(true);
  });
});

describe('checkLegacyTreeRequest (Rule 2)', () => {
  it('accepts a tree request with wildcard or empty filters and no updateFormat', () => {
    expect(() => checkLegacyTreeRequest({ filter: { filtersByParty: { [alice]: wildcard, [bob]: {} } } })).not.toThrow();
    expect(() => checkLegacyTreeRequest({})).not.toThrow();
  });

  it('rejects updateFormat on the tree form', () => {
    expect(() => checkLegacyTreeRequest({ updateFormat: {}, filter: { filtersByParty: { [alice]: wildcard } } })).toThrow(
      expect.objectContaining({ field: 'updateFormat' }),
    );
  });

  it('rejects template filters per party and for any party', () => {
    expect(() => checkLegacyTreeRequest({ filter: { filtersByParty: { [alice]: iou } } })).toThrow(
      expect.objectContaining({ field: `filter.filtersByParty.${alice}` }),
    );
    expect(() => checkLegacyTreeRequest({ filter: { filtersForAnyParty: iou } })).toThrow(
      expect.objectContaining({ field: 'filter.filtersForAnyParty' }),
    );
  });
});
