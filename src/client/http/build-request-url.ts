/**
 * Builds the URL of an API call: the base URL's origin and path prefix, then `path` (which must start with
 * `/` and already be percent-encoded where needed), then the query parameters that are not `undefined`.
 *
 * @param baseUrl - the client's base URL (a trailing `/` on its path is ignored).
 * @param path - e.g. `/v2/users/alice%40corp/rights`.
 * @param query - query parameters; numbers are written in decimal.
 * @returns a new URL; never throws for a valid base URL.
 */
export function buildRequestUrl(
  baseUrl: URL,
  path: string,
  query?: Readonly<Record<string, string | number | undefined>>,
): URL {
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  const url = new URL(`${baseUrl.origin}${prefix}${path}`);
  if (query) {
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
  }
  return url;
}
