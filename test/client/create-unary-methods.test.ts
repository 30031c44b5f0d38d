import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallOptions } from '../../src/client/call-options.js';
import type { HttpCall, HttpTransport } from '../../src/client/http/create-http-transport.js';
import { createUnaryMethods } from '../../src/client/unary/create-unary-methods.js';
import { userPath } from '../../src/client/unary/user-path.js';
import { InvalidArgumentError, ProtocolError } from '../../src/errors/index.js';

/** An HTTP transport that records each call and answers with `answer`. */
function recordingTransport(answer: unknown = { ok: 1 }) {
  const calls: HttpCall[] = [];
  const http: HttpTransport = {
    call: (call, parse) => {
      calls.push(call);
      return Promise.resolve(parse(answer));
    },
    open: () => Promise.reject(new Error('not used')),
    abortAll: () => undefined,
  };
  return { calls, http };
}

const Answer = z.object({ ok: z.number() });
const rejectWith = (field: string) => (value: unknown) => {
  if (value === 'bad') throw new InvalidArgumentError(field, 'is bad');
};

describe('createUnaryMethods', () => {
  it('builds each shape of call: path, route, body and signal', async () => {
    const { calls, http } = recordingTransport();
    const unary = createUnaryMethods(http, true);
    const signal = new AbortController().signal;
    await expect(unary.get('/v2/version', Answer)({ signal })).resolves.toEqual({ ok: 1 });
    await unary.get(userPath('/rights'), Answer)('a|b');
    await unary.post('/v2/parties', rejectWith('request'), Answer)({ p: 1 });
    await unary.patch(userPath(), (_id: string, request: unknown) => rejectWith('request')(request), Answer)('alice', { u: 1 });
    const withEndpoint = (o: unknown) => (o ?? {}) as CallOptions & { endpoint?: string };
    await unary.post((o) => `/v2/x/${o.endpoint ?? 'default'}`, rejectWith('request'), Answer, withEndpoint)({}, { endpoint: 'update' });
    expect(calls).toEqual([
      { method: 'GET', path: '/v2/version', signal },
      { method: 'GET', path: '/v2/users/a%7Cb/rights', route: '/v2/users/{user-id}/rights', signal: undefined },
      { method: 'POST', path: '/v2/parties', body: { p: 1 }, signal: undefined },
      { method: 'PATCH', path: '/v2/users/alice', route: '/v2/users/{user-id}', body: { u: 1 }, signal: undefined },
      { method: 'POST', path: '/v2/x/update', body: {}, signal: undefined },
    ]);
  });

  it('checks the options, then the request, then the path parameter, rejecting before anything is sent', async () => {
    const { calls, http } = recordingTransport();
    const unary = createUnaryMethods(http, true);
    const grant = unary.post(userPath('/rights'), (_id: string, request: unknown) => rejectWith('request')(request), Answer);
    const field = (p: Promise<unknown>) => p.then(() => 'sent', (e: unknown) => (e instanceof InvalidArgumentError ? e.field : String(e)));
    // every argument bad: the options are named first, then the request, then the id
    expect(await field(grant('', 'bad', 5 as never))).toBe('options');
    expect(await field(grant('', 'bad'))).toBe('request');
    expect(await field(grant('..', {}))).toBe('userId');
    expect(await field(unary.get(userPath(), Answer)(''))).toBe('userId');
    expect(await field(unary.get('/v2/version', Answer)({ signal: 'x' } as never))).toBe('signal');
    expect(calls).toEqual([]);
  });

  it('rejects (never throws) when the arguments are bad', () => {
    const { http } = recordingTransport();
    const result = createUnaryMethods(http, true).get(userPath(), Answer)('');
    expect(result).toBeInstanceOf(Promise);
    return expect(result).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('parses the answer with the schema, or passes it through when responses are not validated', async () => {
    const checked = createUnaryMethods(recordingTransport({ ok: 'no' }).http, true);
    await expect(checked.get('/v2/version', Answer)()).rejects.toBeInstanceOf(ProtocolError);
    const unchecked = createUnaryMethods(recordingTransport({ ok: 'no' }).http, false);
    await expect(unchecked.get('/v2/version', Answer)()).resolves.toEqual({ ok: 'no' });
  });
});
