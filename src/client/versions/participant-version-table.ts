/** One operation whose presence depends on the participant's version. */
export interface VersionedOperation {
  /** The HTTP method and path it uses. */
  readonly endpoint: string;
  /** The first version that has it (`major.minor.patch`), if not every version. */
  readonly since?: string;
  /** The first version that no longer has it, if it was removed. */
  readonly until?: string;
  /** What to use instead where it is missing. */
  readonly alternative: string;
}

/**
 * THE table of which endpoints exist on which participant version (docs/participant-versions.md has the
 * same table with its sources). The client consults it, through `VersionGate`, before an operation whose
 * endpoint some supported version lacks; everything else exists on 3.4, 3.5 and 3.6 alike.
 */
export const participantVersionTable = {
  /** `updatesPage`. */
  updatesPage: {
    endpoint: 'POST /v2/updates/get-updates-page',
    since: '3.5.1',
    alternative: "updates() over the same range with transport 'list' (POST /v2/updates, one list per call) or 'websocket'",
  },
  /** `activeContractsPage`. */
  activeContractsPage: {
    endpoint: 'GET /v2/state/active-contracts-page',
    since: '3.5.0',
    alternative: 'activeContracts() (POST /v2/state/active-contracts or its WebSocket)',
  },
  /** `completions` on its default endpoint. */
  commandCompletions: {
    endpoint: 'POST /v2/commands/command-completions',
    since: '3.5.7',
    alternative: "completions(request, { endpoint: 'completions' }) (POST /v2/commands/completions, with a userId)",
  },
  /** `updateByHash`. */
  updateByHash: {
    endpoint: 'POST /v2/updates/update-by-hash',
    since: '3.6.0',
    alternative: 'updates() over the range after the submission, matching the transaction\'s externalTransactionHash',
  },
  /** `completionByHash`. */
  completionByHash: {
    endpoint: 'POST /v2/commands/completion-by-hash',
    since: '3.6.0',
    alternative: 'completions() from before the submission, matching its submissionId',
  },
  /** `updateVettedPackages` with `endpoint: 'update'` (the default where it exists). */
  vettingUpdate: {
    endpoint: 'POST /v2/package-vetting/update',
    since: '3.4.12',
    alternative: "updateVettedPackages(request, { endpoint: 'deprecated' }) (POST /v2/package-vetting)",
  },
  /** `updateVettedPackages` with `endpoint: 'deprecated'`. */
  vettingUpdateAlias: {
    endpoint: 'POST /v2/package-vetting',
    until: '3.6.0',
    alternative: "updateVettedPackages(request, { endpoint: 'update' }) (POST /v2/package-vetting/update)",
  },
} as const satisfies Record<string, VersionedOperation>;

/** An operation of {@link participantVersionTable}. */
export type VersionedOperationName = keyof typeof participantVersionTable;
