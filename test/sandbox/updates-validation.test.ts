import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { ACS, checkAgainstLog, eventFormat, filters, postUpdates, templateFilter, updateFormat } from './ledger-support.js';

let sandbox: Sandbox;
let end: number;
let alice: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 30, listWaitMs: 50 });
  end = sandbox.ledgerEnd();
  alice = sandbox.partyId('Alice');
});
afterAll(() => sandbox.close());

type Expectation = { status: number; code?: string; text?: RegExp; cause?: RegExp };

interface Row {
  name: string;
  query?: string;
  body: () => unknown;
  raw?: string;
  expect: Expectation;
}

const any = () => updateFormat('any');

/** docs/server-behavior.md#updates-validation-order, in the server's evaluation order: each row states the step that must answer. */
const rows: Row[] = [
  // Step 1 — decoding (400 text/plain).
  { name: 'malformed JSON', body: () => undefined, raw: '{"beginExclusive": 0,', expect: { status: 400, text: /^Invalid value for: body/ } },
  { name: 'non-numeric beginExclusive', body: () => ({ beginExclusive: 'abc', updateFormat: any() }), expect: { status: 400, text: /beginExclusive/ } },
  { name: 'identifier without three parts', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters(templateFilter('#ledger-rx-demo:Iou')) }) }), expect: { status: 400, text: /templateId/ } },
  { name: 'unknown transaction shape', body: () => ({ updateFormat: { includeTransactions: { eventFormat: eventFormat('any'), transactionShape: 'SHAPE_NOPE' } } }), expect: { status: 400, text: /Unrecognized enum value SHAPE_NOPE/ } },
  { name: 'missing transaction shape', body: () => ({ updateFormat: { includeTransactions: { eventFormat: eventFormat('any') } } }), expect: { status: 400, text: /transactionShape/ } },
  { name: 'unknown identifier-filter variant', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters({ PartyFilter: {} }) }) }), expect: { status: 400, text: /PartyFilter/ } },
  { name: 'non-integer limit', query: '?limit=ten', body: () => ({ updateFormat: any() }), expect: { status: 400, text: /^Invalid value for: query parameter limit$/ } },
  { name: 'non-integer idle timeout', query: '?stream_idle_timeout_ms=1.5', body: () => ({ updateFormat: any() }), expect: { status: 400, text: /query parameter stream_idle_timeout_ms/ } },
  { name: 'decode failure wins over an offset problem', body: () => ({ beginExclusive: -5, updateFormat: { includeTransactions: { eventFormat: eventFormat('any'), transactionShape: 'NOPE' } } }), expect: { status: 400, text: /NOPE/ } },
  // Step 2 — JSON layer (gRPC-decoded INVALID_ARGUMENT).
  { name: 'updateFormat and filter', body: () => ({ updateFormat: any(), filter: { filtersByParty: { [alice]: {} } } }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /Both update_format and filter are set/ } },
  { name: 'updateFormat and verbose', body: () => ({ updateFormat: any(), verbose: true }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /Both update_format and verbose are set/ } },
  { name: 'neither updateFormat nor filter', body: () => ({ beginExclusive: 0 }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /Either filter\/verbose or update_format is required/ } },
  { name: 'step 2 wins over a negative offset', body: () => ({ beginExclusive: -1, verbose: true }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /Either filter/ } },
  // Step 4 — offsets, in order, then the format.
  { name: 'negative begin', body: () => ({ beginExclusive: -1, updateFormat: any() }), expect: { status: 400, code: 'NEGATIVE_OFFSET', cause: /Offset -1 in begin_exclusive/ } },
  { name: 'negative begin wins over descending without end', body: () => ({ beginExclusive: -1, descendingOrder: true, updateFormat: any() }), expect: { status: 400, code: 'NEGATIVE_OFFSET' } },
  { name: 'descending without end', body: () => ({ descendingOrder: true, updateFormat: any() }), expect: { status: 400, code: 'DESCENDING_ORDER_MISSING_END' } },
  { name: 'end zero', body: () => ({ endInclusive: 0, updateFormat: any() }), expect: { status: 400, code: 'NON_POSITIVE_OFFSET', cause: /Offset 0 in end_inclusive/ } },
  { name: 'begin after the ledger end', body: () => ({ beginExclusive: end + 1, updateFormat: any() }), expect: { status: 400, code: 'OFFSET_AFTER_LEDGER_END', cause: /^Begin offset \(\d+\) is after ledger end/ } },
  { name: 'end after the ledger end', body: () => ({ endInclusive: end + 1, updateFormat: any() }), expect: { status: 400, code: 'OFFSET_AFTER_LEDGER_END', cause: /^End offset/ } },
  { name: 'begin checked before end', body: () => ({ beginExclusive: end + 5, endInclusive: end + 9, updateFormat: any() }), expect: { status: 400, code: 'OFFSET_AFTER_LEDGER_END', cause: /^Begin offset/ } },
  { name: 'offsets checked before the format', body: () => ({ endInclusive: end + 1, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {} }, transactionShape: ACS } } }), expect: { status: 400, code: 'OFFSET_AFTER_LEDGER_END' } },
  { name: 'empty event format', body: () => ({ updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {} }, transactionShape: ACS } } }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /cannot be empty simultaneously/ } },
  { name: 'empty reassignment event format', body: () => ({ updateFormat: { includeReassignments: {} } }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /cannot be empty simultaneously/ } },
  { name: 'invalid party key', body: () => ({ updateFormat: updateFormat(['not a party!']) }), expect: { status: 400, code: 'INVALID_ARGUMENT' } },
  { name: 'unspecified shape', body: () => ({ updateFormat: { includeTransactions: { eventFormat: eventFormat('any'), transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' } } }), expect: { status: 400, code: 'MISSING_FIELD', cause: /transaction_shape/ } },
  { name: 'UNRECOGNIZED shape', body: () => ({ updateFormat: { includeTransactions: { eventFormat: eventFormat('any'), transactionShape: 'UNRECOGNIZED' } } }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /^The submitted request has invalid arguments: transaction_shape is defined with invalid value -1$/ } },
  // FormatValidator reads the shape before the event format.
  { name: 'unspecified shape before an empty event format', body: () => ({ updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {} }, transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' } } }), expect: { status: 400, code: 'MISSING_FIELD', cause: /transaction_shape$/ } },
  { name: 'unspecified shape before a missing event format', body: () => ({ updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' } } }), expect: { status: 400, code: 'MISSING_FIELD', cause: /transaction_shape$/ } },
  { name: 'unspecified shape before an invalid party key', body: () => ({ updateFormat: { includeTransactions: { eventFormat: eventFormat(['not a party!']), transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' } } }), expect: { status: 400, code: 'MISSING_FIELD', cause: /transaction_shape$/ } },
  { name: 'UNRECOGNIZED shape before a package-id filter', body: () => ({ updateFormat: { includeTransactions: { eventFormat: eventFormat('any', filters(templateFilter(`${'a'.repeat(64)}:Iou:Iou`))), transactionShape: 'UNRECOGNIZED' } } }), expect: { status: 400, code: 'INVALID_ARGUMENT', cause: /transaction_shape/ } },
  { name: 'a party key and then its filters, before the next party', body: () => ({ updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: filters(templateFilter(`${'a'.repeat(64)}:Iou:Iou`)), 'not a party!': {} } }, transactionShape: ACS } } }), expect: { status: 400, code: 'INVALID_FIELD', cause: /packageId/ } },
  { name: 'transactions without event format', body: () => ({ updateFormat: { includeTransactions: { transactionShape: ACS } } }), expect: { status: 400, code: 'MISSING_FIELD', cause: /event_format/ } },
  { name: 'template filter by package id', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters(templateFilter(`${'a'.repeat(64)}:Iou:Iou`)) }) }), expect: { status: 400, code: 'INVALID_FIELD', cause: /Invalid field packageId: .*expected a package name/ } },
  { name: 'template filter without id', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters({ TemplateFilter: { value: {} } }) }) }), expect: { status: 400, code: 'MISSING_FIELD', cause: /templateId/ } },
  { name: 'invalid topology party', body: () => ({ updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: ['bad party!'] } } } }), expect: { status: 400, code: 'INVALID_FIELD', cause: /parties/ } },
  { name: 'format errors before unknown packages', body: () => ({ updateFormat: { ...updateFormat('any', ACS, { filters: filters(templateFilter('#nope:A:B')) }), includeReassignments: {} } }), expect: { status: 400, code: 'INVALID_ARGUMENT' } },
  // Step 5 — references and the range.
  { name: 'unknown package name', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters(templateFilter('#no-such-package:Iou:Iou')) }) }), expect: { status: 404, code: 'PACKAGE_NAMES_NOT_FOUND', cause: /\[no-such-package\]/ } },
  { name: 'unknown template', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters(templateFilter('#ledger-rx-demo:Iou:Nope')) }) }), expect: { status: 404, code: 'NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME', cause: /\(ledger-rx-demo,Iou:Nope\)/ } },
  { name: 'unknown interface', body: () => ({ updateFormat: updateFormat('any', ACS, { filters: filters({ InterfaceFilter: { value: { interfaceId: '#ledger-rx-demo:Holding:Nope' } } }) }) }), expect: { status: 404, code: 'NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME' } },
  { name: 'unknown package before the range check', body: () => ({ beginExclusive: 10, endInclusive: 5, updateFormat: updateFormat('any', ACS, { filters: filters(templateFilter('#nope:A:B')) }) }), expect: { status: 404, code: 'PACKAGE_NAMES_NOT_FOUND' } },
  { name: 'begin after end', body: () => ({ beginExclusive: 10, endInclusive: 5, updateFormat: any() }), expect: { status: 400, code: 'OFFSET_OUT_OF_RANGE', cause: /^End offset 5 is before begin offset 10\.$/ } },
];

describe('POST /v2/updates validation (docs/server-behavior.md#updates-validation-order, in order)', () => {
  it.each(rows)('$name', async (row) => {
    const r = await postUpdates(sandbox, row.body(), row.query ?? '', row.raw === undefined ? {} : { rawBody: row.raw });
    expect(r.status, r.text).toBe(row.expect.status);
    if (row.expect.text) {
      expect(r.contentType).toMatch(/^text\/plain/);
      expect(r.text).toMatch(row.expect.text);
      return;
    }
    const body = r.json as { code: string; cause: string; context: Record<string, string>; definiteAnswer: unknown; correlationId: unknown };
    expect(body.code).toBe(row.expect.code);
    if (row.expect.cause) expect(body.cause).toMatch(row.expect.cause);
    // gRPC-decoded shape: category and trace id in the context, no definite answer, no correlation id.
    expect(body.context).toMatchObject({ category: expect.any(String), tid: expect.any(String) });
    expect(body.definiteAnswer).toBeNull();
    expect(body.correlationId).toBeNull();
  });

  it('OFFSET_AFTER_LEDGER_END is retryable (category 12)', async () => {
    const r = await postUpdates(sandbox, { beginExclusive: end + 1, updateFormat: any() });
    expect(r.json).toMatchObject({ errorCategory: 12, grpcCodeValue: 11, retryInfo: '1 second' });
  });

  it('accepts numeric strings for offsets, and begin == end gives [] at once', async () => {
    const r = await postUpdates(sandbox, { beginExclusive: String(end), endInclusive: String(end), updateFormat: any() });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    const all = await postUpdates(sandbox, { beginExclusive: '0', endInclusive: String(end), updateFormat: any() });
    checkAgainstLog(sandbox, all.json, { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: 0, endInclusive: end });
  });

  it('accepts verbose: false next to updateFormat and a missing beginExclusive (defaults to 0)', async () => {
    const r = await postUpdates(sandbox, { verbose: false, endInclusive: end, updateFormat: any() });
    expect(r.status).toBe(200);
    checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: 0, endInclusive: end });
  });

  it('accepts an update format with no part (it selects nothing)', async () => {
    const r = await postUpdates(sandbox, { endInclusive: end, updateFormat: {} });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });
});

describe('pruning (step 6)', () => {
  it('refuses reads that begin before the pruning offset, with earliest_offset', async () => {
    const s = await startSandbox({ seed: 20 });
    try {
      const updates = s.updates();
      const pruneAt = (updates[9] as { offset: number }).offset;
      s.prune(pruneAt);
      const r = await postUpdates(s, { beginExclusive: pruneAt - 1, updateFormat: updateFormat('any') });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', context: { earliest_offset: String(pruneAt) } });
      expect((r.json as { cause: string }).cause).toMatch(new RegExp(`precedes pruned offset ${pruneAt}$`));
      const ok = await postUpdates(s, { beginExclusive: pruneAt, endInclusive: s.ledgerEnd(), updateFormat: updateFormat('any') });
      expect(ok.status).toBe(200);
      checkAgainstLog(s, ok.json, { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: pruneAt, endInclusive: s.ledgerEnd() });
      const empty = await postUpdates(s, { beginExclusive: 1, endInclusive: 1, updateFormat: updateFormat('any') });
      expect(empty.json).toEqual([]);
      const pruned = await call(s.url, 'GET', '/v2/state/latest-pruned-offsets');
      expect(pruned.json).toEqual({ participantPrunedUpToInclusive: pruneAt, allDivulgedContractsPrunedUpToInclusive: pruneAt });
      expect(() => s.prune(pruneAt - 1)).toThrow(RangeError);
      expect(() => s.prune(s.ledgerEnd() + 1)).toThrow(RangeError);
    } finally {
      await s.close();
    }
  });
});
