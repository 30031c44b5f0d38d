/** A Canton release line whose JSON Ledger API the sandbox can serve (`startSandbox({ apiVersion })`). */
export type SandboxApiVersion = '3.4' | '3.5' | '3.6';

/** Every release line the sandbox serves, oldest first. */
export const sandboxApiVersions: readonly SandboxApiVersion[] = ['3.4', '3.5', '3.6'];

/**
 * The line a sandbox serves when none is asked for: the newest, 3.6 (docs/participant-versions.md says
 * why).
 */
export const defaultSandboxApiVersion: SandboxApiVersion = '3.6';

/**
 * What one release line serves, as far as the sandbox's operations differ between lines
 * (docs/participant-versions.md has the table and the sources). Every difference the sandbox knows is a
 * field here, read where it matters; nothing else in the sandbox compares version strings.
 */
export interface ApiVersionProfile {
  readonly apiVersion: SandboxApiVersion;
  /** `GET /v2/version`'s `version`: the Canton build version of the line's spec, as the server reports it. */
  readonly reportedVersion: string;
  /** Route patterns (HTTP and WebSocket) this line does not have: they answer the legacy 404. */
  readonly absentPaths: ReadonlySet<string>;
  /**
   * A template or interface filter given by package id: `resolve` (3.4: accepted, matched by the package's
   * name; an unknown id is `TEMPLATES_OR_INTERFACES_NOT_FOUND`) or `reject` (3.5 on: `INVALID_FIELD packageId`).
   */
  readonly packageIdFilters: 'resolve' | 'reject';
  /** `transactionHash` on `JsTransaction` and `Completion` (3.6). */
  readonly transactionHash: boolean;
  /** `synchronizerTimes` on `GetLedgerEndResponse` (3.6). */
  readonly ledgerEndSynchronizerTimes: boolean;
  /** The `CanActAsAnyParty` user right (3.6). */
  readonly canActAsAnyParty: boolean;
  /**
   * The fields 3.5 added to answers the sandbox gives: `CreatedEvent.contractKeyHash`,
   * `JsInterfaceView.implementationPackageId`, `User.primaryPartyAuthentication`,
   * `JsGetActiveContractsResponse.streamContinuationToken`.
   */
  readonly fieldsOf35: boolean;
}

const pagedReads = ['/v2/updates/get-updates-page', '/v2/state/active-contracts-page', '/v2/commands/command-completions'];
const byHashReads = ['/v2/updates/update-by-hash', '/v2/commands/completion-by-hash'];

const profiles: Readonly<Record<SandboxApiVersion, ApiVersionProfile>> = {
  '3.4': {
    apiVersion: '3.4',
    reportedVersion: '3.4.12-SNAPSHOT',
    absentPaths: new Set([...pagedReads, ...byHashReads]),
    packageIdFilters: 'resolve',
    transactionHash: false,
    ledgerEndSynchronizerTimes: false,
    canActAsAnyParty: false,
    fieldsOf35: false,
  },
  '3.5': {
    apiVersion: '3.5',
    reportedVersion: '3.5.10-SNAPSHOT',
    absentPaths: new Set(byHashReads),
    packageIdFilters: 'reject',
    transactionHash: false,
    ledgerEndSynchronizerTimes: false,
    canActAsAnyParty: false,
    fieldsOf35: true,
  },
  '3.6': {
    apiVersion: '3.6',
    reportedVersion: '3.6.0-SNAPSHOT',
    absentPaths: new Set(['/v2/package-vetting']),
    packageIdFilters: 'reject',
    transactionHash: true,
    ledgerEndSynchronizerTimes: true,
    canActAsAnyParty: true,
    fieldsOf35: true,
  },
};

/** The profile of `version`. */
export function apiVersionProfile(version: SandboxApiVersion): ApiVersionProfile {
  return profiles[version];
}

/** True when `version` is a release line the sandbox serves. */
export function isSandboxApiVersion(version: unknown): version is SandboxApiVersion {
  return typeof version === 'string' && (sandboxApiVersions as readonly string[]).includes(version);
}
