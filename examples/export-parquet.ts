import { createLedgerClient, updateFormat } from 'ledger-rx';
import { tailUpdates } from 'ledger-rx/operators';
import { startSandbox } from 'ledger-rx/sandbox';
import { exportUpdates } from 'ledger-rx/sinks';

const sandbox = await startSandbox({ seed: 100 });
const client = createLedgerClient({ baseUrl: sandbox.url });
const format = updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build();
const end = sandbox.ledgerEnd(); // without endInclusive the export follows the ledger for ever

// ./ledger/updates and ./ledger/events, Parquet files by record date; a second run continues where the files end
exportUpdates({
  dir: './ledger',
  read: (position) => tailUpdates(client, { beginExclusive: position?.offset ?? 0, endInclusive: end, updateFormat: format, rawText: true }),
}).subscribe({
  next: (commit) => console.log('files up to', commit.position.offset),
  complete: () => void client.close().then(() => sandbox.close()),
});
