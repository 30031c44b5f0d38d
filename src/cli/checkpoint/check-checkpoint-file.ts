import { randomBytes } from 'node:crypto';
import { open, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../options/usage-error.js';

/**
 * Checks, before anything is read or written, that `--checkpoint FILE` can be saved where it is: its
 * directory exists and is a directory, `FILE` is not a directory, and a file can be created in that
 * directory (the store writes a temporary file there and renames it over `FILE`). The probe creates an
 * empty hidden file beside `FILE` and removes it at once, so it leaves nothing behind.
 *
 * Throws {@link UsageError} (exit 2) with a message naming the path and the reason otherwise; without this
 * check the tail would write data first and fail at its first save.
 */
export async function checkCheckpointFile(path: string): Promise<void> {
  const dir = dirname(resolve(path));
  const fail = (reason: string) => new UsageError(`--checkpoint ${path}: ${reason}`);
  const dirStat = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw fail(`the directory ${dir} does not exist`);
    if (error.code === 'ENOTDIR') throw fail(`${dir} is not a directory`);
    throw fail(`cannot access the directory ${dir} (${error.code ?? error.message})`);
  });
  if (!dirStat.isDirectory()) throw fail(`${dir} is not a directory`);
  const own = await stat(path).catch(() => undefined);
  if (own?.isDirectory()) throw fail('it is a directory');
  const probe = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.probe`);
  let file;
  try {
    file = await open(probe, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(`cannot create files in ${dir} (${code ?? (error as Error).message}): the checkpoint could not be saved`);
  }
  await file.close().catch(() => undefined);
  await rm(probe, { force: true });
}
