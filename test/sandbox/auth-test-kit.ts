import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { identityProvidersOf } from '../../src/sandbox/users/identity-providers-of.js';
import { call, type RawResponse } from '../support/sandbox-http.js';

/** The secret the auth-enabled test sandboxes sign tokens with. */
export const testSecret = 'ledger-rx-test-secret';

/** A JSON error body (already validated against the spec by `call`). */
/** A `User` as the sandbox renders it (the fields the user tests read). */
export interface UserJson {
  id: string;
  primaryParty: string;
  isDeactivated: boolean;
  metadata: { resourceVersion: string; annotations: Record<string, string> };
  identityProviderId: string;
  primaryPartyAuthentication: boolean;
}

export interface ErrorBody {
  readonly code: string;
  readonly cause: string;
  readonly context: Record<string, string>;
  readonly resources: [string, string][];
  readonly errorCategory: number;
  readonly grpcCodeValue: number | null;
  readonly retryInfo: string | null;
  readonly definiteAnswer: boolean | null;
  readonly correlationId: string | null;
  readonly traceId: string | null;
}

/** Asserts an error answer's status and code and returns its body. */
export function expectError(r: RawResponse, status: number, code: string): ErrorBody {
  expect({ status: r.status, code: (r.json as ErrorBody | undefined)?.code, text: r.json === undefined ? r.text : undefined }).toEqual({
    status,
    code,
    text: undefined,
  });
  return r.json as ErrorBody;
}

/** Asserts the redacted 401/403 body. */
export function expectRedacted(r: RawResponse, status: 401 | 403): void {
  const body = expectError(r, status, 'NA');
  expect(body).toMatchObject({ cause: 'A security-sensitive error has been received', errorCategory: -1, grpcCodeValue: status === 401 ? 16 : 7, context: {}, resources: [] });
}

/** Asserts the 400 text/plain decode failure. */
export function expectDecodeFailure(r: RawResponse): void {
  expect(r.status).toBe(400);
  expect(r.contentType).toContain('text/plain');
  expect(r.text).toMatch(/^Invalid value for: /);
}

/**
 * A comparable picture of everything the owned routes may change: users (fields and rights), vetting
 * states and identity providers. Equal snapshots before and after a rejected request prove it changed
 * nothing.
 */
export function stateSnapshot(sandbox: Sandbox): string {
  const users = sandbox.state.users.all().map((u) => ({ ...u, rights: [...u.rights.keys()].sort() }));
  const vetting = sandbox.state.vetting
    .entries()
    .map((e) => JSON.stringify(e))
    .sort();
  return JSON.stringify({ users, vetting, idps: identityProvidersOf(sandbox.state).all() });
}

/** A right in the wire encoding. */
export function right(kind: string, party?: string): { kind: Record<string, { value: Record<string, string> }> } {
  return { kind: { [kind]: { value: party === undefined ? {} : { party } } } };
}

/** Creates a user through `POST /v2/users` as `participant_admin`; returns a token for it. */
export async function createUser(
  sandbox: Sandbox,
  id: string,
  options: { rights?: ReturnType<typeof right>[]; identityProviderId?: string; annotations?: Record<string, string>; primaryParty?: string } = {},
): Promise<string> {
  const admin = await sandbox.token('participant_admin');
  const r = await call(sandbox.url, 'POST', '/v2/users', {
    token: admin,
    body: {
      user: {
        id,
        primaryParty: options.primaryParty ?? '',
        isDeactivated: false,
        identityProviderId: options.identityProviderId ?? '',
        metadata: { resourceVersion: '', annotations: options.annotations ?? {} },
      },
      rights: options.rights ?? [],
    },
  });
  expect(r.status, r.text).toBe(200);
  return sandbox.token(id);
}

/** Adds a local party record in `identityProviderId` to the state (party routes are another suite's). */
export function addParty(sandbox: Sandbox, hint: string, identityProviderId = ''): string {
  const party = `${hint}::${sandbox.state.namespace}`;
  sandbox.state.parties.add({ party, isLocal: true, identityProviderId, annotations: {}, resourceVersion: 0 });
  return party;
}
