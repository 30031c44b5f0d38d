import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { updateFormat } from '../../src/filters/index.js';
import { UpdateFormat } from '../../src/schemas/index.js';

const alice = 'Alice::1220aa';
const bob = 'Bob::1220bb';

describe('updateFormat()', () => {
  it('builds transactions for parties with template and interface filters and the chosen shape', () => {
    const f = updateFormat()
      .transactions((t) =>
        t
          .parties(alice, bob, alice)
          .template('#model:Iou:Iou', { includeCreatedEventBlob: true })
          .interface('#model:Iface:Holding', { includeInterfaceView: true })
          .shape('ledger-effects')
          .verbose(),
      )
      .build();
    const cumulative = [
      { identifierFilter: { TemplateFilter: { value: { templateId: '#model:Iou:Iou', includeCreatedEventBlob: true } } } },
      {
        identifierFilter: {
          InterfaceFilter: { value: { interfaceId: '#model:Iface:Holding', includeInterfaceView: true, includeCreatedEventBlob: false } },
        },
      },
    ];
    expect(f).toEqual({
      includeTransactions: {
        eventFormat: { filtersByParty: { [alice]: { cumulative }, [bob]: { cumulative } }, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    });
    expect(UpdateFormat.safeParse(f).success).toBe(true);
  });

  it('defaults to the ACS-delta shape and to an every-template filter', () => {
    const f = updateFormat().transactions((t) => t.parties(alice)).build();
    expect(f.includeTransactions).toEqual({
      eventFormat: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: false },
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    });
  });

  it('builds any-party reads with a wildcard and created-event blobs', () => {
    const f = updateFormat().transactions((t) => t.anyParty().wildcard({ includeCreatedEventBlob: true })).build();
    expect(f.includeTransactions?.eventFormat).toEqual({
      filtersByParty: {},
      filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] },
      verbose: false,
    });
  });

  it('builds reassignments and topology events', () => {
    const f = updateFormat()
      .reassignments((r) => r.parties(alice))
      .topologyEvents([alice, bob, alice])
      .build();
    expect(f).toEqual({
      includeReassignments: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: false },
      includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice, bob] } },
    });
  });

  it('builds an empty format (checkpoints only) without complaint', () => {
    expect(updateFormat().build()).toEqual({});
  });

  it('is immutable: each call returns a new builder', () => {
    const base = updateFormat().transactions((t) => t.parties(alice));
    const withTopology = base.topologyEvents();
    expect(base.build().includeTopologyEvents).toBeUndefined();
    expect(withTopology.build().includeTopologyEvents).toBeDefined();
  });

  it.each([
    ['no party and no any-party filter', () => updateFormat().transactions((t) => t.template('#m:A:B')), 'updateFormat.includeTransactions.eventFormat'],
    ['an empty reassignment party set', () => updateFormat().reassignments((r) => r), 'updateFormat.includeReassignments'],
    ['a duplicate template', () => updateFormat().transactions((t) => t.parties(alice).template('#m:A:B').template('#m:A:B')), 'updateFormat.includeTransactions.eventFormat.cumulative.templateId'],
    ['a duplicate interface', () => updateFormat().transactions((t) => t.parties(alice).interface('#m:A:I').interface('#m:A:I')), 'updateFormat.includeTransactions.eventFormat.cumulative.interfaceId'],
    ['a wildcard twice', () => updateFormat().transactions((t) => t.parties(alice).wildcard().wildcard()), 'updateFormat.includeTransactions.eventFormat.cumulative'],
    ['a package-id template reference', () => updateFormat().transactions((t) => t.parties(alice).template('9a1b2c:Iou:Iou')), 'updateFormat.includeTransactions.eventFormat.cumulative.templateId'],
    ['a malformed identifier', () => updateFormat().transactions((t) => t.parties(alice).interface('#model:Iou')), 'updateFormat.includeTransactions.eventFormat.cumulative.interfaceId'],
    ['an empty party id', () => updateFormat().transactions((t) => t.parties('')), 'updateFormat.includeTransactions.eventFormat.filtersByParty'],
  ])('rejects %s when it builds', (_name, make, field) => {
    const builder = make();
    let caught: unknown;
    try {
      builder.build();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect((caught as InvalidArgumentError).field).toBe(field);
  });
});
