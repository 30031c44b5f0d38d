/**
 * A sandbox participant in its own process, seeded with transactions of an exact shape: `--transactions N`
 * transactions of `--events K` Iou creates each, submitted through the sandbox's own `submit` (the
 * semantics of `POST /v2/commands/async/submit`), round-robin over the local parties. Then it prints the
 * ready line of `ledger-rx sandbox` (`ledger-rx sandbox listening on <url>`) and runs until SIGTERM/SIGINT.
 * Used by the ingest benchmark, which needs 1-event and 5-event transactions (the CLI's `--seed` workload
 * mixes shapes).
 *
 * `--max-list-elements=N` raises the list limit of `POST /v2/updates` and `POST /v2/state/active-contracts`
 * (the participant's `http-list-max-elements-limit`, 200 by default), for benchmarks that read a large set as
 * one list.
 *
 * With `--offsets-file=F` it first writes the offset of every transaction to F (a JSON array), so that a
 * reader can stop after the first n of them.
 *
 *     node benchmarks/node_modules/.bench-build/lib/sandbox-host.js --transactions=100000 --events=1
 */
import { writeFileSync } from 'node:fs';
import { startSandbox } from 'ledger-rx/sandbox';
import { numberOption, option } from './args.js';

const transactions = numberOption('transactions', 1000);
const events = numberOption('events', 1);
const maxListElements = numberOption('max-list-elements', 200);
const sandbox = await startSandbox({ port: 0, requestTimeoutMs: 3_600_000, maxListElements });
const parties = ['Alice', 'Bob', 'Charlie'].map((hint) => sandbox.partyId(hint));
const offsetsFile = option('offsets-file', '');
const offsets: number[] = [];
const memo = 'settlement of invoice 2026-000123 for the Zürich desk';
for (let i = 0; i < transactions; i++) {
  const issuer = parties[i % parties.length] as string;
  const commands = [];
  for (let k = 0; k < events; k++) {
    const owner = parties[(i + k + 1) % parties.length] as string;
    commands.push({
      CreateCommand: {
        templateId: '#ledger-rx-demo:Iou:Iou',
        createArguments: { issuer, owner, currency: 'USD', amount: `${(i % 1000) + k}.5000000000`, observers: [], memo },
      },
    });
  }
  await sandbox.submit({ commands, commandId: `bench-${i}`, actAs: [issuer] });
  offsets.push(sandbox.ledgerEnd());
}
if (offsetsFile !== '') writeFileSync(offsetsFile, JSON.stringify(offsets));
process.stdout.write(`ledger-rx sandbox listening on ${sandbox.url}\n`);
const stop = () => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
