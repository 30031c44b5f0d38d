import { spawnSync, type ChildProcess } from 'node:child_process';
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
