import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readDarFiles } from '../options/read-dar-files.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import { ExitCode } from '../process/exit-code.js';
import { generateTypeScript } from './generate-typescript.js';

/** The options of `ledger-rx codegen`. */
export interface CodegenOptions {
  /** The DAR files. */
  readonly dars: readonly string[];
  /** The output directory. */
  readonly out: string | undefined;
}

/**
 * `ledger-rx codegen FILE.dar... --out DIR`: reads the DARs, generates TypeScript for each main package and
 * the packages it needs (docs/typed-templates.md) and writes it under `DIR` (files of other names already there
 * are left alone), then prints one line on stderr. Resolves with 0; throws a `UsageError` (exit 2) without a
 * DAR or `--out`; a DAR that cannot be read is reported with its path and the `DarError`'s code (exit 1).
 */
export async function runCodegen(options: CodegenOptions, io: CliIo): Promise<ExitCode> {
  if (options.dars.length === 0) throw new UsageError('codegen needs at least one DAR file');
  if (options.out === undefined || options.out === '') throw new UsageError('codegen needs --out <dir>: the directory to write the TypeScript to');
  const dars = await readDarFiles(options.dars);
  const files = generateTypeScript(dars);
  const out = resolve(options.out);
  for (const file of files) {
    const path = join(out, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
  const packages = new Set(files.map((f) => f.path.split('/')[0]));
  io.stderr.write(`codegen: wrote ${files.length} files for ${packages.size} packages to ${options.out}\n`);
  return ExitCode.OK;
}
