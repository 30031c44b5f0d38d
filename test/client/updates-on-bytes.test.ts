import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/index.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { checkpointElement, transactionElement, updatesRequest } from './support/fixtures.js';
import { startLocalServer, type LocalServer } from './support/local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('updates() and iterateUpdates() with onBytes', () => {
  it('report every byte of the body as the chunks arrive, before the elements they complete', async () => {
    const body = JSON.stringify([transactionElement(11), checkpointElement(12), transactionElement(15)]);
    const cut = [0, 40, 300, body.length];
    server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      const next = () => {
        if (i === cut.length - 1) {
          res.end();
          return;
        }
        res.write(body.slice(cut[i], cut[i + 1]));
        i++;
        setTimeout(next, 5);
      };
      next();
    });
    const client = createLedgerClient({ baseUrl: server.url });
    const log: string[] = [];
    let bytes = 0;
    const onBytes = (n: number) => {
      bytes += n;
      log.push(`bytes ${n}`);
    };
    const got = await lastValueFrom(client.updates(updatesRequest(), { onBytes }).pipe(toArray()));
    expect(got).toHaveLength(3);
    expect(bytes).toBe(Buffer.byteLength(body));
    expect(log.length).toBeGreaterThanOrEqual(2);

    bytes = 0;
    const iterated = [];
    for await (const element of client.iterateUpdates(updatesRequest(), { onBytes })) iterated.push(element);
    expect(iterated).toHaveLength(3);
    expect(bytes).toBe(Buffer.byteLength(body));
    await client.close();
  });

  it('rejects an onBytes that is not a function before sending', () => {
    const client = createLedgerClient({ baseUrl: 'http://127.0.0.1:9' });
    expect(() => client.updates(updatesRequest(), { onBytes: 5 as never })).toThrow(InvalidArgumentError);
  });
});
