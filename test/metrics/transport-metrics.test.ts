import { Registry } from 'prom-client';
import { take, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { collectMetrics } from '../../src/metrics/index.js';
import { tailUpdates } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { updateOffset } from '../../src/updates/index.js';
import { parsePrometheusText } from '../support/prometheus-text.js';

/**
 * The metrics of a tail are the same whatever the transport: a tail over the WebSocket stream and one over
 * get-updates-page against the sandbox, each with its own registry, scraped after a known number of updates.
 */
describe('metrics of a tail over each transport', () => {
  let sandbox: Sandbox;
  let client: LedgerClient;
  const updateFormat = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 60 });
    client = createLedgerClient({ baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it.each(['websocket', 'page'] as const)('%s: elements by kind, bytes, requests and the offset, labelled with the transport', async (transport) => {
    const registry = new Registry();
    const m = collectMetrics(registry, { stream: transport });
    const n = 40;
    const elements = await lastValueFrom(
      tailUpdates(client, { beginExclusive: 0, updateFormat, transport, pageLimit: 7, onStatus: m.onStatus }).pipe(take(n), toArray()),
    );
    const offsets = elements.map((e) => updateOffset(e) as number);
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeGreaterThan(offsets[i - 1] as number);
    const x = parsePrometheusText(await registry.metrics());
    const kinds = ['transaction', 'reassignment', 'topology', 'checkpoint', 'unknown'];
    const counted = kinds.reduce((sum, kind) => sum + x.find('ledger_rx_elements_total', { stream: transport, kind }).reduce((s, v) => s + v.value, 0), 0);
    // every element emitted is counted, the n-th too (take() ends the read inside its delivery)
    expect(counted).toBe(n);
    expect(x.value('ledger_rx_read_bytes_total', { stream: transport, transport })).toBeGreaterThan(n * 100);
    expect(x.value('ledger_rx_offset', { stream: transport })).toBeGreaterThanOrEqual(offsets[n - 1] as number);
    if (transport === 'page') {
      // pages of 7: at least five full pages ended ok before the 40th element
      expect(x.value('ledger_rx_requests_total', { stream: transport, transport, outcome: 'ok' })).toBeGreaterThanOrEqual(5);
      expect(x.value('ledger_rx_page_elements_sum', { stream: transport, transport })).toBeGreaterThanOrEqual(35);
    } else {
      // one WebSocket stream, still open when take() ended it: cancelled, not ok
      expect(x.value('ledger_rx_requests_total', { stream: transport, transport, outcome: 'cancelled' })).toBe(1);
    }
    expect(x.find('ledger_rx_read_bytes_total').every((s) => s.labels['transport'] === transport)).toBe(true);
  });
});

