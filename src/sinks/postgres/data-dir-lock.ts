import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';

/** Whether process `pid` is alive on this machine (a signal 0 reaches it, or it exists but is not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of an embedded database's directory: the file `ledger-rx.lock` in `dir`, created
 * exclusively and holding this process's pid. An embedded PostgreSQL can be opened by one process at a
 * time, so this is also the one-writer rule of its streams. A lock left by a process that no longer runs
 * (a `kill -9`) is taken over; one held by a live process is waited for, every 200 ms for up to `waitMs`,
 * then the call rejects with a `SINK_CONFLICT` {@link LedgerRxError} naming the pid. `signal` abandons the
 * wait (rejecting with its reason). Resolves with the release (which removes the file; idempotent).
 */
export async function takeDataDirLock(dir: string, waitMs: number, signal?: AbortSignal): Promise<() => Promise<void>> {
  const file = join(dir, 'ledger-rx.lock');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (!Number.isSafeInteger(holder) || holder <= 0 || (holder !== process.pid && !alive(holder))) {
      await rm(file, { force: true }); // left by a process that is gone: take it over
      continue;
    }
    if (Date.now() >= deadline) {
      throw new LedgerRxError(ErrorCodes.SINK_CONFLICT, `the data directory ${dir} is in use by another ledger-rx process (pid ${holder}); an embedded database serves one process at a time`);
    }
    await sleep(200, undefined, signal ? { signal } : {});
  }
}
