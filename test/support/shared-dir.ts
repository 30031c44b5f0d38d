import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the reference folder is looked for: `LEDGER_RX_SHARED`, else `../shared` beside the repository. */
const sharedCandidate = process.env['LEDGER_RX_SHARED'] ?? resolve(repoRoot, '..', 'shared');

/**
 * The reference folder `../shared` beside the repository (CI always has it), or `LEDGER_RX_SHARED`.
 * `undefined` in a user's clone without it. Tests do not test this directly: they ask {@link sharedAvailable}
 * or {@link specAvailable}, which fail under CI and say why they skip elsewhere.
 */
export const sharedDir: string | undefined = existsSync(resolve(sharedCandidate, 'canton', 'openapi.yaml')) ? sharedCandidate : undefined;

/** Path of the official OpenAPI spec, when available. */
export const openapiPath = sharedDir ? resolve(sharedDir, 'canton', 'openapi.yaml') : undefined;

/** A release line with its own spec in ../shared/canton (`openapi-3.5.yaml`, ...). */
export type SpecVersion = '3.4' | '3.5' | '3.6';

/** Path of the OpenAPI spec of a release line (`openapi-<version>.yaml`), or of openapi.yaml without one. */
export function openapiPathOf(version: SpecVersion | undefined): string | undefined {
  if (!sharedDir) return undefined;
  return version === undefined ? openapiPath : resolve(sharedDir, 'canton', `openapi-${version}.yaml`);
}

/** Path of the official AsyncAPI (WebSocket) spec, when available. */
export const asyncapiPath = sharedDir && existsSync(resolve(sharedDir, 'canton', 'asyncapi.yaml')) ? resolve(sharedDir, 'canton', 'asyncapi.yaml') : undefined;

/** True when the tests run under CI (`CI` set to anything but '', '0' or 'false'), where nothing may be skipped. */
export const underCi = ((v) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false')(process.env['CI']);

const reported = new Set<string>();

/**
 * Whether `file` (a path inside ../shared, e.g. `canton/openapi.yaml`) is there for the checks of `what`.
 * When it is missing: under CI it throws (CI always has ../shared, so a check that quietly does nothing would
 * let a broken feature pass); elsewhere it writes one line per file and process to stderr, naming what is
 * not checked and why, and returns false, so the caller skips that check.
 */
export function sharedAvailable(file: string, what: string): boolean {
  const path = resolve(sharedDir ?? sharedCandidate, file);
  if (existsSync(path)) return true;
  const reason = `${path} is missing (put the reference folder beside the clone as ../shared, or set LEDGER_RX_SHARED)`;
  if (underCi) throw new Error(`${what}: ${reason}; under CI this is an error, not a skip`);
  const key = `${file}\0${what}`;
  if (!reported.has(key)) {
    reported.add(key);
    process.stderr.write(`skipped: ${what}: ${reason}\n`);
  }
  return false;
}

/** {@link sharedAvailable} for canton/openapi.yaml: whether HTTP answers are validated against the spec. */
export function specAvailable(what = 'validation of HTTP answers against openapi.yaml'): boolean {
  return sharedAvailable('canton/openapi.yaml', what) && openapiPath !== undefined;
}

/** {@link sharedAvailable} for canton/asyncapi.yaml: whether WebSocket frames are validated against the spec. */
export function asyncSpecAvailable(what = 'validation of WebSocket frames against asyncapi.yaml'): boolean {
  return sharedAvailable('canton/asyncapi.yaml', what) && asyncapiPath !== undefined;
}
