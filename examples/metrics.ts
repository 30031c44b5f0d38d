import { Registry } from 'prom-client';
import { createLedgerClient, MemoryCheckpointStore, tailUpdates, trackCheckpoint, updateFormat } from 'ledger-rx';
import { collectMetrics, startMetricsServer, ReadinessTracker } from 'ledger-rx/metrics';
import { startSandbox } from 'ledger-rx/sandbox';

const sandbox = await startSandbox({ seed: 50 });
const client = createLedgerClient({ baseUrl: sandbox.url });
const updateFormatOfAlice = updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build();
const store = new MemoryCheckpointStore();

const registry = new Registry();
const readiness = new ReadinessTracker({ stallAfterMs: 60_000 });
const metrics = collectMetrics(registry, {
  stream: 'ious',
  ledgerEnd: () => client.ledgerEnd(), // looked up when scraped, for the lag
  readiness: () => readiness.check(), // ledger_rx_ready
  processMetrics: true, // prom-client's process_* and nodejs_* series
});
// /metrics, /healthz, /readyz (port 9464 in production; 0: any free port)
const server = await startMetricsServer({ registry, readiness: () => readiness.check(), port: Number(process.env['METRICS_PORT'] ?? 9464) });

const endInclusive = sandbox.ledgerEnd(); // a bounded read, to show the figures at its end
tailUpdates(client, { updateFormat: updateFormatOfAlice, endInclusive, checkpointStore: store, onStatus: (s) => (metrics.onStatus(s), readiness.onStatus(s)) })
  .pipe(trackCheckpoint(metrics.instrumentCheckpointStore(store)))
  .subscribe({
    complete: async () => {
      console.log('/readyz', await (await fetch(`${server.url}/readyz`)).text());
      const elements = (await (await fetch(`${server.url}/metrics`)).text()).split('\n').filter((line) => line.startsWith('ledger_rx_elements_total'));
      console.log(elements.join('\n'));
      await Promise.all([server.close(), client.close()]);
      await sandbox.close();
    },
  });
