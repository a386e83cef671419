/**
 * Operator portal connectors: one per operator, each signing in to the operator's customer portal
 * over real HTTP, listing a month's invoices and downloading each as the portal offers it: a PDF, a
 * Finvoice or a Peppol BIS Billing 3.0 e-invoice (the upload reads all three, judged by content).
 *
 * We cannot reach the real Elisa, Telia or DNA portals from here, so the paths below are those of
 * the SIMULATED operator portal (demo/simulated-portal.ts), which tests and demo mode run. A connector
 * for a real portal is a new `OperatorConnector` with that portal's sign-in and paths; the fetch
 * job does not change.
 *
 * Every request goes through lib/outbound-url.ts: https to public hosts only, the resolved address
 * checked again when connecting. The simulated portal on 127.0.0.1 is reachable only because it
 * registers its own exact origin with `allowLocalOrigin` when it starts (tests, demo mode).
 */
import { INVOICE_MAX_BYTES } from '@kulu/shared';
import {
  OutboundTooLargeError,
  OutboundUrlError,
  outboundRequest,
  type OutboundResponse,
} from '../../lib/outbound-url.js';

/** What a portal delivers an invoice as. */
export type PortalInvoiceFormat = 'pdf' | 'finvoice' | 'peppol';

export interface PortalInvoiceRef {
  id: string;
  invoiceNumber: string;
  /** yyyy-mm */
  month: string;
  fileName: string;
  format: PortalInvoiceFormat;
}

export interface PortalSession {
  token: string;
}

export interface OperatorConnector {
  /** The operator's name as in the operators table. */
  operator: string;
  /** The formats this connector can download (an invoice listed in another is not fetched). */
  formats: readonly PortalInvoiceFormat[];
  login(baseUrl: string, username: string, password: string): Promise<PortalSession>;
  listInvoices(baseUrl: string, session: PortalSession, month: string): Promise<PortalInvoiceRef[]>;
  download(baseUrl: string, session: PortalSession, ref: PortalInvoiceRef): Promise<Buffer>;
}

/** A failure the Failed Invoice Download report shows (message in English, no secrets). */
export class PortalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortalError';
  }
}

const TIMEOUT_MS = 30_000;
/** The longest JSON answer (sign-in, invoice list) read from a portal. */
const JSON_MAX_BYTES = 5 * 1024 * 1024;

interface PortalAnswer {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): unknown;
}

/**
 * One call to a portal through `outboundRequest`: https to public hosts only, the resolved address
 * checked when connecting (lib/outbound-url.ts), no redirects, a time limit and a size limit.
 */
async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  what: string,
  limit: { maxBytes: number; tooLarge: string } = {
    maxBytes: JSON_MAX_BYTES,
    tooLarge: 'the answer is too large',
  },
): Promise<PortalAnswer> {
  let res: OutboundResponse;
  try {
    res = await outboundRequest(url, { ...init, timeoutMs: TIMEOUT_MS, maxBytes: limit.maxBytes });
  } catch (e) {
    if (e instanceof OutboundTooLargeError) throw new PortalError(`${what}: ${limit.tooLarge}`);
    if (e instanceof OutboundUrlError)
      throw new PortalError(`${what}: portal address refused (${e.message})`);
    throw new PortalError(`${what}: portal not reachable (${(e as Error).message})`);
  }
  if (res.status === 401 || res.status === 403)
    throw new PortalError(`${what}: the portal refused the sign-in`);
  if (res.status < 200 || res.status > 299)
    throw new PortalError(`${what}: the portal answered ${res.status}`);
  return {
    headers: res.headers,
    body: res.body,
    json() {
      try {
        return JSON.parse(res.body.toString('utf8')) as unknown;
      } catch {
        throw new PortalError(`${what}: unexpected answer`);
      }
    },
  };
}

const FORMATS: readonly PortalInvoiceFormat[] = ['pdf', 'finvoice', 'peppol'];

/**
 * The simulated portal's API shape (JSON sign-in, bearer token, invoice list with each invoice's
 * format, download of a PDF, a Finvoice or a Peppol e-invoice).
 */
export function createHttpConnector(operator: string): OperatorConnector {
  const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;
  return {
    operator,
    formats: FORMATS,
    async login(baseUrl, username, password) {
      const res = await call(
        join(baseUrl, '/api/login'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        },
        'sign-in',
      );
      const body = res.json() as { token?: unknown };
      if (typeof body.token !== 'string') throw new PortalError('sign-in: unexpected answer');
      return { token: body.token };
    },
    async listInvoices(baseUrl, session, month) {
      const res = await call(
        join(baseUrl, `/api/invoices?month=${encodeURIComponent(month)}`),
        { headers: { authorization: `Bearer ${session.token}` } },
        'invoice list',
      );
      const body = res.json() as { invoices?: Array<Partial<PortalInvoiceRef>> };
      if (!Array.isArray(body.invoices)) throw new PortalError('invoice list: unexpected answer');
      return body.invoices.flatMap((i) =>
        typeof i.id === 'string' && i.month === month
          ? // Unnamed is a PDF (older portals); an unknown format stays as named and is not fetched.
            [{ ...(i as PortalInvoiceRef), format: (i.format ?? 'pdf') as PortalInvoiceFormat }]
          : [],
      );
    },
    async download(baseUrl, session, ref) {
      const res = await call(
        join(baseUrl, `/api/invoices/${encodeURIComponent(ref.id)}/${ref.format}`),
        { headers: { authorization: `Bearer ${session.token}` } },
        `download of invoice ${ref.invoiceNumber}`,
        { maxBytes: INVOICE_MAX_BYTES, tooLarge: 'larger than 20 MB' },
      );
      return res.body;
    },
  };
}

const CONNECTORS = new Map<string, OperatorConnector>(
  ['Elisa', 'Telia', 'DNA'].map((name) => [name.toLowerCase(), createHttpConnector(name)]),
);

export function connectorFor(operatorName: string): OperatorConnector | undefined {
  return CONNECTORS.get(operatorName.toLowerCase());
}

/** Adds (or replaces) an operator's connector, e.g. a fourth operator. */
export function registerConnector(connector: OperatorConnector): void {
  CONNECTORS.set(connector.operator.toLowerCase(), connector);
}
