import type { Writable } from 'node:stream';
import type { CliIo } from './cli-io.js';

/**
 * How the command line meets the world around it: the {@link CliIo} a command runs with, where commander
 * writes help and usage errors, and how a run ends. `processContext()` is the process's; an in-process
 * test passes its own to `createProgram` (captured streams, an exit that throws instead of leaving).
 */
export interface CliContext {
  /** The io of a command, given its option values (`--logger MODULE` is loaded here). */
  io(values: Readonly<Record<string, unknown>>): Promise<CliIo>;
  /** Where help (`--help`) and usage errors go. */
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Ends the run before any command ran (help shown, usage error): never returns. */
  exit(code: number): never;
  /** Called with the exit code once a command's action is done. */
  done(code: number): void;
}
