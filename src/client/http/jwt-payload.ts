import { Buffer } from 'node:buffer';

/**
 * The payload of a JWT, decoded WITHOUT verifying it (only to explain an error, or to tell that a token the
 * client sent had expired); `undefined` when it is not one. Never throws. Pure.
 */
export function jwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1];
  if (token.split('.').length !== 3 || part === undefined || part === '') return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
