import { connect } from '@nats-io/transport-node';
import { lastValueFrom, take, tap } from 'rxjs';
import { updateOffset, type JsGetUpdatesResponse } from 'ledger-rx';
import { consumeLedgerFromJetStream } from 'ledger-rx/jetstream';

// The stream LEDGER, filled by
//   ledger-rx publish --sandbox --to end --nats nats://127.0.0.1:4222 --stream LEDGER --subject-prefix ledger.p1
const nc = await connect({ servers: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' });
const handle = (element: JsGetUpdatesResponse) => console.log('ordered', updateOffset(element));
const bill = async (element: JsGetUpdatesResponse) => console.log('billed', updateOffset(element));

// ordered: this process alone, offsets strictly increasing, nothing missing; afterOffset replays
await lastValueFrom(consumeLedgerFromJetStream({ connection: nc, stream: 'LEDGER', afterOffset: 10 }).pipe(take(3), tap(handle)));

// load-balanced: every worker naming the same durable consumer gets its share, each element once,
// acknowledged after the handler completes
const billing = consumeLedgerFromJetStream({ connection: nc, stream: 'LEDGER', durable: 'billing', filterSubject: 'ledger.p1.transaction.ledger-rx-demo.>', handler: bill });
await lastValueFrom(billing.pipe(take(3)));
await nc.close();
