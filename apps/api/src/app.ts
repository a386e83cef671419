import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Deps } from './types.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerCsrf } from './plugins/csrf.js';
import { registerAccess } from './plugins/access.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { organizationRoutes } from './modules/organization/organization.routes.js';
import { mastersRoutes } from './modules/masters/masters.routes.js';
import { invoicesRoutes } from './modules/invoices/invoices.routes.js';
import { automationRoutes } from './modules/automation/automation.routes.js';

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Builds the whole HTTP application around its dependencies. Plugins and modules are
 * registered here explicitly, in order, so the URL map can be read in one file.
 */
export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      deps.config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: deps.config.LOG_LEVEL,
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'req.headers["x-xsrf-token"]',
                '*.password',
                '*.token',
              ],
              censor: '[redacted]',
            },
          },
    trustProxy: true,
    bodyLimit: 2 * 1024 * 1024,
  });
  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerErrorHandling(app);
  await app.register(helmet, {
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
  await app.register(authRoutes);
  await app.register(profileRoutes);
  await app.register(organizationRoutes);
  await app.register(mastersRoutes);
  await app.register(invoicesRoutes);
  await app.register(automationRoutes);

  const webDist = deps.config.WEB_DIST ? path.resolve(deps.config.WEB_DIST) : DEFAULT_WEB_DIST;
  if (fs.existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ['index.html'] });
  }
  return app;
}
