import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliMain } from '../support/cli.js';
import { call } from '../support/sandbox-http.js';
import { repoRoot, sharedAvailable, sharedDir } from '../support/shared-dir.js';

/** Runs the built `ledger-rx sandbox` (dist is kept fresh by the test setup). */
const main = cliMain;

interface Running {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

function run(args: readonly string[]): Running {
  const child = spawn(process.execPath, [main, 'sandbox', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const running: Running = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((done) => child.on('close', (code) => done(code))),
  };
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (running.stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (running.stderr += c));
  return running;
}

/** The URL of the ready line, waited for without a time budget of its own (the test's timeout ends a hang); rejects if the process exits first. */
async function ready(r: Running): Promise<string> {
  while (!r.stdout.includes('\n')) {
    if (r.child.exitCode !== null || r.child.signalCode !== null) throw new Error(`exited before its ready line; stderr: ${r.stderr}`);
    await new Promise((done) => setTimeout(done, 20));
  }
  const m = /^ledger-rx sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(r.stdout);
  if (!m) throw new Error(`unexpected stdout: ${JSON.stringify(r.stdout)}`);
  return m[1] as string;
}

describe.concurrent('ledger-rx sandbox', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('prints exactly one ready line, serves, and exits 0 on %s', async (signal) => {
    const r = run(['--port', '0', '--seed', '25', '--list-wait-ms', '50', '--max-list-elements', '7', '--response-mode', 'buffered']);
    try {
      const url = await ready(r);
      const end = await call(url, 'GET', '/v2/state/ledger-end');
      expect((end.json as { offset: number }).offset).toBeGreaterThan(25);
      const overflow = await call(url, 'POST', '/v2/updates', { body: { beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } } });
      expect(overflow.status).toBe(413);
      r.child.kill(signal);
      expect(await r.exited).toBe(0);
      expect(r.stdout.split('\n')).toEqual([`ledger-rx sandbox listening on ${url}`, '']);
    } finally {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
  });

  it.runIf(sharedAvailable('dars/richtypes.dar', 'the --dar test'))('uploads the --dar files at start (repeatable) and exits 2 on a bad one', async () => {
    const dars = `${sharedDir ?? ''}/dars`;
    const r = run(['--port', '0', '--dar', `${dars}/richtypes.dar`, '--dar', `${dars}/splice-api-token-holding-v1.dar`]);
    try {
      const url = await ready(r);
      const ids = ((await call(url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;
      expect(ids.length).toBeGreaterThan(6 + 30);
      for (const id of ids.slice(6)) expect((await call(url, 'GET', `/v2/packages/${id}`)).status).toBe(200);
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
    } finally {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
    const bad = run(['--port', '0', '--dar', `${dars}/README.md`]);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr).toContain(`cannot load the DAR ${dars}/README.md: INVALID_DAR`);
    expect(bad.stdout).toBe('');
  });

  it('passes the auth secret and the synchronizer count', async () => {
    const r = run(['--port', '0', '--auth-secret', 'cli-secret', '--synchronizers', '2']);
    try {
      const url = await ready(r);
      expect((await call(url, 'GET', '/v2/state/ledger-end')).status).toBe(401);
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
    } finally {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
  });

  it('passes the request body limit (--max-request-body-bytes)', async () => {
    const r = run(['--port', '0', '--seed', '2', '--max-request-body-bytes', '100']);
    try {
      const url = await ready(r);
      const small = await call(url, 'POST', '/v2/updates', { body: { beginExclusive: 0, endInclusive: 1, updateFormat: {} } });
      expect(small.status, small.text).toBe(200);
      const large = await call(url, 'POST', '/v2/updates', { body: { beginExclusive: 0, endInclusive: 1, updateFormat: {}, padding: 'x'.repeat(100) } });
      expect(large.status).toBe(413);
      expect(large.contentType).toMatch(/^text\/plain/);
      expect(large.text).toContain('exceeds the configured limit of 100 bytes');
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
    } finally {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
  });

  it('serves the release line of --api-version (default 3.6)', async () => {
    for (const [args, version, hasPage] of [
      [['--api-version', '3.4'], '3.4.12-SNAPSHOT', false],
      [[], '3.6.0-SNAPSHOT', true],
    ] as const) {
      const r = run(['--port', '0', ...args]);
      try {
        const url = await ready(r);
        expect(((await call(url, 'GET', '/v2/version')).json as { version: string }).version).toBe(version);
        const page = await call(url, 'POST', '/v2/updates/get-updates-page', { body: {}, skipSpecCheck: true });
        expect(page.status !== 404).toBe(hasPage);
        r.child.kill('SIGTERM');
        expect(await r.exited).toBe(0);
      } finally {
        if (r.child.exitCode === null) r.child.kill('SIGKILL');
      }
    }
  });

  it.each([
    ['--api-version', '3.3'],
    ['--port', 'abc'],
    ['--response-mode', 'fast'],
    ['--generate', '0'],
    ['--max-list-elements', '0'],
  ])('refuses %s %s with exit code 2', async (flag, value) => {
    const r = run(['--port', '0', flag, value]);
    expect(await r.exited).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error/i);
  });

  it.each([
    ['abc', /--max-request-body-bytes.*expected a non-negative integer/],
    ['-5', /--max-request-body-bytes.*expected a non-negative integer/],
    ['0', /maxRequestBodyBytes must be an integer >= 1/],
  ])('refuses --max-request-body-bytes %s with exit code 2 and says why', async (value, message) => {
    const r = run(['--port', '0', '--max-request-body-bytes', value]);
    expect(await r.exited).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});
