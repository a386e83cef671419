import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration', () => {
  it('starts from defaults: embedded database under ./data on port 8080 with demo data', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, DATA_DIR: './data', DEMO_DATA: true, TOKEN_TTL_MINUTES: 60 });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('names every bad variable in one message', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ENCRYPTION_KEY: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: must start with postgres[\s\S]*ENCRYPTION_KEY/,
    );
  });

  it('requires JWT_SECRET in production with a shared database', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/kulu' })).toThrow(
      /JWT_SECRET/,
    );
  });
});
