import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/**
 * Access tokens: HS256 JWTs naming the user (sub) and the session (sid). Verification pins
 * the algorithm, issuer, audience and type, so no other token (a collar's, a stream ticket)
 * is ever accepted in its place.
 */
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
const ISSUER = 'pawguard';
const AUDIENCE = 'pawguard-api';
const TYPE = 'access';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** Verified tokens remembered, so a signed-in request does not redo the signature check. */
const VERIFIED_CACHE_MAX = 10_000;
const CLOCK_TOLERANCE_S = 30;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * token → its claims and expiry. Only the signature check is skipped on a hit: expiry is
   * checked here, and the session (logout, role) is still read from the database on every
   * request by the caller.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expMs: number }>();
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: AccessClaims, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ sid: claims.sessionId, typ: TYPE })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
      .sign(this.key);
  }

  /** Returns null for anything that is not a valid, unexpired access token of ours. */
  async verify(token: string): Promise<AccessClaims | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if (Date.now() < hit.expMs + CLOCK_TOLERANCE_S * 1000) return hit.claims;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sub'],
        clockTolerance: CLOCK_TOLERANCE_S,
      });
      if (
        payload.typ !== TYPE ||
        typeof payload.sid !== 'string' ||
        typeof payload.sub !== 'string'
      )
        return null;
      const claims = { userId: payload.sub, sessionId: payload.sid };
      if (this.verified.size >= VERIFIED_CACHE_MAX) this.verified.clear();
      this.verified.set(token, { claims, expMs: payload.exp! * 1000 });
      return claims;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
