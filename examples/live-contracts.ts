import { take } from 'rxjs';
import { createLedgerClient, EventFormatBuilder, liveContracts } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';

const sandbox = await startSandbox({ seed: 30, generate: 10 }); // a workload creates and archives IOUs
const client = createLedgerClient({ baseUrl: sandbox.url });
const alice = sandbox.partyId('Alice');

const ious = new EventFormatBuilder().parties(alice).template('#ledger-rx-demo:Iou:Iou').build();
liveContracts(client, { eventFormat: ious })
  .pipe(take(3)) // the snapshot, then two changes
  .subscribe({
    next: ({ offset, contracts }) => console.log(`${contracts.size} open IOUs at offset ${offset}`),
    complete: () => void client.close().then(() => sandbox.close()),
  });
