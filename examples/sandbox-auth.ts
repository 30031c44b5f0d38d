import { lastValueFrom, toArray } from 'rxjs';
import { createLedgerClient, updateFormat } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';

// With authSecret the sandbox checks tokens as a participant does: HS256 JWTs, `sub` is the user.
const sandbox = await startSandbox({ seed: 20, authSecret: 'test-secret' });
const alice = sandbox.partyId('Alice');

// The administrator creates a user that may read as Alice: ParticipantAdmin alone may not (a read as Alice
// with the admin's token is a 403 whose `hint` names CanReadAs(Alice::…) and the user).
const admin = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('participant_admin') });
await admin.createUser({
  user: { id: 'alice-reader', primaryParty: alice, isDeactivated: false, identityProviderId: '' },
  rights: [{ kind: { CanReadAs: { value: { party: alice } } } }],
});

const client = createLedgerClient({ baseUrl: sandbox.url, token: () => sandbox.token('alice-reader') }); // called for every request
const format = updateFormat().transactions((t) => t.parties(alice)).build();
const updates = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format }, { transport: 'websocket' }).pipe(toArray()));
console.log(`${updates.length} updates visible to Alice up to offset ${sandbox.ledgerEnd()}`);

await Promise.all([client.close(), admin.close()]);
await sandbox.close();
