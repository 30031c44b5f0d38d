import { context, trace } from '@opentelemetry/api';
import { take } from 'rxjs';
import { createLedgerClient, tailUpdates, updateFormat, updateOffset, type JsGetUpdatesResponse } from 'ledger-rx';
import { startSandbox } from 'ledger-rx/sandbox';
import { updateContext } from 'ledger-rx/tracing';

// Spans are recorded once an OpenTelemetry SDK is registered (NodeSDK, with the W3C propagator); without
// one the API is a no-op and this runs unchanged.
const sandbox = await startSandbox({ seed: 10 });
const client = createLedgerClient({ baseUrl: sandbox.url });
const book = (element: JsGetUpdatesResponse) => console.log('booked', updateOffset(element));

const tracer = trace.getTracer('payments');
tailUpdates(client, { updateFormat: updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build() })
  .pipe(take(3))
  .subscribe({
    next: (element) =>
      // a child of the span that submitted the command (the SDK's W3C propagator reads the traceparent)
      context.with(updateContext(element), () =>
        tracer.startActiveSpan('book payment', (span) => {
          book(element);
          span.end();
        }),
      ),
    complete: () => void client.close().then(() => sandbox.close()),
  });
