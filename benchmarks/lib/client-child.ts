/**
 * The child side of a benchmark that measures the client in a fresh process: `--child=<kind> --url=<url>`
 * picks one of `kinds`, runs it with a client of that participant, closes the client and prints the result
 * as one JSON line (what `runJsonChild` reads).
 */
import { createLedgerClient, type LedgerClient } from 'ledger-rx';
import { option } from './args.js';

export async function runClientChild(kinds: Readonly<Record<string, (client: LedgerClient) => Promise<unknown>>>): Promise<void> {
  const kind = option('child', '');
  const run = kinds[kind];
  if (run === undefined) throw new Error(`unknown child ${kind}`);
  const client = createLedgerClient({ baseUrl: option('url', '') });
  const result = await run(client);
  await client.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
