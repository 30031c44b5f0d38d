/**
 * Polls `probe` every `intervalMs` until it resolves with something other than `undefined`, and resolves
 * with that. There is no time budget of its own: a readiness wait in a test waits for the condition, and the
 * test's timeout ends it (pass the test context's `signal`, which vitest aborts on timeout, so the loop
 * stops with the test). A probe that throws counts as "not yet". On abort it rejects with an error that
 * names `what` and the last thing the probe saw or threw.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  options: { readonly signal?: AbortSignal | undefined; readonly intervalMs?: number | undefined } = {},
): Promise<T> {
  const intervalMs = options.intervalMs ?? 50;
  let last: unknown = 'nothing yet';
  for (;;) {
    if (options.signal?.aborted) throw new Error(`still waiting for ${what} when the test ended (last: ${describe(last)})`, { cause: options.signal.reason });
    try {
      const value = await probe();
      if (value !== undefined) return value;
      last = 'undefined';
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function describe(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}
