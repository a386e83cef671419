import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Kulu <no-reply@kulu.fi>'),
  PUBLIC_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  RESET_TOKEN_TTL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(24),
  ACTIVATION_TOKEN_TTL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 60)
    .default(72),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_LOCK_MINUTES: z.coerce
    .number()
    .min(0.01)
    .max(24 * 60)
    .default(15),
  LOGIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  DEMO_DATA: bool.default(true),
  COOKIE_SECURE: bool.default(false),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Hard cap on the memory (whole RSS) of the child process that parses one invoice PDF. */
  PARSE_MAX_MEMORY_MB: z.coerce.number().int().min(64).max(65536).default(512),
  /** Wall-clock limit of one invoice parse; the parse job expires a minute after it. */
  PARSE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
});

export type Config = z.infer<typeof envSchema> & { dataDir: string };

/** Reads and validates the environment; throws one message that lists every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  if (cfg.NODE_ENV === 'production' && cfg.DATABASE_URL && !cfg.JWT_SECRET) {
    throw new Error(
      'Invalid configuration:\n  JWT_SECRET: required in production with DATABASE_URL, so that every instance signs tokens alike',
    );
  }
  return { ...cfg, dataDir: path.resolve(cfg.DATA_DIR) };
}
