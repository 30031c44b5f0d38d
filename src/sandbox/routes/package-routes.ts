import { requireAdmin } from '../auth/authorize.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { readBodyBytes } from '../http/read-body-bytes.js';
import type { Handler, RequestContext, Route } from '../http/request-context.js';
import { loadUnzip } from '../packages/load-unzip.js';
import { readDar } from '../packages/read-dar.js';
import { uploadDar } from '../packages/upload-dar.js';

/** A boolean query parameter as the server's JSON layer reads it (`true`/`false`, any case); else its 400 text/plain. */
function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw SandboxError.decodeFailure('', `query parameter ${name}`);
}

/** A Daml-LF package id: 1 to 64 characters out of ASCII letters, digits, `-`, `_` and space (docs/sandbox.md#dar-uploads). */
const packageIdPattern = /^[A-Za-z0-9\-_ ]{1,64}$/;

function packageIdParam(ctx: RequestContext): string {
  const id = ctx.params['package-id'] ?? '';
  if (!packageIdPattern.test(id)) throw requestErrors.invalidArgument(`Invalid package id: ${id}`);
  return id;
}

/**
 * `POST /v2/dars` and `POST /v2/packages` (docs/sandbox.md#dar-uploads): query parameters (400 text/plain),
 * then the caller must be a participant admin, then the body — the DAR's bytes — is read (413 over the
 * request size limit) and decoded (`readDar`'s errors), then stored and vetted (`uploadDar`). Answers `{}`
 * once the packages are stored and vetted.
 */
const upload: Handler = async (ctx) => {
  const vetAllPackages = queryBoolean(ctx.query, 'vetAllPackages') ?? true;
  const synchronizerId = ctx.query.get('synchronizerId') ?? undefined;
  requireAdmin(await ctx.claims());
  const bytes = await readBodyBytes(ctx.req, ctx.options.maxRequestBodyBytes);
  uploadDar(ctx.state, readDar(bytes, await loadUnzip()), { vetAllPackages, synchronizerId });
  return { json: {} };
};

/**
 * The package service (docs/sandbox.md#dar-uploads):
 * - `GET /v2/packages`: the ids of every package in the store (`ListPackagesResponse`), vetted or not, in
 *   upload order, to any authenticated caller;
 * - `GET /v2/packages/{package-id}`: the package's `ArchivePayload` bytes (`application/octet-stream`) with
 *   the `Canton-Package-Hash` header; an invalid id is `INVALID_ARGUMENT`, an unknown one — or one of the
 *   built-in demo packages, which have no archive — `PACKAGE_NOT_FOUND` (404);
 * - `GET /v2/packages/{package-id}/status`: `PACKAGE_STATUS_REGISTERED` for a stored package, else
 *   `PACKAGE_STATUS_UNSPECIFIED` (200, not 404);
 * - the two upload routes.
 */
export const packageRoutes: readonly Route[] = [
  {
    method: 'GET',
    pattern: '/v2/packages',
    handler: async (ctx) => {
      await ctx.claims();
      return { json: { packageIds: ctx.state.packages.all().map((p) => p.packageId) } };
    },
  },
  { method: 'POST', pattern: '/v2/packages', handler: upload },
  { method: 'POST', pattern: '/v2/dars', handler: upload },
  {
    method: 'GET',
    pattern: '/v2/packages/{package-id}',
    handler: async (ctx) => {
      await ctx.claims();
      const id = packageIdParam(ctx);
      const payload = ctx.state.packages.get(id)?.payload;
      if (payload === undefined) {
        throw SandboxError.grpc(ErrorDefs.PACKAGE_NOT_FOUND, 'Could not find package.', { resources: [['PACKAGE', id]] });
      }
      ctx.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': payload.length, 'canton-package-hash': id });
      ctx.res.end(payload);
      return { handled: true };
    },
  },
  {
    method: 'GET',
    pattern: '/v2/packages/{package-id}/status',
    handler: async (ctx) => {
      await ctx.claims();
      const id = packageIdParam(ctx);
      return { json: { packageStatus: ctx.state.packages.get(id) ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' } };
    },
  },
];
