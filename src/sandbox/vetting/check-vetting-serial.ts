import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { VettingState } from '../state/vetting-store.js';
import type { ExpectedSerial } from './parse-vetting-update.js';

const option = (n: number | undefined) => (n === undefined ? 'None' : `Some(${n})`);

/**
 * The `expectedTopologySerial` precondition of a vetting update (docs/server-behavior.md#vetting-update-order step 7), checked in
 * dry runs too: `NoPrior` fails when a state exists, `Prior(n)` when there is no state or its serial is not
 * `n`. The failure is `TOPOLOGY_SERIAL_MISMATCH` (400) with the server's quirky cause, whose "provided"
 * slot holds the *current* serial: `The provided serial Some(3) did not match the expected serial Some(4).`
 * (`None` for an absent side); context `actual` and `expected` carry the same renderings.
 */
export function checkVettingSerial(current: VettingState | undefined, expected: ExpectedSerial): void {
  if (expected.kind === 'none') return;
  const actual = current?.serial;
  const wanted = expected.kind === 'prior' ? expected.serial : undefined;
  if (actual === wanted) return;
  throw SandboxError.grpc(
    ErrorDefs.TOPOLOGY_SERIAL_MISMATCH,
    `The provided serial ${option(actual)} did not match the expected serial ${option(wanted)}.`,
    { context: { actual: option(actual), expected: option(wanted) } },
  );
}
