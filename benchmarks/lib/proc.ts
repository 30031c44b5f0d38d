/** Child processes: one measured run per fresh process, and sandbox participants in their own process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cliMain } from './paths.js';

/**
 * Runs `node [nodeArgs] script [args]` and resolves with the JSON object the child printed as its last
 * stdout line. The child's stderr goes to ours. Rejects when the child fails or prints no JSON.
 */
export function runJsonChild<T>(script: string, args: readonly string[], options: { nodeArgs?: readonly string[]; timeoutMs?: number } = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10 * 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) {
        reject(new Error(`${script} ${args.join(' ')} exited with ${code ?? signal}: ${last.slice(0, 500)}`));
        return;
      }
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} ${args.join(' ')} printed no JSON result: ${last.slice(0, 500)}`));
      }
    });
  });
}

/** A participant running in its own process. */
export interface SandboxProcess {
  readonly url: string;
  readonly pid: number;
  /** Peak resident set of the sandbox process so far (VmHWM), in bytes. */
  peakRss(): number;
  stop(): Promise<void>;
}

const readyLine = /ledger-rx sandbox listening on (\S+)/;

/**
 * Starts `node <script> [args]` and waits for its ready line `ledger-rx sandbox listening on <url>`
 * (what `ledger-rx sandbox` prints). `script` defaults to the built CLI, with `sandbox` prepended to `args`.
 */
export function startSandboxProcess(args: readonly string[], options: { script?: string; nodeArgs?: readonly string[]; readyTimeoutMs?: number } = {}): Promise<SandboxProcess> {
  const argv = options.script === undefined ? [cliMain, 'sandbox', ...args] : [options.script, ...args];
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sandbox not ready in time: ${err.slice(-1000)}`));
    }, options.readyTimeoutMs ?? 180_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (c: string) => {
      err = (err + c).slice(-20_000);
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (c: string) => {
      out += c;
      const match = readyLine.exec(out);
      if (ready || !match) return;
      ready = true;
      clearTimeout(timer);
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({
        url: match[1] as string,
        pid: child.pid as number,
        peakRss: () => procStatusBytes(child.pid as number, 'VmHWM'),
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
    child.on('exit', (code, signal) => {
      if (!ready) {
        clearTimeout(timer);
        reject(new Error(`sandbox exited with ${code ?? signal} before it was ready: ${err.slice(-2000)}`));
      }
    });
  });
}

/** A `kB` field of `/proc/<pid>/status` (e.g. `VmHWM`, `VmRSS`), in bytes; 0 where /proc is missing. */
export function procStatusBytes(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const MiB = 2 ** 20;
