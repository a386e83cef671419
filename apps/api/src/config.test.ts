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

  it('loads no demo data in production unless asked for, and keeps the demo for the embedded default', () => {
    const secret = 'x'.repeat(32);
    const network = { PUBLIC_URL: 'https://kulu.example.fi' };
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://db/kulu',
        JWT_SECRET: secret,
        ...network,
      }).DEMO_DATA,
    ).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kulu', ...network }).DEMO_DATA).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', ...network }).DEMO_DATA).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kulu', DEMO_DATA: 'true' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_DATA: 'yes' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DEMO_DATA: 'false', HOST: '127.0.0.1' }).DEMO_DATA).toBe(false);
    expect(loadConfig({ DEMO_DATA: '' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_DATA: '', ...network }).DEMO_DATA).toBe(false);
  });

  it('asks a production install without demo data for its own address', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/kulu' })).toThrow(/PUBLIC_URL: required/);
  });

  it('requires JWT_SECRET in production with a shared database', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/kulu' })).toThrow(
      /JWT_SECRET/,
    );
  });
});

describe('PUBLIC_URL (the base of links in mails)', () => {
  it('defaults to http://localhost:PORT for the demo, so npm start with no environment works', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '9000', PUBLIC_URL: '' }).PUBLIC_URL).toBe('http://localhost:9000');
  });

  it('defaults to localhost for a server listening on loopback only', () => {
    const c = loadConfig({ NODE_ENV: 'production', DEMO_DATA: 'false', HOST: '127.0.0.1' });
    expect(c.PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('is required for a server on the network without demo data', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO_DATA: 'false', HOST: '0.0.0.0' })).toThrow(
      /PUBLIC_URL: required/,
    );
  });

  it('takes a given address without its trailing slash and refuses other schemes', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://kulu.example.fi/' }).PUBLIC_URL).toBe('https://kulu.example.fi');
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
  });
});

describe('TRUST_PROXY (whose forwarded headers count)', () => {
  it('trusts no proxy by default', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count or a list of addresses, CIDRs and named ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,loopback,fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'loopback',
      'fd00::/8',
    ]);
  });

  it('refuses "true" (every sender trusted) and anything that is not an address', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.fi' })).toThrow(/TRUST_PROXY/);
  });
});
