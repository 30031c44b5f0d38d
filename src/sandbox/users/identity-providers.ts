/**
 * The identity providers (IDPs) a participant knows. The default IDP `""` always exists and cannot be
 * removed; the sandbox also starts with {@link IdentityProviders.example} (`idp-acme`), so IDP-admin
 * scenarios work out of the box. User-management requests naming an unknown IDP fail with
 * `INVALID_ARGUMENT` "Provided identity_provider_id … has not been found.".
 */
export class IdentityProviders {
  /** The extra IDP every sandbox starts with. */
  static readonly example = 'idp-acme';
  private readonly ids = new Set<string>(['', IdentityProviders.example]);

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Registers an IDP (idempotent). */
  add(id: string): void {
    this.ids.add(id);
  }

  /** Forgets an IDP; the default IDP `""` stays. Returns whether it was known. */
  remove(id: string): boolean {
    return id !== '' && this.ids.delete(id);
  }

  /** Every known IDP id, the default `""` first. */
  all(): string[] {
    return [...this.ids];
  }
}
