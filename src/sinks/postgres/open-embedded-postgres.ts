import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import { takeDataDirLock } from './data-dir-lock.js';
import { pgliteDataTemplate } from './pglite-data-template.js';
import { pgliteSqlDatabase } from './pglite-sql-database.js';

/** An opened embedded PostgreSQL (see {@link openEmbeddedPostgres}). */
export interface EmbeddedPostgres {
  /** The database, with `search_path` set to the schema it was opened for. */
  readonly database: SqlDatabase;
  /** Runs SQL text (one or more statements, no parameters) and resolves with the last result's rows and columns. */
  exec(text: string): Promise<{ readonly rows: Record<string, unknown>[]; readonly fields: readonly { readonly name: string; readonly dataTypeID: number }[] }>;
  /** Calls `callback` with the payload of each notification on `channel` (PGlite's `listen`); resolves with the function that stops. */
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  /** The absolute data directory. */
  readonly dataDir: string;
  /** Closes the database (its files are consistent on disk) and releases the directory. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link openEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** `search_path` of the connection: the schema whose tables unqualified names mean. Default `public`. */
  readonly schema?: string;
  /** How long to wait for another process that has the directory open. Default 15 000 ms. */
  readonly lockWaitMs?: number;
  readonly signal?: AbortSignal | undefined;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * Opens (creating it on first use) an embedded PostgreSQL in `dataDir`: PGlite, PostgreSQL compiled to
 * WebAssembly, running in this process with its files in `dataDir/pgdata` — the same SQL, migrations and
 * transactions as a server, with nothing to install or start. The directory is taken first
 * (`takeDataDirLock`: one process at a time; a lock left by a killed process is taken over), then PGlite
 * is loaded (only here, so nothing else pays for it) and opened, which recovers from a crash like a server
 * does. A new directory is made from the build's template of an empty database (`pgliteDataTemplate`) when
 * there is one for the installed PGlite, else by PGlite's initdb (about twice the peak memory). Rejects with `SINK_CONFLICT` when another live process keeps the directory past `lockWaitMs`, and
 * with PGlite's error when the files cannot be opened.
 */
export async function openEmbeddedPostgres(dataDir: string, options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const schema = options.schema ?? 'public';
  if (!identifier.test(schema)) throw new RangeError(`schema must be a plain lower-case SQL identifier, got '${schema}'`);
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const release = await takeDataDirLock(dir, options.lockWaitMs ?? 15_000, options.signal);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pgdata = join(dir, 'pgdata');
    // a new store starts from the build's template of an empty data directory, not from initdb (peak memory)
    const template = existsSync(join(pgdata, 'PG_VERSION')) ? undefined : await pgliteDataTemplate();
    let db: InstanceType<typeof PGlite>;
    if (template === undefined) db = await PGlite.create(pgdata);
    else {
      try {
        db = await PGlite.create(pgdata, { loadDataDir: template });
      } catch {
        // a template this PGlite cannot load: start again without it, from an empty directory
        await rm(pgdata, { recursive: true, force: true });
        db = await PGlite.create(pgdata);
      }
    }
    await db.query(`SET search_path TO ${schema}`);
    let closed: Promise<void> | undefined;
    const database = pgliteSqlDatabase(db);
    return {
      database,
      exec: async (text) => {
        const results = await db.exec(text);
        const last = results.at(-1);
        return { rows: (last?.rows ?? []) as Record<string, unknown>[], fields: last?.fields ?? [] };
      },
      listen: (channel, callback) => db.listen(channel, callback),
      dataDir: dir,
      close: () => (closed ??= db.close().finally(() => release())),
    };
  } catch (error) {
    await release();
    throw error;
  }
}
