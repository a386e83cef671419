import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

const claims = { sub: 7, role: 3, cid: 1, op: 2, tv: 4 };

function service(secret = 'a'.repeat(32)) {
  let now = new Date('2026-11-24T12:00:00Z');
  const tokens = new TokenService(new TextEncoder().encode(secret), 3600, () => now);
  return { tokens, advance: (s: number) => (now = new Date(now.getTime() + s * 1000)) };
}

describe('access tokens', () => {
  it('verifies a signed token, again from the verified tokens on the next request', async () => {
    const { tokens } = service();
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses an expired token even after it was verified once', async () => {
    const { tokens, advance } = service();
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    advance(3601);
    expect(await tokens.verify(token)).toBeNull();
  });

  it("refuses a forged signature, another secret's token and garbage", async () => {
    const { tokens } = service();
    const token = await tokens.sign(claims);
    await tokens.verify(token);
    const [h, p, sig] = token.split('.');
    const forged = `${h}.${p}.${sig!.startsWith('A') ? 'B' : 'A'}${sig!.slice(1)}`;
    expect(await tokens.verify(forged)).toBeNull();
    const other = await service('b'.repeat(32)).tokens.sign(claims);
    expect(await tokens.verify(other)).toBeNull();
    expect(await tokens.verify('not.a.token')).toBeNull();
  });

  it('keeps a bounded number of verified tokens', async () => {
    const { tokens, advance } = service();
    const first = await tokens.sign(claims);
    await tokens.verify(first);
    for (let i = 0; i < TokenService.VERIFIED_MAX; i++) {
      advance(1);
      await tokens.verify(await tokens.sign({ ...claims, sub: i + 100 }));
    }
    const kept = (tokens as unknown as { verified: Map<string, unknown> }).verified;
    expect(kept.size).toBe(TokenService.VERIFIED_MAX);
    expect(kept.has(first)).toBe(false);
  });
});
