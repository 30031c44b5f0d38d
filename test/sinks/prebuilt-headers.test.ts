import * as nats from '@nats-io/nats-core';
import { describe, expect, it } from 'vitest';
import { prebuiltHeaders } from '../../src/sinks/jetstream/prebuilt-headers.js';

describe('prebuiltHeaders', () => {
  const make = prebuiltHeaders(nats);
  const pairs: [string, string][] = [
    ['Ledger-Offset', '42'],
    ['Ledger-Kind', 'transaction'],
    ['traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
    ['Nats-Msg-Id', 'LEDGER:42'],
    ['Nats-Expected-Last-Sequence', '41'],
  ];

  it('encodes the same bytes as the client headers built with set(), and answers get/has/keys like them', () => {
    const reference = new nats.MsgHdrsImpl();
    for (const [name, value] of pairs) reference.set(name, value);
    const built = make(pairs);
    expect(Buffer.from(built.encode())).toEqual(Buffer.from(reference.encode()));
    expect(built.toString()).toBe(reference.toString());
    expect(built.get('Ledger-Offset')).toBe('42');
    expect(built.has('Nats-Msg-Id')).toBe(true);
    expect(built.keys()).toEqual(pairs.map(([name]) => name));
    const decoded = nats.MsgHdrsImpl.decode(built.encode());
    expect(pairs.map(([name]) => decoded.get(name))).toEqual(pairs.map(([, value]) => value));
  });

  it('trims values like the client, refuses a line break, and is read-only', () => {
    expect(make([['A', ' x ']]).get('A')).toBe('x');
    expect(() => make([['A', 'x\r\nB: y']])).toThrow(TypeError);
    const built = make(pairs);
    expect(() => built.set('Ledger-Offset', '43')).toThrow(TypeError);
    expect(() => built.append('X', '1')).toThrow(TypeError);
    expect(() => built.delete('Ledger-Offset')).toThrow(TypeError);
    expect(built.get('Ledger-Offset')).toBe('42');
  });
});
