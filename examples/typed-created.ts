import { readFileSync } from 'node:fs';
import { createLedgerClient, updateFormat } from 'ledger-rx';
import { createdOf } from 'ledger-rx/daml';
import { tailUpdates } from 'ledger-rx/operators';
import { startSandbox } from 'ledger-rx/sandbox';
import { RichTypes } from './daml/richtypes/index.js';

const sandbox = await startSandbox({ seed: 20, dars: [readFileSync(process.argv[2] ?? 'richtypes.dar')] });
const client = createLedgerClient({ baseUrl: sandbox.url });
const alice = sandbox.partyId('Alice');

let created = 0;
tailUpdates(client, { endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat().transactions((t) => t.parties(alice).template(RichTypes.RichRecord)).build() })
  .pipe(createdOf(RichTypes.RichRecord))
  .subscribe({
    next: ({ contractId, payload }) => {
      created++;
      console.log(contractId, payload.amount, payload.profile.level);
    },
    complete: () => {
      console.log(`${created} RichRecord contracts created up to offset ${sandbox.ledgerEnd()}`);
      void client.close().then(() => sandbox.close());
    },
  });
