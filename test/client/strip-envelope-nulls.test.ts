import { describe, expect, it } from 'vitest';
import { stripEnvelopeNulls } from '../../src/client/http/strip-envelope-nulls.js';

describe('stripEnvelopeNulls', () => {
  it('drops null-valued envelope properties at any depth', () => {
    expect(stripEnvelopeNulls({ beginExclusive: 3, endInclusive: null, updateFormat: { includeTransactions: null, includeReassignments: { verbose: null, filtersByParty: {} } } })).toEqual({
      beginExclusive: 3,
      updateFormat: { includeReassignments: { filtersByParty: {} } },
    });
  });

  it('keeps nulls inside Daml payloads, where they mean None', () => {
    const body = {
      commands: [{ CreateCommand: { templateId: '#m:A:B', createArguments: { owner: 'a', note: null, nested: { x: null } } } }],
      workflowId: null,
      prefetchContractKeys: [{ templateId: '#m:A:B', contractKey: null }],
    };
    expect(stripEnvelopeNulls(body)).toEqual({
      commands: [{ CreateCommand: { templateId: '#m:A:B', createArguments: { owner: 'a', note: null, nested: { x: null } } } }],
      prefetchContractKeys: [{ templateId: '#m:A:B', contractKey: null }],
    });
  });

  it('leaves scalars and array entries alone', () => {
    expect(stripEnvelopeNulls([1, null, 'x'])).toEqual([1, null, 'x']);
    expect(stripEnvelopeNulls('text')).toBe('text');
  });
});
