import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  changePasswordSchema,
  changePasswordResponseSchema,
  clientInfoSchema,
  DEFAULT_LAYOUT,
  layoutSettingsSchema,
  message,
  profileSchema,
  profileUpdateSchema,
  settingsUpdateSchema,
  switchOperatorSchema,
  tokenResponseSchema,
  type LayoutSettings,
} from '@kulu/shared';
import { settings, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { clientInfoFor, issueSession } from '../auth/auth.service.js';
import {
  changePassword,
  digestSetting,
  getProfile,
  LOGO_MAX_BYTES,
  setLogo,
  updateProfile,
} from './profile.service.js';
import { declareRoutes } from '../../lib/routes.js';

export async function profileRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const auth = { auth: true } as const;
  const tags = ['profile'];
  const route = declareRoutes(app, tags);

  route.get('/api/profile', auth, { response: { 200: profileSchema } }, async (req) =>
    getProfile(deps, currentUser(req), req.scope),
  );

  route.put(
    '/api/profile',
    auth,
    { body: profileUpdateSchema, response: { 200: profileSchema } },
    async (req) => updateProfile(deps, currentUser(req), req.scope, req.body),
  );

  route.put(
    '/api/profile/settings',
    auth,
    { body: settingsUpdateSchema, response: { 200: clientInfoSchema } },
    async (req) => {
      const me = currentUser(req);
      const [row] = await db
        .update(users)
        .set({
          ...(req.body.languageID ? { languageId: req.body.languageID } : {}),
          ...(req.body.applicationThemeID ? { themeId: req.body.applicationThemeID } : {}),
          ...(req.body.alertDigest ? digestSetting(req.body.alertDigest) : {}),
        })
        .where(eq(users.id, me.id))
        .returning();
      return clientInfoFor(deps, row, me.operatorId);
    },
  );

  route.post(
    '/api/profile/logo',
    auth,
    { consumes: ['multipart/form-data'], response: { 200: z.object({ logo: z.string().nullable() }) } },
    async (req) => {
      let file;
      try {
        file = await req.file({ limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1 } });
      } catch {
        throw new AppError(400, 'logoPngOnly');
      }
      if (!file) throw new AppError(400, 'logoPngOnly');
      const data = await file.toBuffer().catch(() => {
        throw new AppError(400, 'logoTooLarge');
      });
      if (file.file.truncated) throw new AppError(400, 'logoTooLarge');
      return { logo: await setLogo(deps, currentUser(req), req.scope, data) };
    },
  );

  route.delete(
    '/api/profile/logo',
    auth,
    { response: { 200: z.object({ logo: z.null() }) } },
    async (req) => {
      await setLogo(deps, currentUser(req), req.scope, null);
      return { logo: null };
    },
  );

  route.post(
    '/api/profile/password',
    auth,
    { body: changePasswordSchema, response: { 200: changePasswordResponseSchema } },
    async (req) => {
      const me = currentUser(req);
      const fresh = await changePassword(deps, me, req.body.oldPassword, req.body.newPassword);
      // Old tokens are revoked; the caller gets a new session so they stay signed in here.
      const session = await issueSession(deps, fresh, me.operatorId);
      return { ...session, message: message('passwordChanged', requestLanguage(req)) };
    },
  );

  route.post(
    '/api/session/operator',
    auth,
    { tags: ['auth'], body: switchOperatorSchema, response: { 200: tokenResponseSchema } },
    async (req) => {
      const me = currentUser(req);
      const [row] = await db.select().from(users).where(eq(users.id, me.id));
      return issueSession(deps, row, req.body.operatorId);
    },
  );

  route.get('/api/layout', auth, { tags: ['layout'], response: { 200: layoutSettingsSchema } }, async () => {
    const [row] = await db.select().from(settings).where(eq(settings.key, 'layout'));
    return layoutSettingsSchema.catch(DEFAULT_LAYOUT).parse(row?.value ?? DEFAULT_LAYOUT);
  });

  route.put(
    '/api/layout',
    'layout.builder',
    { tags: ['layout'], body: layoutSettingsSchema, response: { 200: layoutSettingsSchema } },
    async (req) => {
      const value: LayoutSettings = req.body;
      await db
        .insert(settings)
        .values({ key: 'layout', value })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
      return value;
    },
  );
}
