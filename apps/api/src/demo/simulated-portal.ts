/**
 * SIMULATED OPERATOR PORTAL — not a real operator's system.
 *
 * A small HTTP server that behaves like an operator's customer portal as far as Kulu's automated
 * invoice retrieval needs: sign in (`POST /api/login` → bearer token), a month's invoice list
 * (`GET /api/invoices?month=yyyy-mm`, each with its format) and download (`GET /api/invoices/:id/pdf`
 * for a PDF, `GET /api/invoices/:id/finvoice` for a Finvoice e-invoice, `GET /api/invoices/:id/peppol`
 * for a Peppol BIS Billing 3.0 e-invoice, as operators deliver them to
 * business customers). The files are made by the invoice generator of @kulu/invoices. Tests and demo mode use it because the real
 * Elisa, Telia and DNA portals cannot be reached from here (README: "Simulated operator portal").
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowLocalOrigin } from '../lib/outbound-url.js';

type PortalFormat = 'pdf' | 'finvoice' | 'peppol';

export interface SimulatedInvoice {
  id: string;
  invoiceNumber: string;
  month: string;
  fileName: string;
  /** `pdf` (default), `finvoice` or `peppol`: what the portal serves the invoice as. */
  format?: PortalFormat;
  /** The file's bytes, or a function making them on first download. */
  file: Uint8Array | (() => Promise<Uint8Array>);
}

export interface SimulatedAccount {
  username: string;
  password: string;
  invoices: SimulatedInvoice[];
  /** Answer 500 to downloads (to test the Failed Invoice Download report). */
  failDownloads?: boolean;
}

export interface SimulatedPortal {
  url: string;
  accounts: SimulatedAccount[];
  /** Requests seen (method and path), for tests. */
  log: string[];
  close(): Promise<void>;
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

export async function startSimulatedPortal(
  accounts: SimulatedAccount[],
  opts: { host?: string; port?: number } = {},
): Promise<SimulatedPortal> {
  const sessions = new Map<string, SimulatedAccount>();
  const log: string[] = [];
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://portal.invalid');
    log.push(`${req.method} ${url.pathname}`);
    if (req.method === 'POST' && url.pathname === '/api/login') {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size < 10_000) chunks.push(c);
      });
      req.on('end', () => {
        let body: { username?: string; password?: string } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          return json(res, 400, { error: 'bad request' });
        }
        const account = accounts.find(
          (a) => a.username === body.username && safeEqual(a.password, String(body.password ?? '')),
        );
        if (!account) return json(res, 401, { error: 'invalid credentials' });
        const token = crypto.randomBytes(24).toString('base64url');
        sessions.set(token, account);
        return json(res, 200, { token });
      });
      return;
    }
    const auth = req.headers.authorization ?? '';
    const account = auth.startsWith('Bearer ') ? sessions.get(auth.slice(7)) : undefined;
    if (!account) return json(res, 401, { error: 'not signed in' });
    if (req.method === 'GET' && url.pathname === '/api/invoices') {
      const month = url.searchParams.get('month');
      return json(res, 200, {
        invoices: account.invoices
          .filter((i) => !month || i.month === month)
          .map(({ id, invoiceNumber, month: m, fileName, format }) => ({
            id,
            invoiceNumber,
            month: m,
            fileName,
            format: format ?? 'pdf',
          })),
      });
    }
    const m = /^\/api\/invoices\/([^/]+)\/(pdf|finvoice|peppol)$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      if (account.failDownloads) return json(res, 500, { error: 'download failed' });
      const inv = account.invoices.find((i) => i.id === decodeURIComponent(m[1]));
      if (!inv || (inv.format ?? 'pdf') !== m[2]) return json(res, 404, { error: 'not found' });
      const made = typeof inv.file === 'function' ? inv.file() : Promise.resolve(inv.file);
      made.then(
        (file) => {
          inv.file = file;
          const type = m[2] === 'pdf' ? 'application/pdf' : 'application/xml';
          res.writeHead(200, { 'content-type': type, 'content-length': file.length });
          res.end(Buffer.from(file));
        },
        () => json(res, 500, { error: 'download failed' }),
      );
      return;
    }
    json(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  // Outbound calls refuse loopback; this exact origin, started here in code, is the exception.
  const revoke = allowLocalOrigin(url);
  return {
    url,
    accounts,
    log,
    close: () =>
      new Promise((resolve) => {
        revoke();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Invoices of one operator for some billing months, made by the generator (one seed per account):
 * PDFs, or Finvoice or Peppol e-invoices for the months `format` says so.
 */
export async function generatePortalInvoices(
  operator: string,
  months: string[],
  opts: {
    seed: number;
    subscriptions: number;
    /** The company the invoices are addressed to (an import checks its business id). */
    buyer?: { name?: string; businessId: string | null };
    /** What a month's invoice is served as (default: every month a PDF). */
    format?: (month: string) => PortalFormat;
  },
): Promise<SimulatedInvoice[]> {
  const { generateInvoice, generateFinvoice, generatePeppol } = await import('@kulu/invoices/generator');
  const out: SimulatedInvoice[] = [];
  for (const [i, month] of months.entries()) {
    const format = opts.format?.(month) ?? 'pdf';
    const options = {
      operator: operator.toLowerCase(),
      seed: opts.seed,
      subscriptions: opts.subscriptions + i,
      invoiceDate: `${month}-05`,
      buyer: opts.buyer,
    };
    const eInvoice = format === 'finvoice' ? generateFinvoice : format === 'peppol' ? generatePeppol : null;
    const { file, expected } = eInvoice
      ? await Promise.resolve(eInvoice(options)).then((g) => ({ file: g.xml, expected: g.expected }))
      : await generateInvoice({ ...options, pageSize: 'A4', font: 'Helvetica' }).then((g) => ({
          file: g.pdf,
          expected: g.expected,
        }));
    out.push({
      id: crypto.randomUUID(),
      invoiceNumber: expected.invoiceNumber,
      month,
      fileName: `${operator.toLowerCase()}-${expected.invoiceNumber}.${format === 'pdf' ? 'pdf' : 'xml'}`,
      format,
      file,
    });
  }
  return out;
}
