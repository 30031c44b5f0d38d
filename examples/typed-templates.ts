import { readFileSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import { createLedgerClient, newCommandId, submitAndTrack } from 'ledger-rx';
import { liveContractsOf } from 'ledger-rx/daml';
import { startSandbox } from 'ledger-rx/sandbox';
import { RichTypes } from './daml/richtypes/index.js'; // written by: ledger-rx codegen richtypes.dar --out daml

// the sandbox with your DAR uploaded and vetted (a participant you deployed the DAR to, instead)
const sandbox = await startSandbox({ dars: [readFileSync(process.argv[2] ?? 'richtypes.dar')] });
const client = createLedgerClient({ baseUrl: sandbox.url });
const alice = sandbox.partyId('Alice');

// the live set of a template, payloads typed and validated: subscribe for every change; here its first state
const markers = liveContractsOf(client, { template: RichTypes.Marker, parties: [alice] });
const before = await firstValueFrom(markers);
console.log(`${before.contracts.size} Marker contracts at offset ${before.offset}`);

const { updateId } = await submitAndTrack(client, {
  commands: [RichTypes.Marker.create({ owner: alice })], // a misspelled field does not compile
  commandId: newCommandId(),
  userId: 'typed-example', // without auth the participant takes the user from here (with auth: the token's)
  actAs: [alice],
});
console.log('created in', updateId);

const after = await firstValueFrom(markers);
for (const { contractId, payload } of after.contracts.values()) console.log(contractId, payload.owner); // payload: Marker
await client.close();
await sandbox.close();
