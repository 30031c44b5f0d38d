import { createLedgerClient } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';

const sandbox = await startSandbox({ seed: 1_000, authSecret: 'test-secret' }); // random port on 127.0.0.1
const token = await sandbox.token('participant_admin');
const client = createLedgerClient({ baseUrl: sandbox.url, token }); // or any HTTP client, with `Authorization: Bearer <token>`
console.log('ledger end', (await client.ledgerEnd()).offset);

const alice = sandbox.partyId('Alice');
const { updateId } = await sandbox.submit({
  commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '10.0', observers: [] } } }],
  commandId: 'c1',
  actAs: [alice],
});
console.log('created in', updateId);
sandbox.prune(sandbox.ledgerEnd()); // reads must now begin at the ledger end
console.log('pruned up to', (await client.latestPrunedOffsets()).participantPrunedUpToInclusive);
await client.close();
await sandbox.close();
