import { fromEvent, takeUntil } from 'rxjs';
import { createLedgerClient, FileCheckpointStore, tailUpdates, trackCheckpoint, updateFormat, updateOffset } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';

// 20 transactions at start, then 5 new ones a second
const sandbox = await startSandbox({ seed: 20, generate: 5 });
const client = createLedgerClient({
  baseUrl: sandbox.url,
  // token: () => readFile('token.jwt', 'utf8'), // a real participant: called for every request, and again after a 401
});

const format = updateFormat()
  .transactions((t) => t.parties(sandbox.partyId('Alice')).shape('acs-delta'))
  .build();

// A restart continues after the offset saved in ./alice.checkpoint: no gap, no duplicate.
const store = new FileCheckpointStore('./alice.checkpoint');
tailUpdates(client, { updateFormat: format, checkpointStore: store })
  .pipe(takeUntil(fromEvent(process, 'SIGINT')), trackCheckpoint(store))
  .subscribe({
    next: (element) => console.log(updateOffset(element), JSON.stringify(element).slice(0, 100)),
    complete: () => void Promise.all([client.close(), sandbox.close()]), // after Ctrl-C, once the last position is saved
  });
