#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliVersion } from './cli-version.js';

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * The `ledger-rx` command line (see `createProgram`). `ledger-rx --version` (or `-V`) alone is answered
 * here, before commander and the commands' flags are loaded: a version check costs a bare process.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${cliVersion}\n`);
    return;
  }
  const { createProgram } = await import('./create-program.js');
  await createProgram().parseAsync(process.argv);
}

if (isMain()) {
  main().catch((error: unknown) => {
    process.stderr.write(`ledger-rx: ${error instanceof Error ? error.message : String(error)}\n`);
    // the CLI's packages (commander, pg, ...) are optional peers of the library: `npm install ledger-rx`
    // leaves them out, ledger-rx-cli brings them (docs/packaging.md)
    const missing = (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' ? /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1] : undefined;
    if (missing !== undefined) process.stderr.write(`ledger-rx: the command line needs ${missing}, which installing the ledger-rx library leaves out: run it as \`npx ledger-rx-cli ...\`, or install ledger-rx-cli\n`);
    process.exit(1);
  });
}
