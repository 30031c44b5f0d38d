import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The built CLI the end-to-end tests spawn (`npm test` builds it first via `pretest`). */
export const cliPath = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));

/** The outcome of {@link runCli}. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/cli/main.js ...args` to completion (killed after `timeoutMs`). */
export function runCli(args: readonly string[], options: { timeoutMs?: number; input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...options.env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** A running CLI process whose stdout lines are collected as they arrive. */
export interface LiveCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  stderr(): string;
  /** Resolves once at least `n` stdout lines arrived (rejects after `timeoutMs`). */
  waitForLines(n: number, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the CLI and collects its stdout lines. */
export function startCli(args: readonly string[], env: Record<string, string> = {}): LiveCli {
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  const lines: string[] = [];
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) w();
  });
  child.stdin.end();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitForLines(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${lines.length} of ${n} lines after ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
        const check = () => {
          if (lines.length >= n) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}
