import { errors, jwtVerify, type JWTPayload } from 'jose';

/** What a token says, after signature and format checks. */
export type TokenInfo =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'expired'; readonly userId: string | undefined }
  | { readonly kind: 'valid'; readonly userId: string | undefined; readonly issuer: string | undefined; readonly expiresAtMs: number | undefined };

/** The audience prefix of participant-audience tokens. */
export const participantAudiencePrefix = 'https://daml.com/jwt/aud/participant/';

function scopes(payload: JWTPayload): string[] {
  const scope = payload['scope'];
  const scp = payload['scp'];
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}

function audiences(payload: JWTPayload): string[] {
  if (typeof payload.aud === 'string') return [payload.aud];
  return Array.isArray(payload.aud) ? payload.aud : [];
}

/**
 * Checks the format the participant accepts (docs/server-behavior.md#authentication-and-authorization): an audience-based token whose `aud`
 * holds exactly one `https://daml.com/jwt/aud/participant/<participantId>` entry, or a scope-based token
 * whose `scope`/`scp` contains `daml_ledger_api` (with an empty `aud` or the participant id).
 */
function formatOk(payload: JWTPayload, participantId: string): boolean {
  const aud = audiences(payload);
  const participantAud = aud.filter((a) => a.startsWith(participantAudiencePrefix));
  if (participantAud.length > 0) {
    return participantAud.length === 1 && participantAud[0] === `${participantAudiencePrefix}${participantId}`;
  }
  if (scopes(payload).includes('daml_ledger_api')) {
    return aud.length === 0 || (aud.length === 1 && aud[0] === participantId);
  }
  return false;
}

/**
 * Verifies an HS256 JWT with `secret` (jose). A bad signature, another algorithm, a malformed token or a
 * payload in neither accepted format is `invalid`; a token past its `exp` is `expired`.
 */
export async function verifyToken(token: string | undefined, secret: Uint8Array, participantId: string): Promise<TokenInfo> {
  if (token === undefined) return { kind: 'none' };
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (!formatOk(payload, participantId)) return { kind: 'invalid' };
    const expiresAtMs = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
    return { kind: 'valid', userId: typeof payload.sub === 'string' ? payload.sub : undefined, issuer: payload.iss, expiresAtMs };
  } catch (e) {
    if (e instanceof errors.JWTExpired) {
      const sub = e.payload.sub;
      return { kind: 'expired', userId: typeof sub === 'string' ? sub : undefined };
    }
    return { kind: 'invalid' };
  }
}
