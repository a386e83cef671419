import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/**
 * What an access token carries. `tv` is the user's token version: bumping it revokes old tokens.
 * `sid` names the session (one sign-in): "Log out" revokes it alone (revoked_sessions, issue 37).
 * Tokens signed before sessions were named have none.
 */
export interface TokenClaims {
  sub: number;
  role: number;
  cid: number | null;
  op: number | null;
  tv: number;
  sid?: string;
}

export class TokenService {
  /**
   * The secret as a key object, made once: given raw bytes, jose imports a WebCrypto key on every
   * sign and verify (measured: ~3 % of the API's CPU under load, issue 13).
   */
  private readonly secret: KeyObject;
  /**
   * Tokens whose signature was verified, with their claims and expiry: a token's signature and
   * claims never change, so a repeated request skips the HMAC check (WebCrypto runs it as an async
   * job: ~7 % of the API's CPU under load, issue 13). Expiry is still checked on every call, and
   * revocation never depended on this (the user's token version is read per request).
   */
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number }>();
  static readonly VERIFIED_MAX = 10_000;

  constructor(
    secret: Uint8Array,
    readonly ttlSeconds: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.secret = createSecretKey(secret);
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ role: claims.role, cid: claims.cid, op: claims.op, tv: claims.tv, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setIssuedAt(Math.floor(this.now().getTime() / 1000))
      .setIssuer('kulu')
      .setExpirationTime(Math.floor(this.now().getTime() / 1000) + this.ttlSeconds)
      .sign(this.secret);
  }

  /** The claims of a valid token, or null for a missing, expired or forged one. */
  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > this.now().getTime()) return known.claims;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        issuer: 'kulu',
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      const sub = Number(payload.sub);
      if (!Number.isInteger(sub) || typeof payload.exp !== 'number') return null;
      const claims = {
        sub,
        role: Number(payload.role),
        cid: payload.cid == null ? null : Number(payload.cid),
        op: payload.op == null ? null : Number(payload.op),
        tv: Number(payload.tv),
        sid: typeof payload.sid === 'string' ? payload.sid : undefined,
      };
      // Bounded: the oldest entry goes first (a Map keeps insertion order).
      if (this.verified.size >= TokenService.VERIFIED_MAX)
        this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims, exp: payload.exp });
      return claims;
    } catch {
      return null;
    }
  }
}
