import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activateSchema,
  clientInfoSchema,
  loginSchema,
  message,
  resetLinkStatusResponseSchema,
  resetLinkStatusSchema,
  resetPasswordSchema,
  signupSchema,
  text,
  tokenRequestSchema,
  tokenResponseSchema,
} from '@kulu/shared';
import { AppError } from '../../lib/errors.js';
import { bearerToken, currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { users } from '../../db/schema/index.js';
import { eq } from 'drizzle-orm';
import {
  clientInfoFor,
  consumeLinkToken,
  forgotPassword,
  isLinkOpen,
  login,
  logout,
  signup,
} from './auth.service.js';

const messageResponse = z.object({ message: z.string() });
/** OAuth error form, with the API's usual error fields beside it. */
const oauthError = z.object({
  error: z.string().optional(),
  error_description: z.string().optional(),
  statusCode: z.number().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});

/** The compatibility calls of spec §7 keep their names and shapes. */
export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  // One per-IP budget over every public account call (token, login, sign-up, reset, activation):
  // one handler, so one counter store, whichever of them a guesser spreads the calls over.
  const accountBudget = app.rateLimit({ max: deps.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' });
  const publicAccountCall = { config: { public: true }, onRequest: accountBudget } as const;

  r.post(
    '/api/Token',
    {
      ...publicAccountCall,
      schema: {
        tags: ['auth'],
        summary: 'OAuth-style password grant (form-encoded)',
        consumes: ['application/x-www-form-urlencoded'],
        body: tokenRequestSchema,
        response: { 200: tokenResponseSchema, '4xx': oauthError },
      },
    },
    async (req, reply) => {
      if (req.body.grant_type !== 'password') {
        return reply.code(400).send({ error: 'unsupported_grant_type' });
      }
      try {
        return await login(deps, req.body.username, req.body.password, req.body.OperatorId);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        const lang = requestLanguage(req);
        return reply.code(e.statusCode).send({
          error: 'invalid_grant',
          error_description: message(e.code, lang),
          statusCode: e.statusCode,
          code: e.code,
          message: message(e.code, lang),
        });
      }
    },
  );

  r.post(
    '/api/Account/login',
    {
      ...publicAccountCall,
      schema: { tags: ['auth'], body: loginSchema, response: { 200: tokenResponseSchema } },
    },
    async (req) => login(deps, req.body.email, req.body.password, req.body.operatorId),
  );

  r.post(
    '/api/Account/Signup',
    {
      ...publicAccountCall,
      schema: { tags: ['auth'], body: signupSchema, response: { 201: messageResponse } },
    },
    async (req, reply) => {
      await signup(deps, req.body, req.ip);
      return reply.code(201).send({ message: message('registered', requestLanguage(req)) });
    },
  );

  r.get(
    '/api/Account/GetClientInfo',
    { config: { auth: true }, schema: { tags: ['auth'], response: { 200: clientInfoSchema } } },
    async (req) => {
      const me = currentUser(req);
      // The row the access check has just read for this request.
      const row = req.userRow ?? (await deps.database.db.select().from(users).where(eq(users.id, me.id)))[0]!;
      return clientInfoFor(deps, row, me.operatorId);
    },
  );

  r.get(
    '/api/Account/ForgotPassword',
    {
      ...publicAccountCall,
      schema: {
        tags: ['auth'],
        querystring: z.object({ email: text({ max: 254 }) }),
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      await forgotPassword(deps, req.query.email);
      return { message: message('resetMailSent', requestLanguage(req)) };
    },
  );

  r.post(
    '/api/Account/ResetLinkStatus',
    {
      ...publicAccountCall,
      schema: {
        tags: ['auth'],
        summary: 'Whether a reset link is still open (unused, unexpired), without using it',
        description:
          'The reset page asks on opening, so that a used or expired link says so before the form is filled. ' +
          'The token goes in the body, never in a URL (logs). Counted in the per-address budget of the account calls.',
        body: resetLinkStatusSchema,
        response: { 200: resetLinkStatusResponseSchema },
      },
    },
    async (req) => ({ open: await isLinkOpen(deps, 'reset', req.body.token) }),
  );

  r.post(
    '/api/Account/Logout',
    {
      config: { auth: true },
      schema: {
        tags: ['auth'],
        summary: 'Ends this session on the server: its token is refused (401) from now on',
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      // The access check has verified this very token (its claims are kept by the token service).
      const claims = await deps.tokens.verify(bearerToken(req)!);
      if (claims) await logout(deps, claims);
      return { message: message('loggedOut', requestLanguage(req)) };
    },
  );

  r.post(
    '/api/Account/ReSetPassword',
    {
      ...publicAccountCall,
      schema: { tags: ['auth'], body: resetPasswordSchema, response: { 200: z.string() } },
    },
    async (req, reply) => {
      await consumeLinkToken(deps, 'reset', req.body.token, req.body.password);
      return reply.type('text/plain; charset=utf-8').send(message('passwordReset', requestLanguage(req)));
    },
  );

  r.post(
    '/api/Account/Activate',
    {
      ...publicAccountCall,
      schema: { tags: ['auth'], body: activateSchema, response: { 200: messageResponse } },
    },
    async (req) => {
      await consumeLinkToken(deps, 'activation', req.body.token, req.body.password);
      return { message: message('activated', requestLanguage(req)) };
    },
  );
}
