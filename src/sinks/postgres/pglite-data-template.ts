import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const assetsName = 'assets';
const templateName = 'pglite-data-template.tar.gz';
const versionName = 'pglite-data-template.json';

/** The `version` of the installed `@electric-sql/pglite` (its package.json, found above its entry file), or `undefined`. */
function installedPgliteVersion(): string | undefined {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (let up = 0; up < 5; up++, dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@electric-sql/pglite' && typeof pkg.version === 'string') return pkg.version;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The `dist/assets` folder the build wrote: above this module in the built package (or beside `src/` in a clone). */
function assetsFolder(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++, dir = dirname(dir)) {
    for (const candidate of [join(dir, assetsName), join(dir, 'dist', assetsName)]) if (existsSync(join(candidate, templateName))) return candidate;
  }
  return undefined;
}

/**
 * The data directory of a new, empty PGlite database, as the build dumped it (scripts/pglite-data-template.mjs),
 * for `PGlite.create(dir, { loadDataDir })`: a new embedded store starts from it instead of running PGlite's
 * initdb, whose second WebAssembly instance made the process peak at ~0.9 GB (docs/ingest.md, "Memory of the
 * embedded store"). `undefined` when the build made none or it was made by another PGlite version than the one
 * installed (a data directory is bound to its PostgreSQL build): the caller then runs initdb.
 */
export async function pgliteDataTemplate(): Promise<Blob | undefined> {
  const folder = assetsFolder();
  if (folder === undefined) return undefined;
  try {
    const made = (JSON.parse(await readFile(join(folder, versionName), 'utf8')) as { pglite?: unknown }).pglite;
    if (made === undefined || made !== installedPgliteVersion()) return undefined;
    return new Blob([await readFile(join(folder, templateName))]);
  } catch {
    return undefined;
  }
}
