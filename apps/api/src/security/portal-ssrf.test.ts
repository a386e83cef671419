import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { portalCredentials } from '../db/schema/index.js';
import { encrypt } from '../lib/secrets.js';
import {
  checkOutboundUrl,
  isPublicAddress,
  OutboundUrlError,
  outboundRequest,
  parseOutboundUrl,
} from '../lib/outbound-url.js';
import { runFetch } from '../modules/automation/automation.service.js';
import { useSignedIn } from '../test/fixtures.js';
import { clientIdOf, DEMO, operatorIdOf } from '../test/helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Makes every DNS lookup of the outbound module answer these addresses. */
function resolveTo(...addresses: string[]) {
  return vi.spyOn(dns.promises, 'lookup').mockImplementation((async () =>
    addresses.map((address) => ({
      address,
      family: net.isIP(address),
    }))) as unknown as typeof dns.promises.lookup);
}

describe('outbound address rules', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'accepts %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each([
    'http://portal.example.com/',
    'ftp://portal.example.com/',
    'file:///etc/passwd',
    'gopher://portal.example.com/',
    'https://localhost/',
    'https://api.localhost/',
    'https://intranet/',
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.1.2.3:8443/',
    'https://0x7f000001/',
    'https://2130706433/',
    'https://user:pass@portal.example.com/',
  ])('refuses the URL %s before any lookup', (url) => {
    expect(() => parseOutboundUrl(url)).toThrow(OutboundUrlError);
  });

  it('refuses a host name when any of its addresses is not public', async () => {
    resolveTo('93.184.216.34', '10.0.0.1');
    await expect(checkOutboundUrl('https://portal.example.com/')).rejects.toThrow(OutboundUrlError);
  });

  it('accepts an https host name that resolves to public addresses only', async () => {
    resolveTo('93.184.216.34', '2606:4700:4700::1111');
    await expect(checkOutboundUrl('https://portal.example.com/')).resolves.toBeInstanceOf(URL);
  });

  it('checks the resolved address again when connecting (a name that now points at loopback)', async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      resolveTo('93.184.216.34');
      await checkOutboundUrl(`https://portal.example.com:${port}/`);
      resolveTo('127.0.0.1');
      await expect(
        outboundRequest(`https://portal.example.com:${port}/api/login`, { timeoutMs: 5000, maxBytes: 1000 }),
      ).rejects.toThrow(OutboundUrlError);
      expect(connections).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('portal URLs through the API and the fetch job', () => {
  const admin = useSignedIn(DEMO.admin);
  let clientId: number;
  let operatorId: number;
  beforeAll(async () => {
    clientId = await clientIdOf(admin.t, DEMO.companyAdmin);
    operatorId = await operatorIdOf(admin.t, 'Elisa');
  });

  it.each([
    'http://127.0.0.1:8080/',
    'https://127.0.0.1/',
    'https://localhost/',
    'https://169.254.169.254/',
    'https://10.0.0.5/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'file:///etc/passwd',
  ])('refuses to store the portal URL %s with 400', async (portalUrl) => {
    const res = await admin.t.inject({
      method: 'PUT',
      url: `/api/automation/clients/${clientId}/credentials`,
      token: admin.token,
      payload: { operatorId, portalUrl, username: 'u', password: 'p' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields?.portalUrl ?? res.json().code).toBeTruthy();
    const rows = await admin.t.deps.database.db
      .select()
      .from(portalCredentials)
      .where(eq(portalCredentials.clientId, clientId));
    expect(rows.map((r) => r.portalUrl)).not.toContain(portalUrl);
  });

  it('stores an https URL of a public host', async () => {
    resolveTo('93.184.216.34');
    const res = await admin.t.inject({
      method: 'PUT',
      url: `/api/automation/clients/${clientId}/credentials`,
      token: admin.token,
      payload: { operatorId, portalUrl: 'https://portal.example.com/', username: 'u', password: 'p' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('does not connect to a loopback URL stored before (checked again when the job connects)', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"x","invoices":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      await admin.t.deps.database.db
        .insert(portalCredentials)
        .values({
          clientId,
          operatorId,
          portalUrl: `http://127.0.0.1:${port}`,
          username: 'u',
          passwordSealed: encrypt(admin.t.deps.encryptionKey, 'p'),
        })
        .onConflictDoUpdate({
          target: [portalCredentials.clientId, portalCredentials.operatorId],
          set: { portalUrl: `http://127.0.0.1:${port}` },
        });
      const status = await runFetch(admin.t.deps, { clientId, operatorId, month: '2026-10' });
      expect(status).toBe('failed');
      expect(seen).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
