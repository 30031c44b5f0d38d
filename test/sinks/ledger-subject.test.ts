import { describe, expect, it } from 'vitest';
import { ledgerHeaders } from '../../src/sinks/jetstream/ledger-headers.js';
import { ledgerSubject } from '../../src/sinks/jetstream/ledger-subject.js';
import { subjectToken } from '../../src/sinks/jetstream/subject-token.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';

const created = (templateId: string, packageName?: string) => ({ CreatedEvent: { templateId, ...(packageName ? { packageName } : {}) } });
const tx = (events: unknown[], extra: Record<string, unknown> = {}) =>
  ({ update: { Transaction: { value: { offset: 7, updateId: 'u7', events, ...extra } } } }) as unknown as JsGetUpdatesResponse;

describe('ledgerSubject', () => {
  it('names one template by package, module and entity; differing positions become _mixed', () => {
    expect(ledgerSubject('l.p', tx([created('#pkg:Main.Iou:Iou', 'pkg'), created('#pkg:Main.Iou:Iou', 'pkg')]))).toBe('l.p.transaction.pkg.Main%2EIou.Iou');
    expect(ledgerSubject('l.p', tx([created('#pkg:M:A', 'pkg'), created('#pkg:M:B', 'pkg')]))).toBe('l.p.transaction.pkg.M._mixed');
    expect(ledgerSubject('l.p', tx([created('#pkg:M:A', 'pkg'), created('#pkg:N:A', 'pkg')]))).toBe('l.p.transaction.pkg._mixed._mixed');
    expect(ledgerSubject('l.p', tx([created('#a:M:A', 'a'), created('#b:M:A', 'b')]))).toBe('l.p.transaction._mixed._mixed._mixed');
    expect(ledgerSubject('l.p', tx([]))).toBe('l.p.transaction._none._none._none');
    expect(ledgerSubject('l.p', tx([created('abc123:M:A')]))).toBe('l.p.transaction.abc123.M.A');
    const reassignment = { update: { Reassignment: { value: { offset: 1, events: [{ JsAssignmentEvent: { createdEvent: { templateId: '#p:M:E', packageName: 'p' } } }] } } } };
    expect(ledgerSubject('l', reassignment as unknown as JsGetUpdatesResponse)).toBe('l.reassignment.p.M.E');
    expect(ledgerSubject('l', { update: { OffsetCheckpoint: { value: { offset: 3 } } } } as unknown as JsGetUpdatesResponse)).toBe('l.checkpoint');
    expect(ledgerSubject('l', { update: { unknownVariant: 'Future', payload: {} } } as unknown as JsGetUpdatesResponse)).toBe('l.unknown');
  });

  it('escapes what is not a plain token, reversibly', () => {
    for (const text of ['Main.Iou', 'a b', 'x*y>z', '100%', 'Ünïcode', '']) {
      const t = subjectToken(text);
      expect(t).toMatch(/^[A-Za-z0-9_%-]+$/);
      if (text !== '') expect(decodeURIComponent(t)).toBe(text);
    }
  });

  it('puts offset, kind, update id, record time, synchronizer and trace context in headers, leaving out what cannot be one', () => {
    const element = tx([], { recordTime: 'T', synchronizerId: 's::1', traceContext: { traceparent: '00-abc-def-01', tracestate: 'a\nb' } });
    expect(ledgerHeaders(element, 7)).toEqual([
      ['Ledger-Offset', '7'],
      ['Ledger-Kind', 'transaction'],
      ['Ledger-Update-Id', 'u7'],
      ['Ledger-Record-Time', 'T'],
      ['Ledger-Synchronizer-Id', 's::1'],
      ['traceparent', '00-abc-def-01'],
    ]);
  });
});
