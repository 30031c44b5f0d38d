/** The `--stats` summary of a streaming command, printed as one JSON line on stderr at exit. */
export interface RunStats {
  /** Updates written (tail) or ingested (ingest). */
  readonly count: number;
  /** Bytes written (tail: NDJSON bytes; ingest: JSON bytes of the stored elements). */
  readonly bytes: number;
  /** Wall-clock seconds from the start of the read to the end. */
  readonly seconds: number;
  readonly updatesPerSecond: number;
  readonly firstOffset: number | null;
  readonly lastOffset: number | null;
  /** Retries of failed requests (`retrying` statuses). */
  readonly retries: number;
  /** The transport the read used last (`websocket`, `page`, `list`), `null` when nothing was read. */
  readonly transport: string | null;
}
