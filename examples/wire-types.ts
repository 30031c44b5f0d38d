import { lastValueFrom, tap } from 'rxjs';
import { createLedgerClient, isUnknownVariant, updateFormat, type JsGetUpdatesResponse } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';

function handle(element: JsGetUpdatesResponse): void {
  const update = element.update;
  if ('Transaction' in update) {
    const tx = update.Transaction.value; // JsTransaction
    for (const event of tx.events) {
      if ('CreatedEvent' in event) console.log('created', event.CreatedEvent.templateId);
    }
    // tx.comandId → error TS2339: Property 'comandId' does not exist on type 'JsTransaction'. Did you mean 'commandId'?
  } else if ('OffsetCheckpoint' in update) {
    console.log('checkpoint', update.OffsetCheckpoint.value.offset);
  } else if (isUnknownVariant(update)) {
    console.log('a kind this version does not know', update.unknownVariant);
  }
}

const sandbox = await startSandbox({ seed: 5 });
const client = createLedgerClient({ baseUrl: sandbox.url });
const format = updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build();
await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: format }).pipe(tap(handle)), { defaultValue: undefined });
await client.close();
await sandbox.close();
