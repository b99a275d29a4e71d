import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ACKNOWLEDGE_PAGE } from '@pawguard/shared';

/**
 * Signed acknowledge links (docs/escalation.md): a token naming one alert and the one person it
 * was made for, so a tap in an alert mail or on a push's "Acknowledge" acknowledges it without a
 * sign-in. HS256 under the server's secret, with an issuer, audience and type of their own: no
 * other token (a sign-in, a stream ticket) is taken in its place, nor this one for them. It
 * acknowledges and nothing else, so a link forwarded or replayed within its day can do no more
 * than that, and only while its person may still see the alert.
 */
const ISSUER = 'pawguard';
const AUDIENCE = 'pawguard-acknowledge';
const TYPE = 'ack';
/** An alert's news is a day old at most by then: the link has done its work. */
export const ACK_LINK_LIFETIME_SECONDS = 24 * 60 * 60;

export interface AckClaims {
  alertId: string;
  userId: string;
  /**
   * The level the alert stood at when the link was made: a link to a Danger does not
   * acknowledge the Critical it has become since (the person never saw that).
   */
  level: string | null;
}

export class AckLinks {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly publicUrl: string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async token(claims: AckClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ alert: claims.alertId, level: claims.level, typ: TYPE })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACK_LINK_LIFETIME_SECONDS)
      .sign(this.key);
  }

  /** The page that acknowledges; the token in the fragment, which no server log sees. */
  async url(claims: AckClaims, now: Date): Promise<string> {
    return `${this.publicUrl}${ACKNOWLEDGE_PAGE}#${await this.token(claims, now)}`;
  }

  /** The claims of a valid, unexpired acknowledge token, else null. */
  async verify(token: string, now: Date): Promise<AckClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: now,
      });
      if (payload.typ !== TYPE || typeof payload.alert !== 'string' || !payload.sub) return null;
      const level = typeof payload.level === 'string' ? payload.level : null;
      return { alertId: payload.alert, userId: payload.sub, level };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
