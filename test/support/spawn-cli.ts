import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cliMain } from './cli.js';

/** A spawned `ledger-rx` process with its raw output collected as it arrives. */
export interface SpawnedCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout so far (raw, possibly ending in a partial line). */
  stdout(): string;
  stderr(): string;
  /** Complete stdout lines so far. */
  lines(): string[];
  /** Resolves once `n` complete lines arrived, or the process ended (check `lines()`), or after `timeoutMs`. */
  waitForLines(n: number, timeoutMs?: number): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `node dist/cli/main.js ...args` (the built CLI, kept fresh by the test setup). */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): SpawnedCli {
  const child = spawn(process.execPath, [cliMain, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdin.end();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      ended = true;
      wake();
      resolve({ code, signal });
    }),
  );
  const lines = () => {
    const all = out.split('\n');
    all.pop(); // the text after the last newline is not a complete line
    return all;
  };
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    lines,
    exited,
    waitForLines(n, timeoutMs = 15_000) {
      return new Promise((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        function check() {
          if (ended || lines().length >= n) done();
        }
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs the CLI to completion. */
export async function runCliToEnd(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 30_000) {
  const cli = spawnCli(args, env);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await cli.exited;
  clearTimeout(timer);
  return { code, signal, stdout: cli.stdout(), stderr: cli.stderr() };
}
