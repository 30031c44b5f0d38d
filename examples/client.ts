import { take } from 'rxjs';
import { createLedgerClient, FileCheckpointStore, tailUpdates, trackCheckpoint, updateFormat, type JsGetUpdatesResponse, type TailStatus } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';

// the embedded sandbox with tokens, and a user `alice` that may read as Alice (your participant instead)
const sandbox = await startSandbox({ seed: 50, authSecret: 'my-secret' });
const alice = sandbox.partyId('Alice');
const admin = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('participant_admin') });
await admin.createUser({ user: { id: 'alice', primaryParty: alice, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] });

const client = createLedgerClient({
  baseUrl: sandbox.url,
  token: () => sandbox.token('alice'), // called for every request; after a 401, or a 403 for a token that had expired, it is called again and the request retried once
});

const format = updateFormat()
  .transactions((t) => t.parties(alice).template('#ledger-rx-demo:Iou:Iou').shape('acs-delta'))
  .build();

const log = (status: TailStatus) => console.log('status', status.type);
const handle = (element: JsGetUpdatesResponse) => {
  if ('Transaction' in element.update) console.log('transaction', element.update.Transaction.value.offset, element.update.Transaction.value.commandId);
};

const store = new FileCheckpointStore('./iou.checkpoint');
tailUpdates(client, { updateFormat: format, checkpointStore: store, onStatus: (s) => log(s) })
  .pipe(take(5), trackCheckpoint(store)) // the first five, then the position is saved
  .subscribe({
    next: (element) => handle(element), // { update: { Transaction: { value: { offset, events, ... } } } }
    complete: () => void Promise.all([client.close(), admin.close()]).then(() => sandbox.close()),
  });
