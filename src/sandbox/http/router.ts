import type { Handler, Route } from './request-context.js';

interface Compiled {
  readonly route: Route;
  readonly regex: RegExp;
  readonly names: readonly string[];
}

/** The outcome of matching a request. */
export type Match =
  | { readonly kind: 'found'; readonly handler: Handler; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/**
 * Matches method and path against the routes. A path that exists with another method is
 * `method-not-allowed` (answered 405 with `Allow`); an unknown path is `not-found` (the legacy 404 body).
 */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.pattern
        .split('/')
        .map((segment) => {
          const m = /^\{(.+)\}$/.exec(segment);
          if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(m[1] as string);
          return '([^/]+)';
        })
        .join('/');
      return { route, regex: new RegExp(`^${source}/?$`), names };
    });
  }

  match(method: string, path: string): Match {
    const allowed: string[] = [];
    for (const c of this.compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.route.method !== method) {
        allowed.push(c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      let bad = false;
      c.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1] as string);
        } catch {
          bad = true;
        }
      });
      if (bad) continue;
      return { kind: 'found', handler: c.route.handler, params };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed: [...new Set(allowed)] } : { kind: 'not-found' };
  }
}
