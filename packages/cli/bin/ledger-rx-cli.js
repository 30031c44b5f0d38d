#!/usr/bin/env node
// ledger-rx-cli: the `ledger-rx` command line with every package it needs. The CLI itself is the ledger-rx
// library's own bin; this package depends on the library and on the CLI's packages (commander, pg, PGlite,
// the NATS client, prom-client...), which the library declares as optional peers, so that
// `npm install ledger-rx` stays lean and `npx ledger-rx-cli ...` brings everything (docs/packaging.md).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const manifest = createRequire(import.meta.url).resolve('ledger-rx/package.json');
const main = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin['ledger-rx']);
// the library's bin runs when it is the process's main module (process.argv[1]): it is, in all but name
process.argv[1] = main;
await import(pathToFileURL(main).href);
