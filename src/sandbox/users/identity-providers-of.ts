import type { ParticipantState } from '../participant/participant-state.js';
import { IdentityProviders } from './identity-providers.js';

const registries = new WeakMap<ParticipantState, IdentityProviders>();

/**
 * The identity providers of a participant: created on first use (with the default `""` and `idp-acme`) and
 * kept for the participant's lifetime. Tests and embedding code reach it through the sandbox handle —
 * `identityProvidersOf(sandbox.state).add('idp-other')`.
 */
export function identityProvidersOf(state: ParticipantState): IdentityProviders {
  let registry = registries.get(state);
  if (!registry) {
    registry = new IdentityProviders();
    registries.set(state, registry);
  }
  return registry;
}
