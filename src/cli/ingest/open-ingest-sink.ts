import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import type { Dar } from '../../daml/read-dar.js';
import { openEmbeddedPostgres } from '../../sinks/postgres/open-embedded-postgres.js';
import { PostgresSink, type PostgresSinkStatus } from '../../sinks/postgres/postgres-sink.js';
import type { StreamScope } from '../../sinks/postgres/stream-scope.js';
import type { CommittedOffsetsSource } from '../../sinks/postgres/watch-committed-offsets.js';
import type { Logger } from '../log/logger.js';
import { defaultDataDir } from './default-data-dir.js';
import type { IngestOptions } from './ingest-options.js';

/** What {@link openIngestSink} needs besides the flags. */
export interface IngestSinkContext {
  readonly schema: string;
  readonly streamName: string;
  readonly onStatus: (status: PostgresSinkStatus) => void;
  readonly logger: Logger;
  readonly signal?: AbortSignal | undefined;
  /** The DARs of `--dar`, read: their typed views are made by the sink's start. */
  readonly dars?: readonly Dar[] | undefined;
  /** The scope of the filter flags, recorded with the stream's first commit. */
  readonly scope?: StreamScope | undefined;
}

/** The sink of `ingest` and where its store's channels are listened to (scope requests). */
export interface IngestSink {
  readonly sink: PostgresSink;
  /** The server's URL, or the embedded store's in-process `listen`. */
  readonly channels: CommittedOffsetsSource;
  /** The embedded store's database and directory (its scope requests come as files: `ScopeRequestFiles`). */
  readonly embedded?: { readonly database: SqlDatabase; readonly dataDir: string } | undefined;
}

/**
 * The `PostgresSink` of `ingest`: on the server of `options.pg` (a pg pool, the advisory stream lock with
 * its lease; `standby` waits for it without limit), or without it on the embedded PostgreSQL in
 * `options.dataDir` (`openEmbeddedPostgres`: the directory itself is the lock, waited for up to
 * `lockWaitMs`, or without limit with `standby`; closed with the sink). The same migrations, rows and
 * exactly-once commits either way. With it, where a running ingest hears of scope-change requests: the server's
 * `LISTEN`, or the embedded store's in-process `listen`.
 */
export async function openIngestSink(options: IngestOptions, context: IngestSinkContext): Promise<IngestSink> {
  const { schema, streamName, onStatus, dars, scope } = context;
  const lockWaitMs = options.standby ? Infinity : (options.lockWaitMs ?? 15_000);
  if (options.pg !== undefined) {
    const sink = await PostgresSink.connect({ url: options.pg, schema, streamName, lockWaitMs, leaseMs: options.lockLeaseMs, dars, scope, onStatus });
    return { sink, channels: { url: options.pg } };
  }
  const embedded = await openEmbeddedPostgres(options.dataDir ?? defaultDataDir, { schema, lockWaitMs, signal: context.signal });
  context.logger.info({ dataDir: embedded.dataDir }, 'embedded PostgreSQL opened');
  try {
    const sink = new PostgresSink({ database: embedded.database, schema, streamName, dars, scope, onStatus }, () => embedded.close());
    return { sink, channels: { listen: (channel, callback) => embedded.listen(channel, callback), database: embedded.database }, embedded };
  } catch (error) {
    await embedded.close();
    throw error;
  }
}
