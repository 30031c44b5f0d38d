/** The change id (`userId`, `actAs` as a set, `commandId`) — the deduplication key — as a map key. */
export function changeIdKey(userId: string, actAs: readonly string[], commandId: string): string {
  return JSON.stringify([userId, [...new Set(actAs)].sort(), commandId]);
}
