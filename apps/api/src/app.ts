import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { DestinationStream } from 'pino';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { strictBodyValidator } from './lib/strict-bodies.js';
import { createSerializerCompiler } from './lib/serializer.js';
import type { TrustProxy } from './config.js';
import type { Deps } from './types.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerCsrf } from './plugins/csrf.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerAccess } from './plugins/access.js';
import { registerWebApp } from './plugins/web-app.js';
import { registerCors } from './plugins/cors.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { aboutRoutes } from './modules/about/about.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { organizationRoutes } from './modules/organization/organization.routes.js';
import { mastersRoutes } from './modules/masters/masters.routes.js';
import { invoicesRoutes } from './modules/invoices/invoices.routes.js';
import { automationRoutes } from './modules/automation/automation.routes.js';
import { dashboardsRoutes } from './modules/dashboards/dashboards.routes.js';
import { optimizationRoutes } from './modules/optimization/optimization.routes.js';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { clientsRoutes } from './modules/clients/clients.routes.js';
import { clientMastersRoutes } from './modules/client-masters/client-masters.routes.js';
import { contractsRoutes } from './modules/client-sections/contracts.routes.js';
import { subCompaniesRoutes } from './modules/client-sections/sub-companies.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { reportExportsRoutes } from './modules/report-exports/report-exports.routes.js';
import { alertsRoutes } from './modules/alerts/alerts.routes.js';
import { consultantBillingRoutes } from './modules/consultant-billing/consultant-billing.routes.js';
import { portfolioRoutes } from './modules/portfolio/portfolio.routes.js';
import { providerUsersRoutes } from './modules/provider-users/provider-users.routes.js';
import { clientUsersRoutes } from './modules/client-sections/client-users.routes.js';
import { billingRoutes } from './modules/client-sections/billing.routes.js';
import { clientMoneyRoutes } from './modules/client-sections/client-money.routes.js';
import { operatorContractsRoutes } from './modules/client-sections/operator-contracts.routes.js';

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Keys whose values never reach a log line, at any depth pino's redaction reaches (four levels). */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'oldPassword',
  'confirmPassword',
  'passwordHash',
  'passwordSealed',
  'hash',
  'token',
  'access_token',
  'authorization',
  'cookie',
  'set-cookie',
  'x-xsrf-token',
];
export const REDACT_PATHS = SECRET_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `["${k}"]`;
  return ['', '*', '*.*', '*.*.*'].map((prefix) => (prefix ? `${prefix}${key}` : key.replace(/^\./, '')));
});

/**
 * Errors are logged by type, code, message and stack only: a failed query's bound parameters (a
 * password hash, an email) and any other field the error carries stay out of the log.
 */
export function serializeError(err: unknown): {
  type: string;
  message: string;
  stack: string;
  [k: string]: unknown;
} {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const cut = (text: string | undefined) =>
    text?.replace(/\nparams:[\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');
  const cause = err.cause as { message?: string; code?: string } | undefined;
  return {
    type: err.name,
    message: cut(err.message) ?? '',
    stack: cut(err.stack) ?? '',
    code: (err as { code?: unknown }).code,
    statusCode: (err as { statusCode?: unknown }).statusCode,
    ...(cause && typeof cause === 'object'
      ? { cause: { message: cut(String(cause.message ?? '')), code: cause.code } }
      : {}),
  };
}

/** TRUST_PROXY as Fastify takes it (a hop count as proxy-addr's trust function: the n nearest hops). */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_addr, hop) => hop < trust : trust;
}

const SECRET_QUERY = /^(email|username|password|token|access_token|code)$/i;

/** A URL as logged: values of query parameters that may be personal or secret are redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Requests are logged by method, URL (secrets redacted) and addresses; never headers or bodies. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * One log line per request (method, URL, status and time on Fastify's "request completed") instead
 * of two (incoming, completed): half the logging work on every request (issue 13). Errors, streams
 * and not-found answers are logged as before.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export interface BuildOptions {
  /** Where log lines go (tests read them); standard output by default. */
  logStream?: DestinationStream;
}

/**
 * Builds the whole HTTP application around its dependencies. Plugins and modules are
 * registered here explicitly, in order, so the URL map can be read in one file.
 *
 * Logging: requests are logged by method, URL and status only (never bodies); secrets are
 * redacted by key wherever they appear. Forwarded headers (client address, protocol) are trusted
 * only from the proxies of TRUST_PROXY, so nobody can pick their own rate-limit key.
 */
export async function buildApp(deps: Deps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      deps.config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: deps.config.LOG_LEVEL,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            redact: { paths: REDACT_PATHS, censor: '[redacted]' },
            serializers: { err: serializeError, req: serializeRequest },
          },
    trustProxy: fastifyTrustProxy(deps.config.TRUST_PROXY),
    bodyLimit: 2 * 1024 * 1024,
    logController: new OneLinePerRequest(),
  });
  app.decorate('deps', deps);
  app.setValidatorCompiler(strictBodyValidator);
  app.setSerializerCompiler(createSerializerCompiler({ verify: deps.config.NODE_ENV === 'test' }));

  const webDist = deps.config.WEB_DIST ? path.resolve(deps.config.WEB_DIST) : DEFAULT_WEB_DIST;
  const webApp = fs.existsSync(path.join(webDist, 'index.html'));
  registerErrorHandling(app, { webApp });
  // Every API answer is per caller (or may be): no shared cache or browser cache keeps it. The
  // API documentation's static files are the only public content under /api.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/') && !req.url.startsWith('/api/docs')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its CSS-in-JS styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 20 } });
  await app.register(rateLimit, { global: false });
  registerCors(app, deps.config.CORS_ORIGINS);
  registerCsrf(app, { secure: deps.config.COOKIE_SECURE });
  registerAccess(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Kulu API', version: '0.1.0', description: 'Mobile subscription cost management' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes);
  await app.register(aboutRoutes);
  await app.register(authRoutes);
  await app.register(profileRoutes);
  await app.register(organizationRoutes);
  await app.register(mastersRoutes);
  await app.register(invoicesRoutes);
  await app.register(automationRoutes);
  await app.register(dashboardsRoutes);
  await app.register(optimizationRoutes);
  await app.register(subscriptionsRoutes);
  await app.register(clientsRoutes);
  await app.register(clientMastersRoutes);
  await app.register(contractsRoutes);
  await app.register(subCompaniesRoutes);
  await app.register(clientUsersRoutes);
  await app.register(providerUsersRoutes);
  await app.register(reportsRoutes);
  await app.register(reportExportsRoutes);
  await app.register(consultantBillingRoutes);
  await app.register(portfolioRoutes);
  await app.register(billingRoutes);
  await app.register(clientMoneyRoutes);
  await app.register(operatorContractsRoutes);
  await app.register(alertsRoutes);

  if (webApp) await registerWebApp(app, webDist);
  return app;
}
