/** The `--metrics-port`, `--metrics-host` and `--stall-after` flags of a daemon command. */
export interface MonitoringOptions {
  /** Serve `/metrics`, `/healthz` and `/readyz` on this port (0: a free one, logged). Default: no server. */
  readonly metricsPort?: number | undefined;
  /** Interface of that server. Default `127.0.0.1`. */
  readonly metricsHost?: string | undefined;
  /** Not ready once the position has not moved for this many seconds while the ledger end moved. Default 60. */
  readonly stallAfterSeconds?: number | undefined;
}
