import type { CompletionsSource } from '../completions-source.js';
import { completionTails, type CompletionTails, type CompletionTailsConfig } from './completion-tails.js';

/** What decides whether two `submitAndTrack` calls can share completion streams: a pool's settings. */
export type SharedTailsKey = Omit<CompletionTailsConfig, 'onEmpty'>;

const pools = new WeakMap<CompletionsSource, Map<string, CompletionTails>>();
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function identity(value: object | false | undefined): string {
  if (value === undefined || value === false) return String(value);
  let id = identities.get(value);
  if (id === undefined) {
    id = ++nextIdentity;
    identities.set(value, id);
  }
  return `#${id}`;
}

/**
 * The completion-stream pool that `submitAndTrack` calls on the same `source` (client) with the same
 * stream options share: calls in flight at the same time, or within `lingerMs` of each other, read one
 * completion stream per party set instead of one each. Options that are objects (`retry`, `scheduler`) are
 * compared by identity. A pool is forgotten when its last stream stopped, so options made anew for each call
 * cost nothing once their streams closed.
 */
export function sharedCompletionTails(source: CompletionsSource, key: SharedTailsKey): CompletionTails {
  let bySettings = pools.get(source);
  if (bySettings === undefined) {
    bySettings = new Map();
    pools.set(source, bySettings);
  }
  const name = [key.endpoint ?? '', key.transport ?? '', identity(key.retry), identity(key.scheduler), String(key.lingerMs)].join('|');
  let pool = bySettings.get(name);
  if (pool === undefined) {
    const settings = bySettings;
    const created = completionTails(source, { ...key, onEmpty: () => settings.get(name) === created && settings.delete(name) });
    pool = created;
    settings.set(name, pool);
  }
  return pool;
}
