import { SignJWT, jwtVerify } from 'jose';

/** What an access token carries. `tv` is the user's token version: bumping it revokes old tokens. */
export interface TokenClaims {
  sub: number;
  role: number;
  cid: number | null;
  op: number | null;
  tv: number;
}

export class TokenService {
  constructor(
    private readonly secret: Uint8Array,
    readonly ttlSeconds: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ role: claims.role, cid: claims.cid, op: claims.op, tv: claims.tv })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setIssuedAt(Math.floor(this.now().getTime() / 1000))
      .setIssuer('kulu')
      .setExpirationTime(Math.floor(this.now().getTime() / 1000) + this.ttlSeconds)
      .sign(this.secret);
  }

  /** The claims of a valid token, or null for a missing, expired or forged one. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        issuer: 'kulu',
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      const sub = Number(payload.sub);
      if (!Number.isInteger(sub)) return null;
      return {
        sub,
        role: Number(payload.role),
        cid: payload.cid == null ? null : Number(payload.cid),
        op: payload.op == null ? null : Number(payload.op),
        tv: Number(payload.tv),
      };
    } catch {
      return null;
    }
  }
}
