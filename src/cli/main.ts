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
    process.exit(1);
  });
}
