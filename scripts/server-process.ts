import { spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * The path of a server binary from Debian's packages: the first of `/usr/sbin/<name>` and `/usr/bin/<name>`
 * that answers `<versionFlag>` with exit 0, else what `command -v <name>` finds; `undefined` when it is not
 * installed (the tests then skip with a reason, or fail under CI).
 */
export function findServerBinary(name: string, versionFlag: string): string | undefined {
  for (const candidate of [`/usr/sbin/${name}`, `/usr/bin/${name}`]) {
    if (spawnSync(candidate, [versionFlag]).status === 0) return candidate;
  }
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = which.stdout.trim();
  return path === '' ? undefined : path;
}

/**
 * Resolves once something accepts TCP connections on 127.0.0.1:`port`, trying again at once after each
 * refusal; rejects as soon as `child` (the server `name`) exits first, with its log. No time budget: a server
 * that neither listens nor exits is left to the caller's timeout.
 */
export function whenListening(name: string, port: number, child: ChildProcess, log: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const onExit = (code: number | null) => {
      done = true;
      reject(new Error(`${name} exited with ${code} before listening:\n${log()}`));
    };
    child.once('exit', onExit);
    const attempt = () => {
      if (done) return;
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done = true;
        child.off('exit', onExit);
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        setImmediate(attempt); // retry until the process listens or exits (its exit rejects)
      });
    };
    attempt();
  });
}

/**
 * {@link whenListening}, and when the server never listens, kills it and removes its directory `dir` before
 * rejecting, so a failed start leaves nothing behind.
 */
export async function listeningOrCleanedUp(name: string, port: number, child: ChildProcess, dir: string, log: () => string): Promise<void> {
  try {
    await whenListening(name, port, child, log);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Stops a server started by a test (SIGTERM, waiting for its exit when it still runs) and removes its directory `dir`. */
export async function stopServerProcess(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
}
