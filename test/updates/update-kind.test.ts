import { describe, expect, it } from 'vitest';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { updateKind, updateRecordTime } from '../../src/updates/index.js';

const el = (update: unknown) => ({ update }) as JsGetUpdatesResponse;

describe('updateKind and updateRecordTime', () => {
  it.each([
    [el({ Transaction: { value: { offset: 1, recordTime: '2026-01-01T00:00:01Z' } } }), 'transaction', '2026-01-01T00:00:01Z'],
    [el({ Reassignment: { value: { offset: 2, recordTime: '2026-01-01T00:00:02Z' } } }), 'reassignment', '2026-01-01T00:00:02Z'],
    [el({ TopologyTransaction: { value: { offset: 3, recordTime: '2026-01-01T00:00:03Z' } } }), 'topology', '2026-01-01T00:00:03Z'],
    // the latest of a checkpoint's synchronizer times, by time (not by text: an offset form sorts otherwise)
    [
      el({ OffsetCheckpoint: { value: { offset: 4, synchronizerTimes: [{ synchronizerId: 'a', recordTime: '2026-01-01T01:00:00+02:00' }, { synchronizerId: 'b', recordTime: '2026-01-01T00:00:04Z' }] } } }),
      'checkpoint',
      '2026-01-01T00:00:04Z',
    ],
    [el({ OffsetCheckpoint: { value: { offset: 5, synchronizerTimes: [] } } }), 'checkpoint', undefined],
    [el({ unknownVariant: 'Future', payload: {} }), 'unknown', undefined],
    [el({ Transaction: { value: { offset: 6 } } }), 'transaction', undefined],
    [el(null), 'unknown', undefined],
  ])('%j is %s at %s', (element, kind, time) => {
    expect(updateKind(element)).toBe(kind);
    expect(updateRecordTime(element)).toBe(time);
  });
});
