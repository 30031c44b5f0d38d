#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createProgram } from './create-program.js';

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  createProgram()
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      process.stderr.write(`ledger-rx: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
