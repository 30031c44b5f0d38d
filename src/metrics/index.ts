/**
 * `ledger-rx/metrics`: Prometheus instruments for reads of the update stream (through `prom-client`, loaded
 * only by this entry point), the readiness of a daemon, and a small HTTP server for `/metrics`, `/healthz`
 * and `/readyz`.
 *
 * @module ledger-rx/metrics
 */
export { collectMetrics } from './collect-metrics.js';
export type { CollectMetricsOptions } from './collect-metrics.js';
export type { BatchCommit, LedgerRxMetrics } from './ledger-rx-metrics.js';
export { ReadinessTracker } from './readiness-tracker.js';
export type { Readiness, ReadinessOptions, ReadinessPhase } from './readiness-tracker.js';
export { startMetricsServer } from './start-metrics-server.js';
export type { MetricsServer, MetricsServerOptions } from './start-metrics-server.js';
