import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { decodeUpdateElement, updateOffset } from '../../src/updates/index.js';
import { createdEvent, mixedUpdates, offsetCheckpoint, reassignment, topologyTransaction, transaction } from '../streams/update-fixtures.js';

const both = [true, false] as const;

function decode(value: unknown, validate: boolean, index = 0): JsGetUpdatesResponse {
  return decodeUpdateElement(structuredClone(value), index, { validate });
}

function thrown(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    return error as ProtocolError;
  }
  throw new Error('expected a ProtocolError');
}

describe('decodeUpdateElement', () => {
  it.each(both)('accepts every known kind as the server sends it (validate: %s)', (validate) => {
    for (const element of mixedUpdates(1230, 5)) {
      expect(decode(element, validate)).toEqual(element);
    }
  });

  it('returns the input itself when unvalidated and nothing needs normalising', () => {
    const element = transaction(7);
    expect(decodeUpdateElement(element, 0, { validate: false })).toBe(element);
  });

  it('converts numeric strings when validated, and leaves them when not', () => {
    const element = offsetCheckpoint(0) as { update: { OffsetCheckpoint: { value: { offset: unknown } } } };
    element.update.OffsetCheckpoint.value.offset = '1230';
    expect(updateOffset(decode(element, true))).toBe(1230);
    expect(updateOffset(decode(element, false))).toBeUndefined();
  });

  it.each(both)('surfaces an unknown update kind as { unknownVariant, payload } (validate: %s)', (validate) => {
    const payload = { value: { offset: 99, fancy: ['new'] } };
    const element = { update: { SynchronizerUpgrade: payload }, extra: 1 };
    const decoded = decode(element, validate);
    expect(decoded.update).toEqual({ unknownVariant: 'SynchronizerUpgrade', payload });
    expect((decoded as unknown as Record<string, unknown>)['extra']).toBe(1);
    expect(updateOffset(decoded)).toBe(99);
  });

  it('gives the same shape in both modes for unknown nested events, without modifying the input', () => {
    const future = { FutureEvent: { offset: 5, whatever: true } };
    const tx = transaction(5, [createdEvent(5, 0), future, createdEvent(5, 2)]);
    const topo = topologyTransaction(6) as { update: { TopologyTransaction: { value: { events: { event: unknown }[] } } } };
    topo.update.TopologyTransaction.value.events.push({ event: { ParticipantAuthorizationFrozen: { value: { partyId: 'p' } } } });
    const reas = reassignment(7) as { update: { Reassignment: { value: { events: unknown[] } } } };
    reas.update.Reassignment.value.events.push({ JsTeleportEvent: { x: 1 } });
    for (const element of [tx, topo, reas]) {
      const before = structuredClone(element);
      const validated = decodeUpdateElement(element, 0, { validate: true });
      const unvalidated = decodeUpdateElement(element, 0, { validate: false });
      expect(unvalidated).toEqual(validated);
      expect(element).toEqual(before);
    }
    const events = (decode(tx, false).update as { Transaction: { value: { events: unknown[] } } }).Transaction.value.events;
    expect(events[1]).toEqual({ unknownVariant: 'FutureEvent', payload: future.FutureEvent });
    expect(events[0]).toEqual(createdEvent(5, 0));
  });

  it('names the element index and offset of a schema failure and carries the zod issues', () => {
    const element = transaction(1230) as { update: { Transaction: { value: Record<string, unknown> } } };
    delete element.update.Transaction.value['updateId'];
    element.update.Transaction.value['recordTime'] = 17;
    const e = thrown(() => decodeUpdateElement(element, 7, { validate: true }));
    expect(e.code).toBe('SCHEMA_MISMATCH');
    expect(e.message).toContain('element 7');
    expect(e.message).toContain('offset 1230');
    expect(e.elementIndex).toBe(7);
    expect(e.offset).toBe(1230);
    expect(e.retryable).toBe(false);
    const paths = e.issues.map((i) => i.path.join('.'));
    expect(paths).toContain('update.Transaction.value.updateId');
    expect(paths).toContain('update.Transaction.value.recordTime');
    expect(e.message).toContain('updateId');
  });

  it('says the offset is unknown when it cannot be read', () => {
    const element = offsetCheckpoint(1) as { update: { OffsetCheckpoint: { value: Record<string, unknown> } } };
    element.update.OffsetCheckpoint.value['offset'] = 'soon';
    const e = thrown(() => decodeUpdateElement(element, 3, { validate: true }));
    expect(e.message).toContain('element 3 (offset unknown)');
    expect(e.offset).toBeUndefined();
  });

  it.each(both)('rejects elements that are not an object with a one-key update (validate: %s)', (validate) => {
    const bad: unknown[] = [null, 42, 'x', [transaction(1)], {}, { update: null }, { update: [] }, { update: {} },
      { update: { Transaction: { value: {} }, OffsetCheckpoint: { value: { offset: 1 } } } }];
    for (const value of bad) {
      const e = thrown(() => decodeUpdateElement(value, 11, { validate }));
      expect(e.code).toBe('SCHEMA_MISMATCH');
      expect(e.elementIndex).toBe(11);
      expect(e.message).toContain('element 11');
    }
  });

  it('does only the structural check when unvalidated', () => {
    const element = { update: { Transaction: { value: { offset: 'not checked' } } } };
    expect(decodeUpdateElement(element, 0, { validate: false })).toBe(element);
    expect(() => decodeUpdateElement(element, 0, { validate: true })).toThrow(ProtocolError);
  });
});

describe('updateOffset', () => {
  it('reads the offset of all four kinds', () => {
    expect(updateOffset(transaction(11) as unknown as JsGetUpdatesResponse)).toBe(11);
    expect(updateOffset(reassignment(12) as unknown as JsGetUpdatesResponse)).toBe(12);
    expect(updateOffset(topologyTransaction(13) as unknown as JsGetUpdatesResponse)).toBe(13);
    expect(updateOffset(offsetCheckpoint(14) as unknown as JsGetUpdatesResponse)).toBe(14);
  });

  it('reads a best-effort offset of an unknown variant', () => {
    const unknown = (payload: unknown) => ({ update: { unknownVariant: 'X', payload } }) as JsGetUpdatesResponse;
    expect(updateOffset(unknown({ value: { offset: 21 } }))).toBe(21);
    expect(updateOffset(unknown({ offset: 22 }))).toBe(22);
    expect(updateOffset(unknown({ value: { offset: 2 ** 53 } }))).toBeUndefined();
    expect(updateOffset(unknown({ value: { offset: '23' } }))).toBeUndefined();
    expect(updateOffset(unknown({ value: {} }))).toBeUndefined();
    expect(updateOffset(unknown(null))).toBeUndefined();
  });

  it('never throws on a value of the wrong shape', () => {
    for (const value of [null, undefined, 1, {}, { update: 'x' }, { update: {} }, { update: { A: 1 } }]) {
      expect(updateOffset(value as unknown as JsGetUpdatesResponse)).toBeUndefined();
    }
  });
});
