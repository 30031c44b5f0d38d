/** One log method: pino's `(obj, msg)` calling convention. */
export type LogMethod = (obj: Readonly<Record<string, unknown>>, msg?: string) => void;

/**
 * The logger the commands write to: a subset of pino's interface, so a pino instance (or any object with
 * these four methods) can be passed in. Commands never log tokens, and log only to this logger — never to
 * stdout, which carries data.
 */
export interface Logger {
  readonly debug: LogMethod;
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
}
