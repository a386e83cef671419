/**
 * Operator portal connectors: one per operator, each signing in to the operator's customer portal
 * over real HTTP, listing a month's invoices and downloading their PDFs.
 *
 * We cannot reach the real Elisa, Telia or DNA portals from here, so the paths below are those of
 * the SIMULATED operator portal (simulated-portal.ts), which tests and demo mode run. A connector
 * for a real portal is a new `OperatorConnector` with that portal's sign-in and paths; the fetch
 * job does not change.
 */
import { INVOICE_MAX_BYTES } from '@kulu/shared';

export interface PortalInvoiceRef {
  id: string;
  invoiceNumber: string;
  /** yyyy-mm */
  month: string;
  fileName: string;
}

export interface PortalSession {
  token: string;
}

export interface OperatorConnector {
  /** The operator's name as in the operators table. */
  operator: string;
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

async function call(url: string, init: RequestInit, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    throw new PortalError(`${what}: portal not reachable (${(e as Error).message})`);
  }
  if (res.status === 401 || res.status === 403)
    throw new PortalError(`${what}: the portal refused the sign-in`);
  if (!res.ok) throw new PortalError(`${what}: the portal answered ${res.status}`);
  return res;
}

/** The simulated portal's API shape (JSON sign-in, bearer token, invoice list, PDF download). */
export function createHttpConnector(operator: string): OperatorConnector {
  const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;
  return {
    operator,
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
      const body = (await res.json()) as { token?: unknown };
      if (typeof body.token !== 'string') throw new PortalError('sign-in: unexpected answer');
      return { token: body.token };
    },
    async listInvoices(baseUrl, session, month) {
      const res = await call(
        join(baseUrl, `/api/invoices?month=${encodeURIComponent(month)}`),
        { headers: { authorization: `Bearer ${session.token}` } },
        'invoice list',
      );
      const body = (await res.json()) as { invoices?: PortalInvoiceRef[] };
      if (!Array.isArray(body.invoices)) throw new PortalError('invoice list: unexpected answer');
      return body.invoices.filter((i) => typeof i.id === 'string' && i.month === month);
    },
    async download(baseUrl, session, ref) {
      const res = await call(
        join(baseUrl, `/api/invoices/${encodeURIComponent(ref.id)}/pdf`),
        { headers: { authorization: `Bearer ${session.token}` } },
        `download of invoice ${ref.invoiceNumber}`,
      );
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > INVOICE_MAX_BYTES) {
        throw new PortalError(`download of invoice ${ref.invoiceNumber}: larger than 20 MB`);
      }
      const data = Buffer.from(await res.arrayBuffer());
      if (data.length > INVOICE_MAX_BYTES) {
        throw new PortalError(`download of invoice ${ref.invoiceNumber}: larger than 20 MB`);
      }
      return data;
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
