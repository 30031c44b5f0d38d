import { Option, type Command } from 'commander';

/**
 * Adds the monitoring flags of the daemon commands (`tail`, `ingest`, `publish`): `--metrics-port`,
 * `--metrics-host` and `--stall-after`, read back with `readMonitoringOptions`.
 */
export function addMonitoringOptions(command: Command): Command {
  return command
    .addOption(new Option('--metrics-port <port>', 'serve Prometheus /metrics, /healthz and /readyz on this port (0: a free one, logged)'))
    .addOption(new Option('--metrics-host <host>', 'interface of the metrics server').default('127.0.0.1'))
    .addOption(new Option('--stall-after <seconds>', '/readyz turns 503 when the position has not moved this long while the ledger end moved').default('60'));
}
