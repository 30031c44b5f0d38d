import { isUid } from './ids.js';

function matching(label: string, value: string, max: number, ok: (c: string) => boolean): string | undefined {
  if (value.length === 0) return `Daml-LF ${label} is empty`;
  if (value.length > max) return `Daml-LF ${label} "${value}" is too long (max: ${max})`;
  // By UTF-16 unit, as the Scala parser walks the string (an astral character shows as its high surrogate).
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    if (!ok(c)) return `non expected character 0x${value.charCodeAt(i).toString(16)} in Daml-LF ${label} "${value}"`;
  }
  return undefined;
}

const alnum = (c: string) => /^[A-Za-z0-9]$/.test(c);
const ledgerChar = (c: string) => /^[a-zA-Z0-9._:\-#/ ]$/.test(c);
/** Daml-LF's `UserId` regex, as its `MatchingStringModule` prints it in the error. */
const userIdRegex = "[a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}";
const userIdPattern = new RegExp(`^${userIdRegex}$`);

/**
 * Syntax checks of the identifiers the package services parse, each returning `undefined` when the string
 * is well formed and otherwise the problem in the wording of the Daml-LF string parsers (approximated: the
 * exact wording is library text). Used to build `PROTO_DESERIALIZATION_FAILURE` reasons.
 *
 * - `packageId`: 1–64 characters from letters, digits, `-`, `_` and space;
 * - `packageName`: 1–255 characters from letters, digits, `-`, `_` and `.`, starting with a letter or digit;
 * - `packageVersion`: dot-separated decimal numbers without leading zeros (`1.0.0`);
 * - `uniqueIdentifier`: `<identifier>::<namespace>` (synchronizer and participant ids);
 * - `party`: 1–255 characters from letters, digits, `:`, `-`, `_` and space;
 * - `userId`: Daml-LF `UserId`, 1–128 characters from letters, digits and ``@^$.!`-#+'~_|:()`` (no space,
 *   no `/`), worded as its regex-based parser words it: `User ID "<id>" does not match regex "<regex>"`;
 * - `identityProviderId`: `""` (the default provider) or a Daml-LF `LedgerString`, 1–255 characters from
 *   letters, digits and `._:-#/` and space.
 *
 * The user-management services use the party, user and identity-provider checks as well.
 */
export const lfStrings = {
  packageId(value: string): string | undefined {
    return matching('Package ID', value, 64, (c) => alnum(c) || c === '-' || c === '_' || c === ' ');
  },
  packageName(value: string): string | undefined {
    const problem = matching('PackageName', value, 255, (c) => alnum(c) || c === '-' || c === '_' || c === '.');
    if (problem) return problem;
    return alnum(value[0] as string) ? undefined : `Daml-LF PackageName "${value}" must start with a letter or a digit`;
  },
  packageVersion(value: string): string | undefined {
    if (/^(0|[1-9]\d{0,8})(\.(0|[1-9]\d{0,8}))*$/.test(value)) return undefined;
    return `Invalid Daml-LF PackageVersion "${value}": expected dot-separated non-negative integers without leading zeros`;
  },
  uniqueIdentifier(value: string): string | undefined {
    if (isUid(value)) return undefined;
    if (!value.includes('::')) return `Invalid unique identifier \`${value}\` with missing namespace.`;
    return `Invalid unique identifier \`${value}\`: the identifier or the namespace is malformed.`;
  },
  party(value: string): string | undefined {
    return matching('Party', value, 255, (c) => alnum(c) || c === ':' || c === '-' || c === '_' || c === ' ');
  },
  userId(value: string): string | undefined {
    return userIdPattern.test(value) ? undefined : `User ID "${value}" does not match regex "${userIdRegex}"`;
  },
  identityProviderId(value: string): string | undefined {
    return value === '' ? undefined : matching('Ledger String', value, 255, ledgerChar);
  },
} as const;
