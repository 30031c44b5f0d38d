import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClientOptions } from '../../src/client/index.js';
import { resolveClientOptions } from '../../src/client/resolve-client-options.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

function fieldOf(options: LedgerClientOptions): string {
  try {
    createLedgerClient(options);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as InvalidArgumentError).field;
  }
  throw new Error('expected createLedgerClient to throw');
}

describe('createLedgerClient options', () => {
  it('rejects a bad baseUrl', () => {
    expect(fieldOf({ baseUrl: 'not a url' })).toBe('baseUrl');
    expect(fieldOf({ baseUrl: 'ftp://ledger:21' })).toBe('baseUrl');
    expect(fieldOf({ baseUrl: 'http://ledger?x=1' })).toBe('baseUrl');
    expect(fieldOf({ baseUrl: 'http://user:secret@ledger' })).toBe('baseUrl');
    expect(fieldOf({ baseUrl: 42 as unknown as string })).toBe('baseUrl');
  });

  it('rejects other bad options', () => {
    const baseUrl = 'http://ledger:7575';
    expect(fieldOf({ baseUrl, timeoutMs: 0 })).toBe('timeoutMs');
    expect(fieldOf({ baseUrl, timeoutMs: 1.5 })).toBe('timeoutMs');
    expect(fieldOf({ baseUrl, webSocketHandshakeTimeoutMs: 0 })).toBe('webSocketHandshakeTimeoutMs');
    expect(fieldOf({ baseUrl, webSocketHandshakeTimeoutMs: 2.5 })).toBe('webSocketHandshakeTimeoutMs');
    expect(fieldOf({ baseUrl, token: 5 as unknown as string })).toBe('token');
    expect(fieldOf({ baseUrl, dispatcher: {} as never })).toBe('dispatcher');
    expect(fieldOf({ baseUrl, headers: { 'x-a': 'ok\r\nx-b: injected' } })).toBe('headers.x-a');
    expect(fieldOf({ baseUrl, validateResponses: 'yes' as unknown as boolean })).toBe('validateResponses');
  });

  it('does not echo a bad token in the error', () => {
    try {
      createLedgerClient({ baseUrl: 'http://ledger', token: 'secret-token\nx' });
      throw new Error('expected a throw');
    } catch (error) {
      expect((error as InvalidArgumentError).field).toBe('token');
      expect((error as Error).message).not.toContain('secret-token');
    }
  });

  it('applies defaults', async () => {
    const resolved = resolveClientOptions({ baseUrl: new URL('http://ledger:7575/prefix/') });
    expect(resolved.timeoutMs).toBe(30_000);
    expect(resolved.webSocketHandshakeTimeoutMs).toBe(3_000);
    expect(resolved.validateResponses).toBe(true);
    expect(resolved.refreshableToken).toBe(false);
    expect(await resolved.getToken()).toBe('');
    expect(resolved.baseUrl.href).toBe('http://ledger:7575/prefix/');
  });

  it('leaves a dispatcher it did not create open on close()', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const client = createLedgerClient({ baseUrl: 'http://ledger.test', dispatcher: agent });
    await client.close();
    await client.close();
    // still usable: a closed agent would reject with ClientDestroyedError instead of answering
    agent.get('http://ledger.test').intercept({ path: '/ping' }).reply(200, 'pong');
    const { request } = await import('undici');
    const res = await request('http://ledger.test/ping', { dispatcher: agent });
    expect(await res.body.text()).toBe('pong');
    await agent.close();
  });
});
