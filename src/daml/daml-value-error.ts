import { LedgerRxError } from '../errors/ledger-rx-error.js';

/** One mismatch between a Daml value and its schema: where (the path inside the value) and what. */
export interface DamlValueIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * A Daml value in an event (a create argument, a choice argument or result) that does not match the schema
 * generated for its template or choice: code `DAML_VALUE_MISMATCH`, never retryable. `path` is the first
 * mismatch's location in the value (`profile.level`, `tags[2]`); `issues` lists them all. Usually the DAR the
 * code was generated from is not the package the participant used: regenerate, or check the package version.
 */
export class DamlValueError extends LedgerRxError {
  override name = 'DamlValueError';
  declare readonly code: 'DAML_VALUE_MISMATCH';
  /** The first mismatch's path, as text. */
  readonly path: string;
  readonly issues: readonly DamlValueIssue[];
  /** The event's template id (package-id form). */
  readonly templateId: string;
  readonly contractId: string;

  constructor(what: string, init: { issues: readonly DamlValueIssue[]; templateId: string; contractId: string }) {
    const first = init.issues[0];
    const path = first === undefined ? '' : pathText(first.path);
    super('DAML_VALUE_MISMATCH', `${what} of contract ${init.contractId} (${init.templateId}) does not match its generated schema${path === '' ? '' : ` at ${path}`}: ${first?.message ?? 'invalid'}`);
    this.path = path;
    this.issues = init.issues;
    this.templateId = init.templateId;
    this.contractId = init.contractId;
  }
}

/** `['profile', 'level']` → `profile.level`; numbers as `[i]`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}
