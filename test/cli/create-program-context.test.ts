import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cliVersion } from '../../src/cli/cli-version.js';
import { runInProcess } from './support/run-in-process.js';

// `createProgram(context)`: with a test's context the program never reaches the process (its exit, its exit code,
// its stdout and stderr): help, usage errors, a failing command and its exit code all go through the context.

describe('createProgram with a context', () => {
  let exit: ReturnType<typeof vi.spyOn>;
  let out: ReturnType<typeof vi.spyOn>;
  let err: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`process.exit(${String(code)})`);
    });
    out = vi.spyOn(process.stdout, 'write');
    err = vi.spyOn(process.stderr, 'write');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('routes help, the version, usage errors and a failing command to the context, with their exit codes', async () => {
    const help = await runInProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ledger-rx /);
    expect(help.stderr).toBe('');
    const version = await runInProcess(['--version']);
    expect(version).toEqual({ code: 0, stdout: `${cliVersion}\n`, stderr: '' });
    const missing = await runInProcess(['vetting']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: 'vetting' needs a command: ");
    const unknown = await runInProcess(['tail', '--no-such-flag']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown option '--no-such-flag'\n\(run with --help for usage\)\n$/);
    // a command that fails: the error text and its exit code (2: bad usage, found by the command's core)
    const failed = await runInProcess(['tail', '--url', 'http://127.0.0.1:1', '--descending', '--checkpoint', 'x.json']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^error: .*takes no checkpoint/);
    expect(failed.stdout).toBe('');

    expect(exit).not.toHaveBeenCalled();
    expect(process.exitCode).toBeUndefined();
    expect(out).not.toHaveBeenCalled();
    expect(err).not.toHaveBeenCalled();
  });
});
