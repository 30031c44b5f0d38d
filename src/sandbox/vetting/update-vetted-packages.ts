import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import type { VettedEntry, VettingState } from '../state/vetting-store.js';
import { checkVettingSerial } from './check-vetting-serial.js';
import type { UpdateVettedPackagesInput } from './decode-update-vetted-packages-request.js';
import { parseVettingUpdate, type VettingChange } from './parse-vetting-update.js';
import { resolveVettingReference } from './resolve-vetting-reference.js';
import { selectVettingSynchronizer } from './select-vetting-synchronizer.js';
import { toVettedPackagesJson, type VettedPackagesJson } from './to-vetted-packages-json.js';
import { validateVettingState } from './validate-vetting-state.js';

/** The `UpdateVettedPackagesResponse` body. */
export interface UpdateVettedPackagesResponseJson {
  readonly pastVettedPackages: VettedPackagesJson | null;
  readonly newVettedPackages: VettedPackagesJson;
}

type ResolvedChange = { readonly operation: 'vet'; readonly ids: readonly string[]; readonly from: string | undefined; readonly until: string | undefined } | { readonly operation: 'unvet'; readonly ids: readonly string[] };

function resolveChanges(state: ParticipantState, changes: readonly VettingChange[]): ResolvedChange[] {
  return changes.map((change) => {
    const ids: string[] = [];
    for (const ref of change.refs) {
      const r = resolveVettingReference(state.packages, ref);
      if (change.operation === 'unvet') {
        // Lenient: an unresolved reference is ignored (the server only logs it); every match is unvetted.
        if ('ids' in r) ids.push(...r.ids);
        continue;
      }
      if ('reason' in r) {
        throw SandboxError.grpc(
          ErrorDefs.UNRESOLVED_VETTING_REFERENCE,
          `The vetted package reference ${ref.text} does not match any package in the package store. Reason: ${r.reason}`,
          { context: { reason: r.reason, reference: ref.text } },
        );
      }
      if (r.ids.length > 1) {
        throw SandboxError.grpc(ErrorDefs.AMBIGUOUS_VETTING_REFERENCE, `The package reference ${ref.text} matches multiple packages: Seq(${r.ids.join(', ')})`, {
          context: { reference: ref.text, matchingPackages: `Set(${r.ids.join(', ')})` },
        });
      }
      ids.push(...r.ids);
    }
    return change.operation === 'vet' ? { operation: 'vet', ids, from: change.from, until: change.until } : { operation: 'unvet', ids };
  });
}

function applyChanges(current: readonly VettedEntry[], changes: readonly ResolvedChange[]): VettedEntry[] {
  const byId = new Map(current.map((e) => [e.packageId, e] as const));
  for (const change of changes) {
    for (const packageId of change.ids) {
      if (change.operation === 'unvet') {
        byId.delete(packageId);
        continue;
      }
      byId.set(packageId, {
        packageId,
        ...(change.from === undefined ? {} : { validFromInclusive: change.from }),
        ...(change.until === undefined ? {} : { validUntilExclusive: change.until }),
      });
    }
  }
  return [...byId.values()];
}

function sameEntries(a: readonly VettedEntry[], b: readonly VettedEntry[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(b.map((e) => [e.packageId, e] as const));
  return a.every((e) => {
    const o = byId.get(e.packageId);
    return o !== undefined && o.validFromInclusive === e.validFromInclusive && o.validUntilExclusive === e.validUntilExclusive;
  });
}

/**
 * `POST /v2/package-vetting/update` (and its deprecated alias `POST /v2/package-vetting`) after the caller
 * was found to be a participant admin, following docs/server-behavior.md#vetting-update-order:
 *
 * 1. request validation (`parseVettingUpdate`: `PROTO_DESERIALIZATION_FAILURE`);
 * 2. synchronizer selection (`selectVettingSynchronizer`);
 * 3. reference resolution against the package store — Vet is strict (no match →
 *    `UNRESOLVED_VETTING_REFERENCE` 404, several → `AMBIGUOUS_VETTING_REFERENCE` 400), Unvet lenient
 *    (unresolved references ignored, every match unvetted);
 * 4. the serial precondition on this participant's current state there (`checkVettingSerial`);
 * 5. the new state: the changes applied in order to a map keyed by package id (a later change of the same
 *    package wins; Vet sets both bounds, an omitted bound becoming unbounded; untouched packages keep
 *    their state);
 * 6. no-op: if a state exists and the new package set equals it exactly (bounds included), nothing is
 *    written and the answer carries the current state as both past and new (serial unchanged) — also for
 *    an empty `changes` list, and in dry runs;
 * 7. validation of the new state (`validateVettingState`) with the force flags, identical in dry runs;
 * 8. dry run: nothing is written, the answer shows the would-be state with serial current + 1; real run:
 *    the state is published with serial current + 1 (1 for the first state).
 *
 * `pastVettedPackages` is `null` when this participant had no state on the synchronizer (the first update
 * there, even one with no changes, writes a state — serial 1 — possibly with no packages). Both sides
 * describe the participant's whole state there, enriched like the list. The whole operation runs without
 * awaiting, so concurrent updates are serialised, as by the server's vetting queue.
 */
export function updateVettedPackages(state: ParticipantState, input: UpdateVettedPackagesInput): UpdateVettedPackagesResponseJson {
  const update = parseVettingUpdate(input);
  const synchronizerId = selectVettingSynchronizer(state, update.synchronizerId);
  const resolved = resolveChanges(state, update.changes);
  const participantId = state.participantId;
  const current: VettingState | undefined = state.vetting.get(synchronizerId, participantId);
  checkVettingSerial(current, update.expectedSerial);

  const render = (s: VettingState) => toVettedPackagesJson(state.packages, synchronizerId, participantId, s);
  const currentPackages = current?.packages ?? [];
  const nextPackages = applyChanges(currentPackages, resolved);
  if (current && sameEntries(currentPackages, nextPackages)) {
    return { pastVettedPackages: render(current), newVettedPackages: render(current) };
  }
  validateVettingState(state.packages, currentPackages, nextPackages, update);
  const next = update.dryRun
    ? { packages: nextPackages, serial: (current?.serial ?? 0) + 1 }
    : state.vetting.publish(synchronizerId, participantId, nextPackages);
  return { pastVettedPackages: current ? render(current) : null, newVettedPackages: render(next) };
}
