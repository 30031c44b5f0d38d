/** Command-line flags shared by the benchmark files: `--quick`, `--runs=N`, `--name=value`. */

export function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

export function option(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}

export function numberOption(name: string, fallback: number): number {
  const v = Number(option(name, String(fallback)));
  if (!Number.isFinite(v)) throw new Error(`--${name} must be a number`);
  return v;
}

/**
 * `full` unless `--quick` was given. `npm run bench -- --quick` at the repository root reaches the inner
 * `npm --prefix benchmarks run bench` as npm's own config flag, visible as `npm_config_quick`.
 */
export function mode(): 'full' | 'quick' {
  return flag('quick') || process.env['npm_config_quick'] === 'true' ? 'quick' : 'full';
}

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}
