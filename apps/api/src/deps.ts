import path from 'node:path';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { JobQueue } from './lib/queue.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { persistentSecret } from './lib/secrets.js';
import { TokenService } from './lib/tokens.js';
import type { Deps } from './types.js';

/** Wires the services that every module uses from the configuration and an open database. */
export function createDeps(
  config: Config,
  database: Database,
  overrides: Partial<Deps> & { mailer?: Mailer } = {},
): Deps {
  const jwtSecret = persistentSecret(config.dataDir, 'jwt-secret', config.JWT_SECRET, 32);
  const now = overrides.now ?? (() => new Date());
  return {
    config,
    database,
    mailer:
      overrides.mailer ??
      createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        outboxDir: path.join(config.dataDir, 'outbox'),
      }),
    tokens: overrides.tokens ?? new TokenService(jwtSecret, config.TOKEN_TTL_MINUTES * 60, now),
    encryptionKey:
      overrides.encryptionKey ??
      persistentSecret(config.dataDir, 'encryption-key', config.ENCRYPTION_KEY, 32),
    now,
    jobs: overrides.jobs ?? new JobQueue(database),
  };
}
