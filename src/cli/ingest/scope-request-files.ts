import { watch } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Observable } from 'rxjs';
import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import type { ScopeEdit } from '../../sinks/postgres/edit-scope.js';
import { requestScopeChange } from '../../sinks/postgres/request-scope-change.js';
import type { Logger } from '../log/logger.js';

/** One request file: which stream, and the edits in order. */
interface RequestFile {
  readonly schema: string;
  readonly streamName: string;
  readonly edits: readonly ScopeEdit[];
}

/**
 * Scope-change requests for a running `ingest` on an EMBEDDED store, as files (docs/query-store.md, "Scope changes
 * without a re-seed"): PGlite serves the one process that opened its directory, so `ledger-rx store scope --data-dir`
 * cannot record a request in the database while ingest runs. It drops a file in `<dataDir>/scope-requests/`
 * instead (`queue`: written aside, then renamed in, so a reader never sees half of one); the ingester watches that
 * directory (`changes`: `fs.watch`; a SIGHUP looks too) and `take`s the files, oldest first: each one's edits are
 * recorded with `requestScopeChange` in its own database (which its live path then applies between two batches),
 * then the file is removed. A crash between the two applies that file's edits again at the next start, where they
 * are refused as changing nothing (an added party is there, a removed one is not), so each takes effect once.
 */
export class ScopeRequestFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'scope-requests');
  }

  /** Writes a request; resolves with its file's name. */
  async queue(request: RequestFile): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.json`;
    const staged = join(this.dir, `.${name}.tmp`);
    await writeFile(staged, JSON.stringify(request), { mode: 0o600 });
    await rename(staged, join(this.dir, name));
    return name;
  }

  /** Emits when something changes in the directory (created first, so the watch can start). */
  changes(): Observable<void> {
    return new Observable<void>((subscriber) => {
      let closed = false;
      let close: () => void = () => undefined;
      mkdir(this.dir, { recursive: true })
        .then(() => {
          if (closed) return;
          const watcher = watch(this.dir, () => subscriber.next());
          watcher.on('error', (error) => subscriber.error(error));
          close = () => watcher.close();
          subscriber.next(); // files queued before the watch began
        })
        .catch((error: unknown) => subscriber.error(error));
      return () => {
        closed = true;
        close();
      };
    });
  }

  /**
   * Records the requests of stream `streamName` in `schema` with `requestScopeChange` on `database`, oldest first,
   * removing each file once recorded; a refused one (`editScope`'s rules) is logged and removed. Files of other
   * streams are left alone; an unreadable one is logged and removed.
   */
  async take(database: SqlDatabase, schema: string, streamName: string, logger: Logger): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const file = join(this.dir, name);
      let request: RequestFile;
      try {
        request = JSON.parse(await readFile(file, 'utf8')) as RequestFile;
        if (typeof request.schema !== 'string' || typeof request.streamName !== 'string' || !Array.isArray(request.edits)) throw new TypeError('not a scope request');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // taken meanwhile
        logger.error({ file, err: error }, 'an unreadable scope request file: removed');
        await rm(file, { force: true });
        continue;
      }
      if (request.schema !== schema || request.streamName !== streamName) continue;
      try {
        const recorded = await requestScopeChange(database, request);
        logger.info({ file: name, edits: request.edits, wanted: recorded.wanted }, 'a scope change was asked for with store scope');
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'INVALID_CLIENT_ARGUMENT') throw error;
        logger.error({ file: name, edits: request.edits, err: error }, 'a scope change asked for with store scope was refused');
      }
      await rm(file, { force: true });
    }
  }
}
