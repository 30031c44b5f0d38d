import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Command, Event, JsGetUpdatesResponse, Kind, isUnknownVariant } from '../../src/schemas/index.js';
import { variant, wrapped } from '../../src/schemas/variant.js';

const created = {
  offset: 3, nodeId: 0, contractId: '00ab', templateId: 'pkg:M:T', contractKey: null, contractKeyHash: '', createArgument: { a: 1 },
  createdEventBlob: '', interfaceViews: [], witnessParties: ['A::1'], signatories: ['A::1'], observers: [], createdAt: '2026-01-01T00:00:00Z',
  packageName: 'p', representativePackageId: 'pkg', acsDelta: true,
};

describe('variant()', () => {
  it('parses the alternative that is present, fields directly or under "value"', () => {
    expect(Event.parse({ CreatedEvent: created })).toEqual({ CreatedEvent: created });
    expect(Kind.parse({ CanActAs: { value: { party: 'A::1' } } })).toEqual({ CanActAs: { value: { party: 'A::1' } } });
    expect(Kind.parse({ Empty: {} })).toEqual({ Empty: {} });
  });

  it('turns an unknown alternative of an open variant into an UnknownVariant', () => {
    const parsed = Event.parse({ FutureEvent: { offset: 9, x: [1] } });
    expect(parsed).toEqual({ unknownVariant: 'FutureEvent', payload: { offset: 9, x: [1] } });
    expect(isUnknownVariant(parsed)).toBe(true);
    expect(isUnknownVariant(Event.parse({ CreatedEvent: created }))).toBe(false);
  });

  it('keeps an unknown variant nested inside a known one', () => {
    const element = { update: { Transaction: { value: { updateId: 'u', commandId: '', workflowId: '', effectiveAt: 't', offset: 3, synchronizerId: 's', traceContext: null, recordTime: 't', externalTransactionHash: null, paidTrafficCost: null, transactionHash: null, events: [{ CreatedEvent: created }, { NewKind: { offset: 3 } }] } } } };
    const parsed = JsGetUpdatesResponse.parse(element) as { update: { Transaction: { value: { events: unknown[] } } } };
    expect(parsed.update.Transaction.value.events[1]).toEqual({ unknownVariant: 'NewKind', payload: { offset: 3 } });
  });

  it('rejects an unknown alternative of a closed (request) variant, naming it', () => {
    const r = Command.safeParse({ DeleteCommand: {} });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/unknown alternative 'DeleteCommand'/);
    expect(r.error?.issues[0]?.path).toEqual(['DeleteCommand']);
  });

  it('requires exactly one key', () => {
    expect(Event.safeParse({}).success).toBe(false);
    expect(Event.safeParse({ CreatedEvent: created, ArchivedEvent: {} }).success).toBe(false);
    expect(Event.safeParse({ CreatedEvent: created, Other: 1 }).success).toBe(false);
  });

  it('rejects non-objects', () => {
    for (const bad of [null, 3, 'CreatedEvent', [{ CreatedEvent: created }]]) expect(Event.safeParse(bad).success).toBe(false);
  });

  it('reports a broken known alternative with a path under its key, never as unknown', () => {
    const r = Event.safeParse({ CreatedEvent: { ...created, offset: 'x' } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['CreatedEvent', 'offset']);
    expect(Event.safeParse({ CreatedEvent: null }).success).toBe(false);
  });

  it('works for a freshly built variant, wrapped and direct cases alike', () => {
    const V = variant('V', { A: wrapped(z.number()), B: z.looseObject({ b: z.string() }) }, { open: false });
    expect(V.parse({ A: { value: 1 } })).toEqual({ A: { value: 1 } });
    expect(V.parse({ B: { b: 'x' } })).toEqual({ B: { b: 'x' } });
    expect(V.safeParse({ A: 1 }).success).toBe(false);
  });
});
