import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { revokedSessions, users } from '../db/schema/index.js';
import { createTestApp, DEMO, DEMO_PASSWORD, secondInstance, type TestApp } from '../test/helpers.js';

/**
 * Issue 37, item 7: "Log out" ended nothing on the server (a token lived its 60 minutes after it),
 * and `Bearer` was refused in lower case although `/api/Token` answers `token_type: "bearer"`.
 */
let t: TestApp;
/** A second API instance on the same database (as behind a load balancer). */
let other: FastifyInstance;
let second: Awaited<ReturnType<typeof secondInstance>> | undefined;

beforeAll(async () => {
  t = await createTestApp();
  second = await secondInstance(t);
  other = second.app;
}, 60_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const session = (token: string, app: FastifyInstance = t.app, scheme = 'Bearer') =>
  app.inject({
    method: 'GET',
    url: '/api/Account/GetClientInfo',
    headers: { authorization: `${scheme} ${token}` },
  });
const logout = (token: string) => t.inject({ method: 'POST', url: '/api/Account/Logout', token });

describe('Log out', () => {
  it('ends the session on the server: its token answers 401 on every instance, the user’s other sessions stay', async () => {
    const mine = await t.login(DEMO.companyAdmin);
    const elsewhere = await t.login(DEMO.companyAdmin);
    // Both instances know (and keep) the session before it ends.
    expect((await session(mine)).statusCode).toBe(200);
    expect((await session(mine, other)).statusCode).toBe(200);

    const res = await logout(mine);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'You have been logged out' });

    const after = await session(mine);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('sessionExpired');
    await vi.waitFor(async () => expect((await session(mine, other)).statusCode).toBe(401), {
      timeout: 5_000,
    });
    expect((await t.inject({ method: 'GET', url: '/api/invoices', token: mine })).statusCode).toBe(401);
    expect((await logout(mine)).statusCode).toBe(401);

    expect((await session(elsewhere)).statusCode).toBe(200);
    expect((await session(elsewhere, other)).statusCode).toBe(200);
    // Signing in again starts a new session.
    expect((await session(await t.login(DEMO.companyAdmin))).statusCode).toBe(200);
  });

  it('keeps a revoked session only until its token would have expired anyway', async () => {
    const { db } = t.deps.database;
    const token = await t.login(DEMO.consultant);
    const [consultant] = await db.select().from(users).where(eq(users.email, DEMO.consultant));
    // Answered in the user's own language.
    await db.update(users).set({ languageId: 2 }).where(eq(users.id, consultant.id));
    expect((await logout(token)).json()).toEqual({ message: 'Olet kirjautunut ulos' });
    const kept = await db.select().from(revokedSessions).where(eq(revokedSessions.userId, consultant.id));
    expect(kept).toHaveLength(1);
    expect(kept[0]!.expiresAt.getTime()).toBeLessThanOrEqual(
      t.deps.now().getTime() + t.config.TOKEN_TTL_MINUTES * 60_000,
    );
    // Past that time, the next sign-out (anyone's) removes the row; the old token stays refused.
    t.advanceClock(t.config.TOKEN_TTL_MINUTES * 60_000 + 1000);
    await logout(await t.login(DEMO.admin));
    expect(
      await db.select().from(revokedSessions).where(eq(revokedSessions.userId, consultant.id)),
    ).toHaveLength(0);
    expect((await session(token)).statusCode).toBe(401);
  });

  it('ends a token signed before sessions were named with the user’s token version', async () => {
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.email, DEMO.clientUser));
    const old = await t.deps.tokens.sign({
      sub: user.id,
      role: user.roleId,
      cid: user.clientId,
      op: null,
      tv: user.tokenVersion,
    });
    expect((await session(old)).statusCode).toBe(200);
    expect((await logout(old)).statusCode).toBe(200);
    expect((await session(old)).statusCode).toBe(401);
  });
});

describe('the bearer scheme', () => {
  it('accepts the token type /api/Token answers ("bearer") and any case of it, and refuses other schemes', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/Token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        username: DEMO.otherCompanyAdmin,
        password: DEMO_PASSWORD,
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    const { token_type, access_token } = res.json() as { token_type: string; access_token: string };
    expect(token_type).toBe('bearer');
    for (const scheme of [token_type, 'Bearer', 'BEARER', 'bEaReR'])
      expect((await session(access_token, t.app, scheme)).statusCode, scheme).toBe(200);
    expect((await session(access_token, t.app, 'bearer  ')).statusCode).toBe(200);
    for (const scheme of ['Basic', 'Token', 'Bearerx'])
      expect((await session(access_token, t.app, scheme)).statusCode, scheme).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/Account/GetClientInfo',
          headers: { authorization: `bearer${access_token}` },
        })
      ).statusCode,
    ).toBe(401);
  });
});
