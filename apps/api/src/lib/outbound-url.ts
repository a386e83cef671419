/**
 * Outbound requests to addresses users give (operator portal URLs). Kulu must not become a way to
 * reach the server's own network: only `https` to public hosts is allowed. Host names that are IP
 * literals are checked as written; other names are checked on every address they resolve to, once
 * when the URL is saved and again when connecting (the connection's own DNS lookup is guarded, so a
 * name that resolves to a public address at save time and to a private one later is refused, and
 * the address checked is the address connected to).
 *
 * The one exception is an exact origin that this process itself registered with
 * `allowLocalOrigin` (the SIMULATED operator portal of tests and demo mode, on 127.0.0.1). It is
 * set in code by the one that starts such a server, never by configuration or a user's input.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export class OutboundUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundUrlError';
  }
}

const blocked = new net.BlockList();
for (const [addr, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (shared)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(addr, bits, 'ipv4');
}
for (const [addr, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64 (an IPv4 address inside)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(addr, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx). */
function mappedIpv4(ip: string): string | null {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(ip);
  if (!m) return null;
  if (net.isIPv4(m[1])) return m[1];
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(m[1]);
  if (!hex) return null;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Whether an IP address is a public unicast address: not loopback, private, link-local,
 * unique-local, unspecified, multicast, reserved or documentation; an IPv4-mapped IPv6 address
 * is judged by its IPv4 address. Anything that is not an IP address is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return !blocked.check(bare, 'ipv4');
  if (family !== 6) return false;
  const v4 = mappedIpv4(bare);
  if (v4) return !blocked.check(v4, 'ipv4');
  return !blocked.check(bare, 'ipv6');
}

const localOrigins = new Set<string>();

/**
 * Lets outbound requests reach one exact origin (scheme, host, port) that this process started,
 * such as the simulated operator portal on 127.0.0.1. Returns the function that takes it back.
 */
export function allowLocalOrigin(origin: string): () => void {
  const o = new URL(origin).origin;
  localOrigins.add(o);
  return () => localOrigins.delete(o);
}

/** Whether a URL is one of the origins registered with `allowLocalOrigin`. */
const isAllowedLocal = (url: URL) => localOrigins.has(url.origin);

/**
 * Parses and checks what can be checked without DNS: `https`, no credentials in the URL, and a
 * host name that is not an IP literal of a non-public address (nor `localhost`).
 */
export function parseOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError('not a valid URL');
  }
  if (isAllowedLocal(url)) return url;
  if (url.protocol !== 'https:') throw new OutboundUrlError('only https addresses are allowed');
  if (url.username || url.password) throw new OutboundUrlError('credentials in the address are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw new OutboundUrlError('the address is not a public host');
  } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    throw new OutboundUrlError('the address is not a public host');
  }
  return url;
}

/** Resolves a host name (all addresses) and refuses it when any address is not public. */
async function resolvePublic(host: string): Promise<dns.LookupAddress[]> {
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new OutboundUrlError('the host name does not resolve');
  }
  if (!addresses.length || addresses.some((a) => !isPublicAddress(a.address))) {
    throw new OutboundUrlError('the address is not a public host');
  }
  return addresses;
}

/** The full check of a URL someone wants Kulu to call: the static checks and the resolved addresses. */
export async function checkOutboundUrl(raw: string): Promise<URL> {
  const url = parseOutboundUrl(raw);
  if (isAllowedLocal(url)) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(host)) await resolvePublic(host);
  return url;
}

/** The DNS lookup of outbound connections: the same resolution, refusing non-public addresses. */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  resolvePublic(hostname).then(
    (addresses) => {
      const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
      if (!wanted.length) return callback(new OutboundUrlError('no address of the wanted family'), '', 0);
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    },
    (e: Error) => callback(e as NodeJS.ErrnoException, '', 0),
  );
};

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Longest body accepted; a longer answer fails with `tooLarge`. */
  maxBytes: number;
}

export class OutboundTooLargeError extends Error {
  constructor() {
    super('the answer is too large');
    this.name = 'OutboundTooLargeError';
  }
}

/**
 * One request to a checked URL. Redirects are not followed (a 3xx is returned as it is), the
 * connection's DNS lookup refuses non-public addresses, and the body is read up to `maxBytes`.
 */
export async function outboundRequest(raw: string, req: OutboundRequest): Promise<OutboundResponse> {
  const url = parseOutboundUrl(raw);
  const local = isAllowedLocal(url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const r = client.request(
      url,
      {
        method: req.method ?? 'GET',
        headers: req.headers,
        signal: AbortSignal.timeout(req.timeoutMs),
        ...(local ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > req.maxBytes) {
          res.destroy();
          return reject(new OutboundTooLargeError());
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > req.maxBytes) {
            res.destroy();
            reject(new OutboundTooLargeError());
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}
