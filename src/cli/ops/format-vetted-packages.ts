import type { VettedPackages } from '../../schemas/vetting.js';

/**
 * A human-readable block for one vetting state: a header line (synchronizer, participant, topology
 * serial), then one aligned line per package — name, version, the first 12 digits of the id, and the
 * validity window (`-∞`/`+∞` when unbounded), sorted by name then version.
 */
export function formatVettedPackages(state: VettedPackages): string {
  const rows = [...state.packages]
    .map((p) => [
      p.packageName || '(not uploaded here)',
      p.packageVersion || '-',
      p.packageId.slice(0, 12),
      `${p.validFromInclusive ?? '-∞'} .. ${p.validUntilExclusive ?? '+∞'}`,
    ])
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string) || (a[1] as string).localeCompare(b[1] as string, undefined, { numeric: true }));
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((r) => (r[i] as string).length)));
  const lines = rows.map((r) => `  ${r.slice(0, 3).map((c, i) => c.padEnd(widths[i] as number)).join('  ')}  ${r[3]}`);
  return [`synchronizer ${state.synchronizerId}  participant ${state.participantId}  serial ${state.topologySerial}`, ...lines].join('\n');
}
